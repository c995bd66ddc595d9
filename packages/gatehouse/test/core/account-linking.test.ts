/**
 * Who a provider sign-in signs in as (Auth.js's handleLoginOrRegister rules), with a real
 * request context and the memory adapter.
 */
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { resolveSignInUser, type SignInIdentity } from "../../src/core/account-linking.js"
import { resolveConfig } from "../../src/core/config.js"
import { toInternalRequest } from "../../src/core/internal-request.js"
import { createRequestContext } from "../../src/core/request-context.js"
import { encode } from "../../src/jwt/index.js"
import type { Account, AuthConfig, EventCallbacks } from "../../src/types.js"
import { storedKey } from "../flow/flow-helpers.js"

const secret = "account-linking-secret-0123456789abcdef0123"
const SESSION_COOKIE = "__Secure-authjs.session-token"
const github: Account = { provider: "github", providerAccountId: "gh-42", type: "oauth", access_token: "at" }
const octocat = { id: "gh-42", name: "Octo Cat", email: "octo@example.com", image: null }

type Events = { name: keyof EventCallbacks; message: Record<string, unknown> }[]

async function setup(options: { strategy?: "jwt" | "database"; withAdapter?: boolean } = {}) {
  const adapter = MemoryAdapter()
  const events: Events = []
  const record = (name: keyof EventCallbacks) => (message: unknown) => void events.push({ name, message: message as Record<string, unknown> })
  const config: AuthConfig = {
    secret,
    trustHost: true,
    providers: [],
    ...(options.withAdapter !== false && { adapter }),
    session: { strategy: options.strategy ?? "database" },
    events: { createUser: record("createUser"), updateUser: record("updateUser"), linkAccount: record("linkAccount") },
  }
  /** Resolves `identity` for a request carrying `cookie`. */
  async function signIn(identity: SignInIdentity, cookie = "") {
    const request = new Request("https://app.test/auth/callback/github", { headers: { cookie } })
    const ctx = await createRequestContext(resolveConfig(config), await toInternalRequest(request, "/auth"))
    return resolveSignInUser(ctx, identity)
  }
  return { adapter, events, signIn }
}

describe("signing in through a provider account", () => {
  it("signs the provider's user in as is when there is no adapter", async () => {
    const { signIn } = await setup({ withAdapter: false, strategy: "jwt" })
    expect(await signIn({ user: octocat, account: github })).toEqual({ user: octocat, isNewUser: false })
  })

  it("creates a new user with its own id, links the account and fires both events", async () => {
    const { adapter, events, signIn } = await setup()
    const { user, isNewUser } = await signIn({ user: octocat, account: github })
    expect(isNewUser).toBe(true)
    expect(user.id).not.toBe("gh-42")
    expect(await adapter.getUser(user.id!)).toMatchObject({ email: "octo@example.com", emailVerified: null })
    expect(await adapter.getUserByAccount({ provider: "github", providerAccountId: "gh-42" })).toMatchObject({ id: user.id })
    expect(events.map((event) => event.name)).toEqual(["createUser", "linkAccount"])
    expect(events[1]!.message).toMatchObject({ account: { userId: user.id, access_token: "at" }, profile: octocat })
  })

  it("signs a known account in as its owner, creating nothing", async () => {
    const { events, signIn } = await setup()
    const first = await signIn({ user: octocat, account: github })
    events.length = 0
    expect(await signIn({ user: octocat, account: github })).toEqual({ user: first.user, isNewUser: false })
    expect(events).toEqual([])
  })

  it("links a new account to the user signed in with a database session", async () => {
    const { adapter, events, signIn } = await setup()
    const owner = await adapter.createUser({ email: "me@example.com", emailVerified: null })
    await adapter.createSession({ sessionToken: storedKey("live-token"), userId: owner.id, expires: new Date(Date.now() + 60_000) })
    const outcome = await signIn({ user: octocat, account: github }, `${SESSION_COOKIE}=live-token`)
    expect(outcome).toMatchObject({ user: { id: owner.id }, isNewUser: false })
    expect(await adapter.getUserByAccount(github)).toMatchObject({ id: owner.id })
    expect(events.map((event) => event.name)).toEqual(["linkAccount"])
  })

  it("links a new account to the user signed in with a JWT session", async () => {
    const { adapter, signIn } = await setup({ strategy: "jwt" })
    const owner = await adapter.createUser({ email: "me@example.com", emailVerified: null })
    const token = await encode({ token: { sub: owner.id }, secret, salt: SESSION_COOKIE })
    const outcome = await signIn({ user: octocat, account: github }, `${SESSION_COOKIE}=${token}`)
    expect(outcome.user.id).toBe(owner.id)
  })

  it("ignores a revoked JWT session when looking for the signed-in user, however young the token", async () => {
    const { adapter, signIn } = await setup({ strategy: "jwt" })
    const owner = await adapter.createUser({ email: "me@example.com", emailVerified: null })
    const token = await encode({ token: { sub: owner.id }, secret, salt: SESSION_COOKIE })
    await adapter.incrementSessionVersion(owner.id)
    const outcome = await signIn({ user: octocat, account: github }, `${SESSION_COOKIE}=${token}`)
    expect(outcome.isNewUser).toBe(true)
    expect(outcome.user.id).not.toBe(owner.id)
    expect(await adapter.listAccountsByUserId(owner.id)).toEqual([])
  })

  it("ignores an expired database session or an undecodable JWT when looking for the signed-in user", async () => {
    const db = await setup()
    const owner = await db.adapter.createUser({ email: "me@example.com", emailVerified: null })
    await db.adapter.createSession({ sessionToken: storedKey("old"), userId: owner.id, expires: new Date(Date.now() - 1000) })
    expect((await db.signIn({ user: octocat, account: github }, `${SESSION_COOKIE}=old`)).isNewUser).toBe(true)

    const jwt = await setup({ strategy: "jwt" })
    expect((await jwt.signIn({ user: octocat, account: github }, `${SESSION_COOKIE}=garbage`)).isNewUser).toBe(true)
  })

  it("removes a user it just created when the account cannot be linked, so a retry can succeed", async () => {
    const { adapter, signIn } = await setup()
    const linkAccount = adapter.linkAccount
    adapter.linkAccount = () => Promise.reject(new Error("deadlock detected"))
    await expect(signIn({ user: octocat, account: github })).rejects.toMatchObject({ type: "AdapterError" })
    expect(await adapter.getUserByEmail("octo@example.com")).toBeNull()
    adapter.linkAccount = linkAccount
    expect((await signIn({ user: octocat, account: github })).isNewUser).toBe(true)
  })

  it("refuses an account that belongs to someone other than the signed-in user", async () => {
    const { adapter, signIn } = await setup()
    await signIn({ user: octocat, account: github })
    const other = await adapter.createUser({ email: "other@example.com", emailVerified: null })
    await adapter.createSession({ sessionToken: storedKey("other-token"), userId: other.id, expires: new Date(Date.now() + 60_000) })
    await expect(signIn({ user: octocat, account: github }, `${SESSION_COOKIE}=other-token`)).rejects.toMatchObject({
      type: "OAuthAccountNotLinked",
      message: "The account is already associated with another user",
    })
  })

  it("refuses to attach an account to an existing user found only by email, unless dangerous linking is on", async () => {
    const { adapter, events, signIn } = await setup()
    const existing = await adapter.createUser({ email: "octo@example.com", emailVerified: new Date() })
    await expect(signIn({ user: octocat, account: github })).rejects.toMatchObject({
      type: "OAuthAccountNotLinked",
      message: "Another account already exists with the same e-mail address",
    })
    expect(await adapter.getUserByAccount(github)).toBeNull()

    const outcome = await signIn({ user: octocat, account: github, allowDangerousEmailAccountLinking: true })
    expect(outcome).toMatchObject({ user: { id: existing.id }, isNewUser: false })
    // Auth.js also fires createUser here although no user was created; Gatehouse does not.
    expect(events.map((event) => event.name)).toEqual(["linkAccount"])
  })

  it("creates the user with the address proven when the provider vouched for it", async () => {
    const { adapter, signIn } = await setup()
    const { user } = await signIn({ user: octocat, account: github, emailProven: true })
    expect((await adapter.getUser(user.id!))!.emailVerified).toBeInstanceOf(Date)
  })

  it("marks a returning user's address proven once their provider vouches for it (an Auth.js row heals), taking nothing away", async () => {
    const { adapter, signIn } = await setup()
    const { user } = await signIn({ user: octocat, account: github })
    await adapter.linkAccount({ userId: user.id!, provider: "google", providerAccountId: "g-1", type: "oidc" })
    expect((await adapter.getUser(user.id!))!.emailVerified).toBeNull()
    await signIn({ user: { ...octocat, email: "other@example.com" }, account: github, emailProven: true })
    expect((await adapter.getUser(user.id!))!.emailVerified).toBeNull()
    const outcome = await signIn({ user: octocat, account: github, emailProven: true })
    expect(outcome.removed).toBeUndefined()
    expect((await adapter.getUser(user.id!))!.emailVerified).toBeInstanceOf(Date)
    expect((await adapter.listAccountsByUserId(user.id!)).map((account) => account.provider).sort()).toEqual(["github", "google"])
    // And it keeps working for an adapter that could not claim anything (Auth.js's).
    const { adapter: plain, signIn: plainSignIn } = await setup()
    delete (plain as Partial<typeof plain>).listAccountsByUserId
    const first = await plainSignIn({ user: octocat, account: github })
    await expect(plainSignIn({ user: octocat, account: github, emailProven: true })).resolves.toMatchObject({ user: { id: first.user.id } })
  })

  describe("a user whose address was never proven (Gatehouse is stricter than Auth.js here)", () => {
    const gitlab: Account = { provider: "gitlab", providerAccountId: "gl-7", type: "oauth" }

    it("is not joined by dangerous linking when this sign-in does not prove the address either", async () => {
      const { adapter, signIn } = await setup()
      await signIn({ user: octocat, account: gitlab })
      await expect(signIn({ user: octocat, account: github, allowDangerousEmailAccountLinking: true })).rejects.toMatchObject({
        type: "OAuthAccountNotLinked",
      })
      expect(await adapter.getUserByAccount(github)).toBeNull()
    })

    it("is joined by dangerous linking that proves the address only after its accounts and sessions are gone", async () => {
      const { adapter, signIn } = await setup()
      const { user: unproven } = await signIn({ user: octocat, account: gitlab })
      const token = "0123456789abcdef0123456789abcdef"
      await adapter.createSession({ sessionToken: storedKey(token), userId: unproven.id!, expires: new Date(Date.now() + 60_000) })
      const outcome = await signIn({ user: octocat, account: github, allowDangerousEmailAccountLinking: true, emailProven: true })
      expect(outcome).toMatchObject({ user: { id: unproven.id }, isNewUser: false, removed: { accounts: [{ provider: "gitlab", type: "oauth" }], credentials: false } })
      expect(await adapter.getUserByAccount(gitlab)).toBeNull()
      expect(await adapter.getUserByAccount(github)).toMatchObject({ id: unproven.id })
      expect(await adapter.getSessionAndUser(storedKey(token))).toBeNull()
      expect((await adapter.getUser(unproven.id!))!.emailVerified).toBeInstanceOf(Date)
    })

    it("loses its other accounts and passkeys, and its sessions end, when someone proves the address by email", async () => {
      const { adapter, signIn } = await setup({ strategy: "jwt" })
      const { user: unproven } = await signIn({ user: octocat, account: gitlab })
      await adapter.linkAccount({ userId: unproven.id!, provider: "passkey", providerAccountId: "cred-1", type: "webauthn" })
      await adapter.createAuthenticator({
        credentialID: "cred-1", providerAccountId: "cred-1", userId: unproven.id!, credentialPublicKey: "AA==", counter: 0,
        credentialDeviceType: "singleDevice", credentialBackedUp: false,
      })
      const email: Account = { provider: "email", providerAccountId: "octo@example.com", type: "email" }
      const outcome = await signIn({ user: { email: "octo@example.com" }, account: email })
      expect(outcome.removed?.accounts.map((account) => account.provider).sort()).toEqual(["gitlab", "passkey"])
      expect(await adapter.listAccountsByUserId(unproven.id!)).toEqual([])
      expect(await adapter.getAuthenticator("cred-1")).toBeNull()
      expect(await adapter.getSessionVersion(unproven.id!)).toBeGreaterThan(0)
      expect((await adapter.getUser(unproven.id!))!.emailVerified).toBeInstanceOf(Date)
    })

    it("loses a second factor set up before the address was proven, and says so", async () => {
      const { adapter, signIn } = await setup({ strategy: "jwt" })
      const { user: unproven } = await signIn({ user: octocat, account: gitlab })
      await adapter.setTotpPendingSecret!(unproven.id!, "sealed-by-the-squatter")
      await adapter.enableTotp!(unproven.id!, { sealed: "sealed-by-the-squatter", step: 1, recoveryCodeHashes: ["h1"] })
      const email: Account = { provider: "email", providerAccountId: "octo@example.com", type: "email" }
      const outcome = await signIn({ user: { email: "octo@example.com" }, account: email })
      expect(outcome.removed).toMatchObject({ twoFactor: true })
      expect(await adapter.getTwoFactor!(unproven.id!)).toBeNull()
    })

    it("reports no second factor removed when there was none", async () => {
      const { signIn } = await setup({ strategy: "jwt" })
      await signIn({ user: octocat, account: gitlab })
      const email: Account = { provider: "email", providerAccountId: "octo@example.com", type: "email" }
      const outcome = await signIn({ user: { email: "octo@example.com" }, account: email })
      expect(outcome.removed).not.toHaveProperty("twoFactor")
    })

    it("is not claimed at all (the sign-in fails, nothing changes) when the adapter cannot list its accounts", async () => {
      const { adapter, signIn } = await setup()
      const { user: unproven } = await signIn({ user: octocat, account: gitlab })
      delete (adapter as Partial<typeof adapter>).listAccountsByUserId
      const email: Account = { provider: "email", providerAccountId: "octo@example.com", type: "email" }
      await expect(signIn({ user: { email: "octo@example.com" }, account: email })).rejects.toMatchObject({ type: "MissingAdapterMethods" })
      expect(await adapter.getUserByAccount(gitlab)).toMatchObject({ id: unproven.id })
      expect((await adapter.getUser(unproven.id!))!.emailVerified).toBeNull()
    })
  })

  it("never links a passkey by email, with the passkey's own error", async () => {
    const { adapter, signIn } = await setup()
    await adapter.createUser({ email: "octo@example.com", emailVerified: null })
    const passkey: Account = { provider: "passkey", providerAccountId: "cred-1", type: "webauthn" }
    await expect(signIn({ user: octocat, account: passkey, allowDangerousEmailAccountLinking: true })).rejects.toMatchObject({
      type: "AccountNotLinked",
    })
  })

  it("marks an existing user's email verified on email sign-in, without linking an account", async () => {
    const { adapter, events, signIn } = await setup()
    const existing = await adapter.createUser({ email: "octo@example.com", emailVerified: null })
    const email: Account = { provider: "email", providerAccountId: "octo@example.com", type: "email" }
    const outcome = await signIn({ user: { email: "octo@example.com" }, account: email })
    expect(outcome).toMatchObject({ user: { id: existing.id }, isNewUser: false })
    expect((await adapter.getUser(existing.id))!.emailVerified).toBeInstanceOf(Date)
    expect(events.map((event) => event.name)).toEqual(["updateUser"])
    expect(await adapter.getUserByAccount({ provider: "email", providerAccountId: "octo@example.com" })).toBeNull()
  })

  it("creates a verified user on a first email sign-in", async () => {
    const { adapter, events, signIn } = await setup()
    const email: Account = { provider: "email", providerAccountId: "new@example.com", type: "email" }
    const outcome = await signIn({ user: { email: "new@example.com" }, account: email })
    expect(outcome.isNewUser).toBe(true)
    expect((await adapter.getUserByEmail("new@example.com"))!.emailVerified).toBeInstanceOf(Date)
    expect(events.map((event) => event.name)).toEqual(["createUser"])
  })

  it("rejects an account without a providerAccountId or of the credentials type", async () => {
    const { signIn } = await setup()
    await expect(signIn({ user: octocat, account: { ...github, providerAccountId: "" } })).rejects.toThrow(/providerAccountId/)
    await expect(signIn({ user: octocat, account: { ...github, type: "credentials" } })).rejects.toThrow(/credentials/)
  })
})

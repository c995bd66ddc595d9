/**
 * Account pre-hijacking: an attacker makes an account for the victim's address before the victim
 * ever signs up, then keeps a way in once the victim uses it. Each entry point (a passkey, an
 * OAuth provider that did not vouch for the address, the application's own credentials sign-up)
 * is played through `Auth()` with the real flows (real passkey signatures, a real OpenID provider,
 * real email links), and Auth.js is shown joining the victim to the attacker's account where
 * Gatehouse does not (see src/core/unproven-account.ts, and SECURITY.md).
 */
import { Auth as AuthJs } from "@auth/core"
import type { Adapter as AuthJsAdapter } from "@auth/core/adapters"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import type { AdapterUser } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { assertConfig } from "../../src/core/assert-config.js"
import { resolveConfig } from "../../src/core/config.js"
import { Credentials } from "../../src/providers/credentials.js"
import { Passkey } from "../../src/providers/passkey.js"
import type { EmailConfig, OAuthConfig, VerificationRequestParams } from "../../src/providers/types.js"
import type { AuthConfig } from "../../src/types.js"
import { Browser } from "../support/browser.js"
import { startOidcServer, type OidcServer } from "../support/oidc-server.js"
import { SoftwareAuthenticator } from "../support/software-authenticator.js"
import { authApp, csrfToken, sessionOf, signIn } from "../flow/end-to-end-helpers.js"
import { recordingLogger, secret } from "../flow/flow-helpers.js"
import { storedAdapters, type OpenStore } from "../flow/stored-adapters.js"

const APP = "https://app.test"
const DASHBOARD = `${APP}/dashboard`
const VICTIM = "victim@example.com"

/** Signs in with `key`'s passkey from a fresh browser, and finds no session: the passkey was removed. */
async function expectPasskeySignsNobodyIn(later: Browser, key: SoftwareAuthenticator): Promise<void> {
  const again = (await later.get(`${APP}/auth/webauthn-options/passkey`)).last.json() as { options: { challenge: string } }
  const assertion = key.authenticate({ challenge: again.options.challenge, origin: APP, rpId: "app.test" })
  await later.post(`${APP}/auth/callback/passkey`, { action: "authenticate", data: JSON.stringify(assertion) })
  expect(await sessionOf(later)).toBeNull()
}

/** An OpenID provider where Mallory claims the victim's address unverified and the victim verified. */
function startVictimProvider(): Promise<OidcServer> {
  return startOidcServer({
    clients: [{ client_id: "app-client", client_secret: "app-secret", redirect_uris: [`${APP}/auth/callback/idp`] }],
    accounts: {
      mallory: { email: VICTIM, email_verified: false, name: "Mallory" },
      victim: { email: VICTIM, email_verified: true, name: "Victim" },
    },
  })
}

type Session = { user?: { name?: string | null; email?: string | null } } | null

/** An app with email links (captured), and whatever else a test adds, on the memory adapter unless given another. */
function app(extra: Partial<AuthConfig> = {}, providers: AuthConfig["providers"] = [], adapter = MemoryAdapter()) {
  const sent: VerificationRequestParams[] = []
  const email: EmailConfig = { id: "email", name: "Email", type: "email", sendVerificationRequest: (params) => void sent.push(params) }
  const log = recordingLogger()
  const config: AuthConfig = {
    secret,
    trustHost: true,
    logger: log.logger,
    adapter,
    experimental: { enableWebAuthn: true },
    // Revocation is checked on every read here, so an ended JWT session shows at once.
    session: { strategy: "jwt", revocationCheckAge: 0 },
    providers: [email, ...providers],
    ...extra,
  }
  const browser = () => new Browser({ app: authApp(config), appOrigin: APP })
  /** The victim asks for a link in `victim` and opens it there; returns the landing answer. */
  async function provesAddress(victim: Browser, address = VICTIM) {
    await victim.post(`${APP}/auth/signin/email`, { email: address, csrfToken: await csrfToken(victim), callbackUrl: DASHBOARD }, { follow: false })
    return victim.get(sent.at(-1)!.url, { follow: false })
  }
  return { adapter, config, browser, provesAddress, log }
}

describe("a passkey registered for the victim's address before they sign up", () => {
  it("loses its way in, and its sessions, when the victim proves the address; the victim is told", async () => {
    const { adapter, browser, provesAddress } = app({}, [Passkey()])
    const attacker = browser()
    const key = new SoftwareAuthenticator()
    const options = (await attacker.get(`${APP}/auth/webauthn-options/passkey?action=register&email=${VICTIM}`)).last.json() as { options: { challenge: string } }
    const registration = key.register({ challenge: options.options.challenge, origin: APP, rpId: "app.test" })
    await attacker.post(`${APP}/auth/callback/passkey`, { action: "register", data: JSON.stringify(registration) })
    // The address typed is stored, as in Auth.js, but as never proven.
    expect(((await sessionOf(attacker)) as Session)?.user?.email).toBe(VICTIM)
    expect(await adapter.getUserByEmail(VICTIM)).toMatchObject({ emailVerified: null })

    const victim = browser()
    const landed = await provesAddress(victim)
    expect(landed.last.status).toBe(200)
    expect(landed.last.body).toContain("Your address is confirmed")
    expect(((await sessionOf(victim)) as Session)?.user?.email).toBe(VICTIM)
    const victimUser = (await adapter.getUserByEmail(VICTIM))!
    expect(victimUser.emailVerified).toEqual(expect.any(Date))
    expect(await adapter.listAuthenticatorsByUserId(victimUser.id)).toEqual([])

    // The attacker's session ended, and their passkey signs nobody in any more.
    expect(await sessionOf(attacker)).toBeNull()
    await expectPasskeySignsNobodyIn(browser(), key)
  })

  it("is refused, never joined, for an address a user already has", async () => {
    const { adapter, browser } = app({}, [Passkey()])
    const victimUser = await adapter.createUser({ email: VICTIM, emailVerified: new Date(), name: "Victim" })
    const attacker = browser()
    const refused = await passkeySignUp(attacker, new SoftwareAuthenticator())
    expect(refused.last.location).toBe(`${APP}/auth/signin?error=AccountNotLinked`)
    expect(await sessionOf(attacker)).toBeNull()
    expect(await adapter.listAuthenticatorsByUserId(victimUser.id)).toEqual([])
    expect(await adapter.listAccountsByUserId(victimUser.id)).toEqual([])
  })
})

describe("an OAuth account with an address its provider did not vouch for", () => {
  let server: OidcServer
  beforeAll(async () => {
    server = await startVictimProvider()
  })
  afterAll(() => server?.stop())

  const idp = (overrides: Partial<OAuthConfig> = {}): OAuthConfig => ({
    id: "idp",
    name: "Acme ID",
    type: "oidc",
    issuer: server.issuer,
    clientId: "app-client",
    clientSecret: "app-secret",
    ...overrides,
  })

  it("is removed, and its sessions end, when the victim proves the address; the victim is told", async () => {
    const { adapter, browser, provesAddress } = app({}, [idp()])
    const attacker = browser()
    await signIn(attacker, "idp", { query: { login_hint: "mallory" } })
    expect(((await sessionOf(attacker)) as Session)?.user?.email).toBe(VICTIM)
    expect(await adapter.getUserByEmail(VICTIM)).toMatchObject({ emailVerified: null })

    const victim = browser()
    const landed = await provesAddress(victim)
    expect(landed.last.status).toBe(200)
    const page = landed.last.body
    expect(page).toContain("Your address is confirmed")
    expect(page).toContain("Your Acme ID account")
    expect(page).toContain(`href="${DASHBOARD}"`)
    expect(((await sessionOf(victim)) as Session)?.user?.email).toBe(VICTIM)

    // The attacker's session ended, and their account no longer leads into the victim's.
    expect(await sessionOf(attacker)).toBeNull()
    const user = (await adapter.getUserByEmail(VICTIM))!
    expect(await adapter.listAccountsByUserId(user.id)).toEqual([])
    const retry = await signIn(browser(), "idp", { query: { login_hint: "mallory" } })
    expect(retry.url).toBe(`${APP}/auth/signin?error=OAuthAccountNotLinked`)
  })

  it("is not joined through dangerous linking by another sign-in that does not prove the address either", async () => {
    const { adapter, browser } = app({}, [idp({ allowDangerousEmailAccountLinking: true })])
    await adapter.createUser({ email: VICTIM, emailVerified: null, name: "made by someone" })
    const visit = await signIn(browser(), "idp", { query: { login_hint: "mallory" } })
    expect(visit.url).toBe(`${APP}/auth/signin?error=OAuthAccountNotLinked`)
  })

  it("stores the address as proven when the provider vouched for it, so a later email sign-in removes nothing", async () => {
    const { adapter, browser, provesAddress } = app({}, [idp()])
    const victim = browser()
    await signIn(victim, "idp", { query: { login_hint: "victim" } })
    expect(await adapter.getUserByEmail(VICTIM)).toMatchObject({ emailVerified: expect.any(Date) })
    const landed = await provesAddress(browser())
    expect(landed.last.location).toBe(DASHBOARD)
    const user = (await adapter.getUserByEmail(VICTIM))!
    expect((await adapter.listAccountsByUserId(user.id)).map((account) => account.provider)).toEqual(["idp"])
  })
})

/** Registers a passkey signed out for `address` in `browser` (a sign-up); returns the callback's visit. */
async function passkeySignUp(browser: Browser, key: SoftwareAuthenticator, address = VICTIM) {
  const options = (await browser.get(`${APP}/auth/webauthn-options/passkey?action=register&email=${address}`)).last.json() as { options: { challenge: string } }
  const registration = key.register({ challenge: options.options.challenge, origin: APP, rpId: "app.test" })
  return browser.post(`${APP}/auth/callback/passkey`, { action: "register", data: JSON.stringify(registration) }, { follow: false })
}

describe.each(storedAdapters.filter((store) => store.name !== "PostgreSQL"))(
  "a squatted address, when its owner signs in through a provider that vouches for it, without dangerous linking ($name)",
  (store) => {
    let server: OidcServer
    let opened: OpenStore
    beforeAll(async () => {
      server = await startVictimProvider()
    })
    afterAll(() => server?.stop())
    beforeEach(async () => {
      opened = await store.open()
    })
    afterEach(() => opened.close())

    const idp = (): OAuthConfig => ({ id: "idp", name: "Acme ID", type: "oidc", issuer: server.issuer, clientId: "app-client", clientSecret: "app-secret" })
    /** Passkeys and the OpenID provider, without email links: the provider's word is the only proof. */
    const squattable = () => app({ providers: [Passkey(), idp()] }, [], opened.adapter as unknown as ReturnType<typeof MemoryAdapter>)

    it("claims the account a passkey sign-up made for the address: the passkey and its sessions go, the owner is told and signed in", async () => {
      const { adapter, browser, log } = squattable()
      const attacker = browser()
      const key = new SoftwareAuthenticator()
      await passkeySignUp(attacker, key)
      expect(((await sessionOf(attacker)) as Session)?.user?.email).toBe(VICTIM)
      const squatted = (await adapter.getUserByEmail(VICTIM))!

      const victim = browser()
      const landed = await signIn(victim, "idp", { query: { login_hint: "victim" } })
      expect(landed.url).not.toContain("error=")
      expect(landed.last.body).toContain("Your address is confirmed")
      expect(((await sessionOf(victim)) as Session)?.user?.email).toBe(VICTIM)
      const owner = (await adapter.getUserByEmail(VICTIM))!
      expect(owner.id).toBe(squatted.id)
      expect(owner.emailVerified).toEqual(expect.any(Date))
      expect(await adapter.listAuthenticatorsByUserId(owner.id)).toEqual([])
      expect((await adapter.listAccountsByUserId(owner.id)).map((account) => account.provider)).toEqual(["idp"])
      expect(log.lines.map((line) => line.code)).toContain("unproven-account-claimed")

      // The attacker's session ended, and their passkey signs nobody in any more.
      expect(await sessionOf(attacker)).toBeNull()
      await expectPasskeySignsNobodyIn(browser(), key)
    })

    it("leaves an account a provider made (as every Auth.js OAuth user looks: unproven) to Auth.js's answer, its link and session untouched", async () => {
      const { adapter, browser } = squattable()
      const first = browser()
      await signIn(first, "idp", { query: { login_hint: "mallory" } })
      const made = (await adapter.getUserByEmail(VICTIM))!
      expect(made).toMatchObject({ emailVerified: null })

      const vouched = await signIn(browser(), "idp", { query: { login_hint: "victim" } })
      expect(vouched.url).toBe(`${APP}/auth/signin?error=OAuthAccountNotLinked`)
      expect(await adapter.getUserByEmail(VICTIM)).toMatchObject({ id: made.id, emailVerified: null })
      expect((await adapter.listAccountsByUserId(made.id)).map((account) => account.provider)).toEqual(["idp"])
      expect(((await sessionOf(first)) as Session)?.user?.email).toBe(VICTIM)
    })

    it("claims the account the application's own sign-up made: the password is revoked, as an email link would", async () => {
      const passwords = new Map<string, string>()
      const credentials = Credentials({
        credentials: { email: {}, password: {} },
        authorize: async ({ email, password }) => {
          const user = await opened.adapter.getUserByEmail!(String(email))
          return user && passwords.get(user.id) === password ? user : null
        },
        revokeCredentials: (user: AdapterUser) => passwords.delete(user.id),
      })
      const { adapter, browser } = app({ providers: [credentials, idp()] }, [], opened.adapter as unknown as ReturnType<typeof MemoryAdapter>)
      const squatted = await adapter.createUser({ email: VICTIM, emailVerified: null, name: "Signed up by someone" })
      passwords.set(squatted.id, "attacker's password")

      const landed = await signIn(browser(), "idp", { query: { login_hint: "victim" } })
      expect(landed.last.body).toContain("A password")
      expect(passwords.has(squatted.id)).toBe(false)
      expect(await adapter.getUserByEmail(VICTIM)).toMatchObject({ id: squatted.id, emailVerified: expect.any(Date) })
    })

    it("still refuses a provider's sign-in that does not vouch, and never joins a proven owner without dangerous linking", async () => {
      const { adapter, browser } = squattable()
      await adapter.createUser({ email: VICTIM, emailVerified: null, name: "made by someone" })
      const unvouched = await signIn(browser(), "idp", { query: { login_hint: "mallory" } })
      expect(unvouched.url).toBe(`${APP}/auth/signin?error=OAuthAccountNotLinked`)

      const proven = await adapter.createUser({ email: "owner@example.com", emailVerified: new Date(), name: "Owner" })
      expect(proven.emailVerified).toEqual(expect.any(Date))
      await adapter.updateUser({ id: (await adapter.getUserByEmail(VICTIM))!.id, emailVerified: new Date() })
      const vouched = await signIn(browser(), "idp", { query: { login_hint: "victim" } })
      expect(vouched.url).toBe(`${APP}/auth/signin?error=OAuthAccountNotLinked`)
    })

    it("answers as Auth.js does (OAuthAccountNotLinked) where the adapter cannot claim, and says so at startup", async () => {
      const { listAccountsByUserId: _cannotList, ...lacking } = opened.adapter as unknown as ReturnType<typeof MemoryAdapter>
      const { adapter, browser, config } = app({ providers: [idp()] }, [], lacking as ReturnType<typeof MemoryAdapter>)
      await adapter.createUser({ email: VICTIM, emailVerified: null, name: "made by someone" })
      const vouched = await signIn(browser(), "idp", { query: { login_hint: "victim" } })
      expect(vouched.url).toBe(`${APP}/auth/signin?error=OAuthAccountNotLinked`)
      // (Read from the check itself: a warning is logged once per process and provider list.)
      expect(assertConfig(resolveConfig({ ...config })).warnings).toContain("unproven-accounts-unclaimable")
    })
  },
)

describe("the application's own credentials sign-up, for an address nobody proved", () => {
  /** An app whose sign-up stores a password beside the user, as most credentials apps do. */
  function passwordApp(revoke: boolean) {
    const passwords = new Map<string, string>()
    let adapterRef: ReturnType<typeof MemoryAdapter> | undefined
    const credentials = Credentials({
      credentials: { email: {}, password: {} },
      authorize: async ({ email, password }) => {
        const user = await adapterRef!.getUserByEmail(String(email))
        return user && passwords.get(user.id) === password ? user : null
      },
      ...(revoke && { revokeCredentials: (user: AdapterUser) => passwords.delete(user.id) }),
    })
    const built = app({}, [credentials])
    adapterRef = built.adapter
    return { ...built, passwords }
  }

  async function passwordSignIn(browser: Browser, password: string) {
    return browser.post(`${APP}/auth/callback/credentials`, { email: VICTIM, password, csrfToken: await csrfToken(browser), callbackUrl: DASHBOARD }, { follow: false })
  }

  it("loses the password chosen before the address was proven (revokeCredentials), and its sessions", async () => {
    const { adapter, browser, provesAddress, passwords } = passwordApp(true)
    const user = await adapter.createUser({ email: VICTIM, emailVerified: null, name: "Signed up by someone" })
    passwords.set(user.id, "attacker's password")
    const attacker = browser()
    expect((await passwordSignIn(attacker, "attacker's password")).last.location).toBe(DASHBOARD)

    const landed = await provesAddress(browser())
    expect(landed.last.body).toContain("A password")
    expect(passwords.has(user.id)).toBe(false)
    expect(await sessionOf(attacker)).toBeNull()
    expect((await passwordSignIn(browser(), "attacker's password")).last.location).toBe(`${APP}/auth/signin?error=CredentialsSignin&code=credentials`)
  })

  it("leaves no session to a sign-in that lands while the claim runs (sessions end again at its end)", async () => {
    const passwords = new Map<string, string>()
    let adapterRef: ReturnType<typeof MemoryAdapter> | undefined
    let release: () => void = () => {}
    const paused = new Promise<void>((resolve) => (release = resolve))
    let reached: () => void = () => {}
    const revoking = new Promise<void>((resolve) => (reached = resolve))
    const credentials = Credentials({
      credentials: { email: {}, password: {} },
      authorize: async ({ email, password }) => {
        const user = await adapterRef!.getUserByEmail(String(email))
        return user && passwords.get(user.id) === password ? user : null
      },
      revokeCredentials: async (user: AdapterUser) => {
        reached()
        await paused
        return passwords.delete(user.id)
      },
    })
    const built = app({}, [credentials])
    adapterRef = built.adapter
    const user = await built.adapter.createUser({ email: VICTIM, emailVerified: null, name: "Signed up by someone" })
    passwords.set(user.id, "attacker's password")

    const claiming = built.provesAddress(built.browser())
    await revoking
    const attacker = built.browser()
    expect((await passwordSignIn(attacker, "attacker's password")).last.location).toBe(DASHBOARD)
    release()
    await claiming
    expect(await sessionOf(attacker)).toBeNull()
  })

  it("is warned about at startup when the credentials provider cannot revoke what it checks", async () => {
    const { browser, log } = passwordApp(false)
    await browser().get(`${APP}/auth/providers`)
    expect(log.lines.filter((line) => line.level === "warn").map((line) => line.code)).toContain("credentials-not-revoked")
  })
})

describe("claiming an unproven account through an adapter whose listings also return another user's rows", () => {
  it("removes the claimed account's own accounts and passkeys only, never the other user's", async () => {
    const store = MemoryAdapter()
    const bystander = await store.createUser({ email: "bystander@example.com", emailVerified: new Date(), name: "Bystander" })
    const unproven = await store.createUser({ email: VICTIM, emailVerified: null, name: "Signed up by someone" })
    await store.linkAccount({ userId: unproven.id, type: "oauth", provider: "idp", providerAccountId: "mallory" })
    await store.linkAccount({ userId: bystander.id, type: "oauth", provider: "idp", providerAccountId: "bystander" })
    await store.linkAccount({ userId: bystander.id, type: "webauthn", provider: "passkey", providerAccountId: "bystander-key" })
    await store.createAuthenticator({
      credentialID: "bystander-key",
      userId: bystander.id,
      providerAccountId: "bystander-key",
      credentialPublicKey: "AQID",
      counter: 0,
      credentialDeviceType: "multiDevice",
      credentialBackedUp: true,
    })
    // A buggy or shared custom adapter: whoever is asked about, both users' rows come back.
    const both = async <T>(list: (id: string) => Promise<T[]>) => [...(await list(unproven.id)), ...(await list(bystander.id))]
    const leaky = { ...store, listAccountsByUserId: () => both(store.listAccountsByUserId), listAuthenticatorsByUserId: () => both(store.listAuthenticatorsByUserId) }
    const { browser, provesAddress } = app({ adapter: leaky })

    const landed = await provesAddress(browser())
    expect(landed.last.status).toBe(200)
    expect(await store.getUserByEmail(VICTIM)).toMatchObject({ id: unproven.id, emailVerified: expect.any(Date) })
    expect(await store.getAccount("mallory", "idp")).toBeNull()
    expect(await store.getAccount("bystander", "idp")).toMatchObject({ userId: bystander.id })
    expect(await store.getAccount("bystander-key", "passkey")).toMatchObject({ userId: bystander.id })
    expect(await store.getAuthenticator("bystander-key")).toMatchObject({ userId: bystander.id })
  })
})

describe("compared with Auth.js", () => {
  /**
   * The state an attacker's sign-up leaves (a user for the victim's address, never proven, with
   * the attacker's OAuth account linked), then the victim's email sign-in, through each library.
   */
  async function afterVictimSignsIn(library: "gatehouse" | "authjs") {
    const adapter = MemoryAdapter()
    const user = await adapter.createUser({ email: VICTIM, emailVerified: null, name: "Mallory" })
    await adapter.linkAccount({ userId: user.id, provider: "idp", providerAccountId: "mallory", type: "oidc" })
    const sent: { url: string }[] = []
    const email = { id: "email", name: "Email", type: "email" as const, sendVerificationRequest: (params: { url: string }) => void sent.push(params) }
    const gatehouse: AuthConfig = { secret, trustHost: true, logger: recordingLogger().logger, adapter, session: { strategy: "jwt" }, providers: [email] }
    const handler =
      library === "gatehouse"
        ? authApp(gatehouse)
        : async (request: Request) =>
            AuthJs(request, {
              secret,
              trustHost: true,
              basePath: "/auth",
              adapter: adapter as unknown as AuthJsAdapter,
              session: { strategy: "jwt" },
              providers: [{ ...email, from: "auth@app.test", maxAge: 86_400, options: {} } as never],
              logger: { error: () => {}, warn: () => {}, debug: () => {} },
            })
    const victim = new Browser({ app: handler, appOrigin: APP })
    await victim.post(`${APP}/auth/signin/email`, { email: VICTIM, csrfToken: await csrfToken(victim), callbackUrl: DASHBOARD }, { follow: false })
    await victim.get(sent.at(-1)!.url, { follow: false })
    return { signedIn: ((await sessionOf(victim)) as Session)?.user?.email, accounts: await adapter.listAccountsByUserId(user.id) }
  }

  it("Auth.js signs the victim into the attacker's account with the attacker's login still linked; Gatehouse removes it first", async () => {
    const authjs = await afterVictimSignsIn("authjs")
    expect(authjs.signedIn).toBe(VICTIM)
    expect(authjs.accounts.map((account) => account.providerAccountId)).toEqual(["mallory"])

    const gatehouse = await afterVictimSignsIn("gatehouse")
    expect(gatehouse.signedIn).toBe(VICTIM)
    expect(gatehouse.accounts).toEqual([])
  })
})

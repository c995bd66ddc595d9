/**
 * The opt-in account routes and their server functions: the signed-in user's sessions (list,
 * revoke one, revoke the others) under database and JWT sessions, and their linked accounts
 * (list, unlink, the last-method refusal), on every stored adapter.
 */
import { beforeEach, describe, expect, it } from "vitest"
import type { AdapterUser, StoredAdapter as FullAdapter } from "../../src/adapters/index.js"
import { listAccounts, listSessions, revokeOtherSessions, unlinkAccount } from "../../src/index.js"
import type { AuthConfig } from "../../src/types.js"
import { Client, credentialsConfig, storedKey } from "./flow-helpers.js"
import { storedAdapters, twoUserCredentials, withStoredUsers, type StoredAdapter } from "./stored-adapters.js"

const SESSION_COOKIE = "__Secure-authjs.session-token"

describe.each(storedAdapters)("account routes on the $name adapter", (store: StoredAdapter) => {
  const users = withStoredUsers(store)
  let adapter: FullAdapter
  let user: AdapterUser
  let other: AdapterUser
  beforeEach(() => {
    ;({ adapter, user, other } = users())
  })

  function config(extra: Partial<AuthConfig> = {}): AuthConfig {
    return credentialsConfig({
      adapter,
      account: { routes: true },
      providers: [
        twoUserCredentials(users),
        { id: "github", name: "GitHub", type: "oauth", clientId: "id", clientSecret: "secret", authorization: "https://gh.test/a", token: "https://gh.test/t", userinfo: "https://gh.test/u" },
        { id: "gitlab", name: "GitLab", type: "oauth", clientId: "id", clientSecret: "secret", authorization: "https://gl.test/a", token: "https://gl.test/t", userinfo: "https://gl.test/u" },
      ],
      ...extra,
    })
  }

  async function browser(settings: AuthConfig, username = "user", userAgent = `Browser ${crypto.randomUUID()}`): Promise<Client> {
    const client = new Client(settings)
    const csrfToken = await client.csrfToken()
    await client.postForm("callback/credentials", { csrfToken, username }, { "user-agent": userAgent })
    expect(client.jar.get(SESSION_COOKIE)).toBeDefined()
    return client
  }

  type Listed = { id: string; current: boolean; createdAt: string | null; lastSeenAt: string | null; expiresAt: string; userAgent: string | null }
  async function listed(client: Client): Promise<Listed[]> {
    const response = await client.get("sessions")
    expect(response.status).toBe(200)
    expect(response.headers.get("cache-control")).toContain("no-store")
    return ((await response.json()) as { sessions: Listed[] }).sessions
  }

  describe("database sessions", () => {
    it("are not routes unless account.routes is on", async () => {
      const client = await browser(config({ account: {} }))
      expect((await client.get("sessions")).status).toBe(400)
      expect((await client.get("accounts")).status).toBe(400)
    })

    it("lists the user's sessions, the current one marked, with their browser and times, and never a token or its hash", async () => {
      const settings = config()
      const laptop = await browser(settings, "user", "Laptop Firefox")
      const phone = await browser(settings, "user", "Phone Safari")
      await browser(settings, "other")
      const response = await laptop.get("sessions")
      const text = await response.clone().text()
      for (const client of [laptop, phone]) {
        const token = client.jar.get(SESSION_COOKIE)!
        expect(text).not.toContain(token)
        expect(text).not.toContain(storedKey(token).slice("sha256:".length))
      }
      const sessions = ((await response.json()) as { sessions: Listed[] }).sessions
      expect(sessions).toHaveLength(2)
      expect(sessions[0]).toMatchObject({ current: true, userAgent: "Laptop Firefox" })
      expect(sessions[1]).toMatchObject({ current: false, userAgent: "Phone Safari" })
      for (const session of sessions) {
        expect(Object.keys(session).sort()).toEqual(["createdAt", "current", "expiresAt", "id", "lastSeenAt", "userAgent"])
        expect(Date.parse(session.createdAt!)).toBeGreaterThan(Date.now() - 60_000)
        expect(Date.parse(session.expiresAt)).toBeGreaterThan(Date.now())
      }
      expect((await listed(phone)).find((session) => session.current)?.userAgent).toBe("Phone Safari")
    })

    it("revokes one other session of the user: that browser is signed out, this one is not", async () => {
      const settings = config()
      const laptop = await browser(settings)
      const phone = await browser(settings)
      const target = (await listed(laptop)).find((session) => !session.current)!
      const response = await laptop.postForm("sessions", { csrfToken: await laptop.csrfToken(), revoke: target.id })
      expect(response.status).toBe(200)
      expect(((await response.json()) as { sessions: Listed[] }).sessions.map((session) => session.id)).not.toContain(target.id)
      expect(await phone.session()).toBeNull()
      expect(await laptop.session()).toMatchObject({ user: { email: user.email } })
    })

    it("refuses to revoke another user's session, the current one, or without the CSRF token, and changes nothing", async () => {
      const settings = config()
      const mine = await browser(settings)
      const theirs = await browser(settings, "other")
      const theirId = (await listed(theirs))[0]!.id
      const currentId = (await listed(mine))[0]!.id
      const csrfToken = await mine.csrfToken()
      const foreign = await mine.postForm("sessions", { csrfToken, revoke: theirId })
      expect(foreign.status).toBe(404)
      expect(await foreign.json()).toMatchObject({ error: "UnknownSession" })
      expect((await mine.postForm("sessions", { csrfToken, revoke: currentId })).status).toBe(404)
      const forged = await mine.postForm("sessions", { csrfToken: "forged", revoke: theirId })
      expect(forged.status).toBe(403)
      expect(await theirs.session()).toMatchObject({ user: { email: other.email } })
      expect(await mine.session()).toMatchObject({ user: { email: user.email } })
    })

    it("revokes every other session of the user at once, and no one else's", async () => {
      const settings = config()
      const [laptop, phone, tablet, bystander] = [await browser(settings), await browser(settings), await browser(settings), await browser(settings, "other")]
      const response = await laptop.postForm("sessions", { csrfToken: await laptop.csrfToken(), revokeOthers: "true" })
      expect(((await response.json()) as { sessions: Listed[] }).sessions).toHaveLength(1)
      for (const client of [phone, tablet]) expect(await client.session()).toBeNull()
      expect(await laptop.session()).toMatchObject({ user: { email: user.email } })
      expect(await bystander.session()).toMatchObject({ user: { email: other.email } })
    })

    it("answers a signed-out browser 401, and a POST naming nothing 400", async () => {
      const settings = config()
      const stranger = new Client(settings)
      const response = await stranger.get("sessions")
      expect(response.status).toBe(401)
      expect(await response.json()).toMatchObject({ error: "SessionRequired" })
      const signedIn = await browser(settings)
      expect((await signedIn.postForm("sessions", { csrfToken: await signedIn.csrfToken() })).status).toBe(400)
    })

    it("redirects a plain form post to its callbackUrl, on the origin only", async () => {
      const settings = config()
      const laptop = await browser(settings)
      await browser(settings)
      const csrfToken = await laptop.csrfToken()
      const home = await laptop.postForm("sessions", { csrfToken, revokeOthers: "true", callbackUrl: "/account" })
      expect(home.headers.get("location")).toBe("https://app.test/account")
      const away = await laptop.postForm("sessions", { csrfToken, revokeOthers: "true", callbackUrl: "https://evil.test/x" })
      expect(away.headers.get("location")).toBe("https://app.test")
    })

    it("serves the same through the server functions, for the request's session", async () => {
      const settings = config()
      const laptop = await browser(settings, "user", "Laptop")
      const phone = await browser(settings, "user", "Phone")
      const request = new Request("https://app.test/account", { headers: { cookie: laptop.jar.header() } })
      expect((await listSessions(request, settings)).map((session) => session.userAgent)).toEqual(["Laptop", "Phone"])
      expect(await revokeOtherSessions(request, settings)).toEqual({ revoked: 1, setCookies: [] })
      expect(await phone.session()).toBeNull()
      await expect(listSessions(new Request("https://app.test/account"), settings)).rejects.toMatchObject({ type: "SessionRequired" })
    })
  })

  describe("JWT sessions (with session versions)", () => {
    const jwt = { session: { strategy: "jwt" as const, revocationCheckAge: 0 } }

    it("lists the current session only, with the asking browser's user agent", async () => {
      const laptop = await browser(config(jwt))
      await browser(config(jwt))
      const response = await laptop.get("sessions", { "user-agent": "Laptop Chrome" })
      const { sessions } = (await response.json()) as { sessions: Listed[] }
      expect(sessions).toEqual([expect.objectContaining({ id: "current", current: true, userAgent: "Laptop Chrome", createdAt: null })])
    })

    it("revokes every other session through a new session version, and this browser keeps its session with the cookie written again", async () => {
      const settings = config(jwt)
      const [laptop, phone, bystander] = [await browser(settings), await browser(settings), await browser(settings, "other")]
      const before = laptop.jar.get(SESSION_COOKIE)
      const response = await laptop.postForm("sessions", { csrfToken: await laptop.csrfToken(), revokeOthers: "true" })
      expect(response.status).toBe(200)
      expect(laptop.jar.get(SESSION_COOKIE)).not.toBe(before)
      expect(await phone.session()).toBeNull()
      expect(await laptop.session()).toMatchObject({ user: { email: user.email } })
      expect(await bystander.session()).toMatchObject({ user: { email: other.email } })
      // Revoking one by id is not possible: a JWT session has no record of the others.
      expect((await laptop.postForm("sessions", { csrfToken: await laptop.csrfToken(), revoke: "current" })).status).toBe(404)
    })

    it("hands the rewritten cookie to the server function's caller", async () => {
      const settings = config(jwt)
      const laptop = await browser(settings)
      const phone = await browser(settings)
      const { revoked, setCookies } = await revokeOtherSessions(new Request("https://app.test/x", { headers: { cookie: laptop.jar.header() } }), settings)
      expect(revoked).toBeNull()
      expect(setCookies.some((line) => line.startsWith(`${SESSION_COOKIE}=`))).toBe(true)
      expect(await phone.session()).toBeNull()
    })
  })

  describe("linked accounts", () => {
    async function link(owner: AdapterUser, provider: string): Promise<string> {
      const providerAccountId = crypto.randomUUID()
      await adapter.linkAccount({ userId: owner.id, type: "oauth", provider, providerAccountId, access_token: "secret-access-token" })
      return providerAccountId
    }

    it("lists the user's accounts without their tokens", async () => {
      const settings = config()
      const githubId = await link(user, "github")
      await link(other, "github")
      const client = await browser(settings)
      const response = await client.get("accounts")
      const text = await response.clone().text()
      expect(text).not.toContain("secret-access-token")
      expect(await response.json()).toEqual({ accounts: [{ provider: "github", providerAccountId: githubId, type: "oauth", providerName: "GitHub" }] })
      expect(await listAccounts(new Request("https://app.test/x", { headers: { cookie: client.jar.header() } }), settings)).toHaveLength(1)
    })

    it("unlinks an account while another way in remains, and fires unlinkAccount", async () => {
      const events: unknown[] = []
      const settings = config({ events: { unlinkAccount: (message) => void events.push(message) } })
      const githubId = await link(user, "github")
      await link(user, "gitlab")
      const client = await browser(settings)
      const response = await client.postForm("accounts", { csrfToken: await client.csrfToken(), unlink: "github", providerAccountId: githubId })
      expect(response.status).toBe(200)
      expect(((await response.json()) as { accounts: { provider: string }[] }).accounts.map((account) => account.provider)).toEqual(["gitlab"])
      expect(await adapter.getAccount(githubId, "github")).toBeNull()
      expect(events).toEqual([{ user: expect.objectContaining({ id: user.id }), account: { provider: "github", providerAccountId: githubId, type: "oauth" } }])
    })

    it("refuses to unlink the last way the user can sign in (credentials count only when the app says so)", async () => {
      const githubId = await link(user, "github")
      const client = await browser(config())
      const response = await client.postForm("accounts", { csrfToken: await client.csrfToken(), unlink: "github", providerAccountId: githubId })
      expect(response.status).toBe(409)
      expect(await response.json()).toMatchObject({ error: "LastSignInMethod" })
      expect(await adapter.getAccount(githubId, "github")).not.toBeNull()

      const withPassword = config({ account: { routes: true, canUseCredentials: (owner) => owner.id === user.id } })
      const request = new Request("https://app.test/x", { headers: { cookie: client.jar.header() } })
      await unlinkAccount(request, withPassword, { provider: "github", providerAccountId: githubId })
      expect(await adapter.getAccount(githubId, "github")).toBeNull()
    })

    it("refuses to unlink another user's account, and changes nothing", async () => {
      const theirs = await link(other, "github")
      await link(other, "gitlab")
      await link(user, "gitlab")
      const client = await browser(config())
      const response = await client.postForm("accounts", { csrfToken: await client.csrfToken(), unlink: "github", providerAccountId: theirs })
      expect(response.status).toBe(404)
      expect(await response.json()).toMatchObject({ error: "UnknownAccount" })
      expect(await adapter.getAccount(theirs, "github")).not.toBeNull()
    })
  })
})

/**
 * The opt-in account routes and their server functions: the signed-in user's sessions (list,
 * revoke one, revoke the others) under database and JWT sessions, and their linked accounts
 * (list, unlink, the last-method refusal), on every stored adapter; and the same with an adapter
 * whose listings also hold another user's rows (a buggy or shared custom adapter).
 */
import { beforeEach, describe, expect, it } from "vitest"
import type { AdapterUser, StoredAdapter as FullAdapter } from "../../src/adapters/index.js"
import { listAccounts, listSessions, revokeOtherSessions, revokeSession, unlinkAccount } from "../../src/index.js"
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

    it("counts only accounts of configured providers as a way in: one of a provider removed from the config does not let the last configured one go", async () => {
      const githubId = await link(user, "github")
      // Linked when the app still offered it; nobody can sign in with it now.
      await link(user, "retired-provider")
      const client = await browser(config())
      const response = await client.postForm("accounts", { csrfToken: await client.csrfToken(), unlink: "github", providerAccountId: githubId })
      expect(response.status).toBe(409)
      expect(await response.json()).toMatchObject({ error: "LastSignInMethod" })
      expect(await adapter.getAccount(githubId, "github")).not.toBeNull()
      // It is listed all the same, unnamed, and can itself be unlinked while github remains.
      const listedAccounts = ((await (await client.get("accounts")).json()) as { accounts: { provider: string; providerName: string | null }[] }).accounts
      expect(listedAccounts).toContainEqual(expect.objectContaining({ provider: "retired-provider", providerName: null }))
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

  describe("an adapter whose listings also return another user's rows", () => {
    /**
     * The store as a buggy or shared custom adapter would serve it: whoever is asked about, the
     * listings hold the rows of both users. Everything else is the real store.
     */
    function leaky(): FullAdapter {
      const both = async <T>(list: (id: string) => Promise<T[]>) => [...(await list(user.id)), ...(await list(other.id))]
      return {
        ...adapter,
        listAccountsByUserId: () => both(adapter.listAccountsByUserId),
        listSessionsByUserId: () => both(adapter.listSessionsByUserId),
      }
    }

    const leakyConfig = (extra: Partial<AuthConfig> = {}) => config({ adapter: leaky(), ...extra })
    const requestOf = (client: Client) => new Request("https://app.test/account", { headers: { cookie: client.jar.header() } })

    async function link(owner: AdapterUser, provider: string): Promise<string> {
      const providerAccountId = crypto.randomUUID()
      await adapter.linkAccount({ userId: owner.id, type: "oauth", provider, providerAccountId })
      return providerAccountId
    }

    it("lists only the signed-in user's sessions and accounts", async () => {
      const settings = leakyConfig()
      const mine = await browser(settings)
      await browser(settings, "other")
      const myGithub = await link(user, "github")
      await link(other, "gitlab")
      expect(await adapter.listSessionsByUserId(other.id)).toHaveLength(1)

      const myRows = (await adapter.listSessionsByUserId(user.id)).map((row) => row.id)
      expect((await listed(mine)).map((session) => session.id)).toEqual(myRows)
      expect((await listSessions(requestOf(mine), settings)).map((session) => session.id)).toEqual(myRows)
      const accounts = (await (await mine.get("accounts")).json()) as { accounts: { providerAccountId: string }[] }
      expect(accounts.accounts.map((account) => account.providerAccountId)).toEqual([myGithub])
      expect((await listAccounts(requestOf(mine), settings)).map((account) => account.providerAccountId)).toEqual([myGithub])
    })

    it("answers 404 to revoking the other user's session, whose session goes on; revoking the others leaves it too", async () => {
      const settings = leakyConfig()
      const mine = await browser(settings)
      const theirs = await browser(settings, "other")
      const theirId = (await adapter.listSessionsByUserId(other.id))[0]!.id
      const response = await mine.postForm("sessions", { csrfToken: await mine.csrfToken(), revoke: theirId })
      expect(response.status).toBe(404)
      expect(await response.json()).toMatchObject({ error: "UnknownSession" })
      await expect(revokeSession(requestOf(mine), settings, theirId)).rejects.toMatchObject({ type: "UnknownSession" })
      expect(await theirs.session()).toMatchObject({ user: { email: other.email } })

      expect(await revokeOtherSessions(requestOf(mine), settings)).toEqual({ revoked: 0, setCookies: [] })
      const everyOther = await mine.postForm("sessions", { csrfToken: await mine.csrfToken(), revokeOthers: "true" })
      expect(everyOther.status).toBe(200)
      expect(await theirs.session()).toMatchObject({ user: { email: other.email } })
      expect(await adapter.listSessionsByUserId(other.id)).toHaveLength(1)
      expect(await mine.session()).toMatchObject({ user: { email: user.email } })
    })

    it("answers 404 to unlinking the other user's account, which stays linked", async () => {
      const settings = leakyConfig()
      await link(user, "github")
      await link(user, "gitlab")
      const theirs = await link(other, "github")
      const mine = await browser(settings)
      const response = await mine.postForm("accounts", { csrfToken: await mine.csrfToken(), unlink: "github", providerAccountId: theirs })
      expect(response.status).toBe(404)
      expect(await response.json()).toMatchObject({ error: "UnknownAccount" })
      await expect(unlinkAccount(requestOf(mine), settings, { provider: "github", providerAccountId: theirs })).rejects.toMatchObject({ type: "UnknownAccount" })
      expect(await adapter.getAccount(theirs, "github")).toMatchObject({ userId: other.id })
    })

    it("does not count the other user's account as a way in: the signed-in user's last one stays", async () => {
      const settings = leakyConfig()
      const myOnly = await link(user, "github")
      await link(other, "gitlab")
      const mine = await browser(settings)
      const response = await mine.postForm("accounts", { csrfToken: await mine.csrfToken(), unlink: "github", providerAccountId: myOnly })
      expect(response.status).toBe(409)
      expect(await response.json()).toMatchObject({ error: "LastSignInMethod" })
      expect(await adapter.getAccount(myOnly, "github")).toMatchObject({ userId: user.id })
    })
  })
})

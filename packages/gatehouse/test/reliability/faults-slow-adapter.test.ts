/**
 * Adapters that take their time, or never answer. The core puts no timeout on adapter calls, on
 * purpose: a timeout cannot stop the store's work, so a write the core gave up on could still
 * land (a user nobody links an account to, a session row nobody holds a cookie for), and the
 * core would have reported a failure for something that happened. The bound belongs to the
 * driver, which can cancel (PostgreSQL's `statement_timeout`; see faults-postgres.test.ts).
 * So a hung call holds its own request and nothing else, and a late answer is taken as it comes.
 *
 * Also here: two faults at once (the link fails and so does taking the user back; the session
 * write fails and so does giving the email link back), a race of two first sign-ins while one is
 * slow, and a rate-limit count that is no number.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import type { Adapter } from "../../src/adapters/index.js"
import { Client } from "../flow/flow-helpers.js"
import { startGitHubLikeServer, type GitHubLikeServer } from "../support/github-like-server.js"
import { authorizeAtGitHub, credentialsSignIn, DASHBOARD, GITHUB_EMAIL, newWorld, ORIGIN, requestLink, seedUser, type World } from "./adapter-steps-support.js"
import { driverError, halfWritten, Hold, STORE_KINDS } from "./faulty-adapter-support.js"

let github: GitHubLikeServer
beforeAll(async () => {
  github = await startGitHubLikeServer({ redirectUris: [`${ORIGIN}/auth/callback/github`], user: { email: GITHUB_EMAIL } })
})
afterAll(() => github?.stop())

const CONFIGURATION_ERROR = `${ORIGIN}/auth/error?error=Configuration`
const ada = "ada@app.test"

async function emailOf(client: Client): Promise<string | null> {
  return ((await client.session()) as { user?: { email?: string } } | null)?.user?.email ?? null
}

describe.each(STORE_KINDS)("a slow adapter ($name)", (kind) => {
  let world: World | undefined
  afterEach(() => world?.store.close())
  const fresh = (): World => (world = newWorld(kind, "database", github))

  it("holds only the request whose call hangs, and finishes it correctly once the call goes through", async () => {
    const current = fresh()
    const { config, faulty, store, seeded } = current
    await seedUser(current, ada)
    const signingUp = new Client(config, ORIGIN)
    const callback = await authorizeAtGitHub(signingUp)
    const held = new Hold()
    faulty.arm({ method: "linkAccount" }, { kind: "hold", hold: held })
    let settled = false
    const pending = signingUp.get(callback).finally(() => (settled = true))
    await held.reached

    const other = new Client(config, ORIGIN)
    expect((await credentialsSignIn(other, ada)).headers.get("location")).toBe(DASHBOARD)
    expect(await emailOf(other)).toBe(ada)
    expect(settled, "the sign-up waiting on its store call").toBe(false)

    held.release()
    expect((await pending).headers.get("location")).toBe(DASHBOARD)
    expect(await emailOf(signingUp)).toBe(GITHUB_EMAIL)
    const snapshot = await store.snapshot()
    expect(halfWritten(snapshot, seeded)).toEqual([])
    expect(snapshot.accounts).toHaveLength(1)
  })

  it("ends a call that fails after a long wait in a clean error, takes back the user it made, and the retry signs up", async () => {
    const { config, faulty, store, log } = fresh()
    const client = new Client(config, ORIGIN)
    const callback = await authorizeAtGitHub(client)
    const held = new Hold()
    faulty.arm({ method: "linkAccount" }, { kind: "hold", hold: held })
    const pending = client.get(callback)
    await held.reached
    // The user exists while the link is pending: the moment a crash would leave it behind.
    expect((await store.snapshot()).users).toHaveLength(1)
    held.fail()

    expect((await pending).headers.get("location")).toBe(CONFIGURATION_ERROR)
    expect((await store.snapshot()).users).toEqual([])
    expect(log.lines.some((line) => line.code === "AdapterError")).toBe(true)
    expect((await client.get(await authorizeAtGitHub(client))).headers.get("location")).toBe(DASHBOARD)
    const snapshot = await store.snapshot()
    expect(halfWritten(snapshot)).toEqual([])
    expect([snapshot.users.length, snapshot.accounts.length]).toEqual([1, 1])
  })

  it("makes one user of two first sign-ins of one account racing while the first one's link is slow", async () => {
    const { config, faulty, store } = fresh()
    const first = new Client(config, ORIGIN)
    const second = new Client(config, ORIGIN)
    const firstCallback = await authorizeAtGitHub(first)
    const secondCallback = await authorizeAtGitHub(second)
    const held = new Hold()
    faulty.arm({ method: "linkAccount" }, { kind: "hold", hold: held })
    const pending = first.get(firstCallback)
    await held.reached

    // The address is taken, by a user the account is not linked to yet: not a sign-in as them.
    const raced = await second.get(secondCallback)
    expect(raced.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=OAuthAccountNotLinked`)
    held.release()
    expect((await pending).headers.get("location")).toBe(DASHBOARD)

    // Once the first sign-up is whole, the second browser's next try finds the account.
    expect((await second.get(await authorizeAtGitHub(second))).headers.get("location")).toBe(DASHBOARD)
    expect(await emailOf(second)).toBe(GITHUB_EMAIL)
    const snapshot = await store.snapshot()
    expect(halfWritten(snapshot)).toEqual([])
    expect([snapshot.users.length, snapshot.accounts.length]).toEqual([1, 1])
  })

  it("names the user it could not take back when the link and the clean-up both fail", async () => {
    const { config, store, log } = fresh()
    // Two faults at once, as when the database goes away between the two writes of a sign-up.
    const fail = async (): Promise<never> => {
      throw driverError()
    }
    const broken: Adapter = { ...store.real, linkAccount: fail, deleteUser: fail }
    const client = new Client({ ...config, adapter: broken }, ORIGIN)
    expect((await client.get(await authorizeAtGitHub(client))).headers.get("location")).toBe(CONFIGURATION_ERROR)

    // The one state the core cannot prevent without a transaction around both writes: it says so.
    const [left] = (await store.snapshot()).users
    expect(left).toBeDefined()
    const named = log.lines.filter((line) => line.code === "AdapterError").map((line) => (line.message[0] as Error).message)
    expect(named).toContain(`User ${left!.id}, created for a sign-in that failed, may still be stored`)
  })

  it("says a sign-in link is spent when the store fails after spending it and again when giving it back", async () => {
    const { config, store, log } = fresh()
    const asking = new Client(config, ORIGIN)
    const link = await requestLink(world!, asking, "grace@example.com")
    const fail = async (): Promise<never> => {
      throw driverError()
    }
    const broken: Adapter = { ...store.real, createSession: fail, createVerificationToken: fail }
    const clicking = new Client({ ...config, adapter: broken }, ORIGIN)
    for (const [name, value] of asking.jar.cookies) clicking.jar.cookies.set(name, value)
    expect((await clicking.get(link.slice(`${ORIGIN}/auth/`.length))).headers.get("location")).toBe(CONFIGURATION_ERROR)
    const messages = log.lines.map((line) => (line.message[0] as Error | undefined)?.message)
    expect(messages).toContain("A sign-in link spent by a sign-in that failed could not be given back")
    expect((await store.snapshot()).verificationTokens).toEqual([])
  })

  it("refuses to send a sign-in email when the rate-limit count is no number, instead of letting every email through", async () => {
    for (const count of ["garbage", Number.NaN, -1, null]) {
      const { config, faulty, store, mailbox } = fresh()
      faulty.arm({ method: "hitRateLimit" }, { kind: "garbage", garbage: { name: String(count), from: () => ({ value: count }) } })
      const client = new Client(config, ORIGIN)
      const response = await client.postForm("signin/email", { csrfToken: await client.csrfToken(), email: "grace@example.com" })
      expect(response.headers.get("location"), `count ${String(count)}`).toBe(CONFIGURATION_ERROR)
      expect(mailbox).toEqual([])
      expect((await store.snapshot()).verificationTokens).toEqual([])
    }
  })
})

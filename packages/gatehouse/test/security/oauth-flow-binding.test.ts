/**
 * OAuth callbacks are bound to the flow this browser started, and to the user who started it.
 * Played end to end through `Auth()` against the GitHub-shaped OAuth server, which here ignores
 * `code_verifier` as many plain OAuth 2 servers do, so PKCE alone binds nothing:
 * - someone else's callback URL (an attacker's link flow) opened by a signed-in victim who has a
 *   flow of their own pending is refused by the state check, and links nothing;
 * - a flow finished by another user than the one who started it (or signed out, or signed in
 *   since) is refused by the user digest the state carries;
 * - a failed callback ends its flow: the check cookies are deleted, so the verifier is not tried
 *   again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { AdapterUser } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import type { OAuthConfig } from "../../src/providers/types.js"
import type { AuthConfig, SessionStrategy } from "../../src/types.js"
import { Browser, type Visit } from "../support/browser.js"
import { githubLikeProvider, startGitHubLikeServer, type GitHubLikeServer } from "../support/github-like-server.js"
import { authApp, csrfToken, expectLandedOn, sessionOf, signInUntilCallback } from "../flow/end-to-end-helpers.js"
import { recordingLogger, secret } from "../flow/flow-helpers.js"

const APP = "https://app.test"
const CALLBACK = `${APP}/auth/callback/github`
const INVALID_CHECK = `${APP}/auth/error?error=InvalidCheck`
const CHECK_COOKIES = ["__Secure-authjs.pkce.code_verifier", "__Secure-authjs.state", "__Secure-authjs.nonce"]
/** The attacker's GitHub account, and the one the victim would link themselves. */
const MALLORY_GITHUB = { id: 6666, login: "mallory", name: "Mallory", email: "mallory@evil.example" }
const VICTIM_GITHUB = { id: 1001, login: "victim", name: "Victim", email: "victim@users.example" }

let github: GitHubLikeServer

beforeAll(async () => {
  github = await startGitHubLikeServer({ redirectUris: [CALLBACK], ignoreCodeVerifier: true })
})
afterAll(() => github?.stop())

/** Runs `body` with the provider signing in as `user` (its login page approves whoever is asked for). */
async function atProviderAs<T>(user: Partial<typeof MALLORY_GITHUB>, body: () => Promise<T>): Promise<T> {
  const saved = { ...github.user }
  Object.assign(github.user, user)
  try {
    return await body()
  } finally {
    Object.assign(github.user, saved)
  }
}

/** An app with password users (by user name), the GitHub-shaped provider and the account routes. */
async function app(strategy: SessionStrategy, provider: Partial<OAuthConfig> = {}) {
  const adapter = MemoryAdapter()
  const users: Record<string, AdapterUser> = {}
  for (const name of ["victim", "mallory", "bob"]) {
    users[name] = await adapter.createUser({ id: crypto.randomUUID(), name, email: `${name}@app.test`, emailVerified: null, image: null })
  }
  const log = recordingLogger()
  const config: AuthConfig = {
    secret,
    trustHost: true,
    logger: log.logger,
    adapter,
    session: { strategy },
    account: { routes: true },
    providers: [
      {
        id: "credentials",
        name: "Password",
        type: "credentials",
        credentials: {},
        authorize: ({ username }) => {
          const user = typeof username === "string" ? users[username] : undefined
          return user ? { id: user.id, email: user.email } : null
        },
        rateLimit: false,
      },
      githubLikeProvider(github, provider),
    ],
  }
  // Every browser reaches the app as now configured: a rotation of the secret reaches them all.
  let current = config
  const rotateSecret = () => {
    current = { ...config, secret: ["a newer secret, put first as rotation asks", ...[config.secret ?? []].flat()] }
  }
  const browser = () => new Browser({ app: (request) => authApp(current)(request), appOrigin: APP })
  const githubOwner = async (id: number) => (await adapter.getUserByAccount({ provider: "github", providerAccountId: String(id) }))?.id
  const accountsOf = async (user: AdapterUser) => (await adapter.listAccountsByUserId!(user.id)).map((account) => account.providerAccountId)
  return { adapter, users, browser, githubOwner, accountsOf, log, rotateSecret }
}

async function passwordSignIn(browser: Browser, username: string): Promise<void> {
  await browser.post(`${APP}/auth/callback/credentials`, { csrfToken: await csrfToken(browser), username })
  expect(await sessionOf(browser)).toMatchObject({ user: { email: `${username}@app.test` } })
}

async function signOut(browser: Browser): Promise<void> {
  await browser.post(`${APP}/auth/signout`, { csrfToken: await csrfToken(browser) })
  expect(await sessionOf(browser)).toBeNull()
}

/** `POST link/github`, followed through the provider's login up to the callback URL, which is returned unvisited. */
async function linkUntilCallback(browser: Browser): Promise<string> {
  let visit: Visit = await browser.post(`${APP}/auth/link/github`, { csrfToken: await csrfToken(browser), callbackUrl: `${APP}/account` }, { follow: false })
  for (let steps = 0; steps < 5; steps++) {
    const { location } = visit.last
    if (location === undefined) throw new Error(`the link stopped at ${visit.url} (${visit.status}): ${visit.last.body.slice(0, 200)}`)
    if (location.startsWith(`${CALLBACK}?`)) return location
    visit = await browser.follow(visit, { follow: false })
  }
  throw new Error("the link never reached the callback")
}

/** A flow the browser started and left (the user closed the provider's tab): only its check cookies remain. */
async function leavePendingFlow(browser: Browser, route: "link" | "signin"): Promise<void> {
  const started = await browser.post(`${APP}/auth/${route}/github`, { csrfToken: await csrfToken(browser), callbackUrl: `${APP}/account` }, { follow: false })
  expect(started.last.location).toMatch(new RegExp(`^${github.authorizeUrl}\\?`))
  expect(browser.cookie("__Secure-authjs.pkce.code_verifier")).toBeTruthy()
}

describe.each(["database", "jwt"] as const)("a callback URL from the attacker's flow, opened by a signed-in victim (%s sessions)", (strategy) => {
  it.each(["link", "signin"] as const)("is refused and links nothing, though the victim has a %s flow of their own pending and the provider ignores PKCE", async (route) => {
    const { users, browser, githubOwner, accountsOf } = await app(strategy)
    const mallory = browser()
    await passwordSignIn(mallory, "mallory")
    const attackersCallback = await atProviderAs(MALLORY_GITHUB, () => linkUntilCallback(mallory))

    const victim = browser()
    await passwordSignIn(victim, "victim")
    await leavePendingFlow(victim, route)
    // The attacker's page sends the victim to the callback: a top-level GET, so Lax cookies go along.
    // (The provider answers /user for whoever it signed in last: the attacker's code is theirs.)
    const visit = await atProviderAs(MALLORY_GITHUB, () => victim.get(attackersCallback, { from: "https://evil.example/" }))

    expect(visit.url).toBe(INVALID_CHECK)
    expect(await githubOwner(MALLORY_GITHUB.id)).toBeUndefined()
    expect(await accountsOf(users.victim!)).toEqual([])
    expect(await sessionOf(victim)).toMatchObject({ user: { email: "victim@app.test" } })
    // Without its state, the same URL is refused too: the victim's flow expects one.
    const stripped = new URL(attackersCallback)
    stripped.searchParams.delete("state")
    expect((await atProviderAs(MALLORY_GITHUB, () => victim.get(stripped.href, { from: "https://evil.example/" }))).url).toBe(INVALID_CHECK)
    expect(await githubOwner(MALLORY_GITHUB.id)).toBeUndefined()
  })
})

describe("with state turned off (checks: [\"none\", \"pkce\"]), what the opt-out gives up", () => {
  it("the same attack links the attacker's provider account to the victim: PKCE binds nothing at this provider", async () => {
    const { users, browser, githubOwner } = await app("database", { checks: ["none", "pkce"] })
    const mallory = browser()
    await passwordSignIn(mallory, "mallory")
    const attackersCallback = await atProviderAs(MALLORY_GITHUB, () => linkUntilCallback(mallory))
    const victim = browser()
    await passwordSignIn(victim, "victim")
    await leavePendingFlow(victim, "link")
    await atProviderAs(MALLORY_GITHUB, () => victim.get(attackersCallback, { from: "https://evil.example/" }))
    expect(await githubOwner(MALLORY_GITHUB.id)).toBe(users.victim!.id)
  })
})

describe.each(["database", "jwt"] as const)("the user who started the flow must finish it (%s sessions)", (strategy) => {
  it("refuses a link flow finished while someone else is signed in, and links nothing", async () => {
    const { users, browser, githubOwner, accountsOf, log } = await app(strategy)
    const shared = browser()
    await passwordSignIn(shared, "victim")
    const callback = await atProviderAs(VICTIM_GITHUB, () => linkUntilCallback(shared))
    await signOut(shared)
    await passwordSignIn(shared, "bob")

    expect((await atProviderAs(VICTIM_GITHUB, () => shared.get(callback))).url).toBe(INVALID_CHECK)
    expect(await githubOwner(VICTIM_GITHUB.id)).toBeUndefined()
    expect(await accountsOf(users.bob!)).toEqual([])
    expect(await sessionOf(shared)).toMatchObject({ user: { email: "bob@app.test" } })
    expect(JSON.stringify(log.lines.filter((line) => line.code === "InvalidCheck").map((line) => String(line.message[0])))).toMatch(/another user/)
  })

  it("refuses a link flow finished signed out: no user is created or signed in", async () => {
    const { adapter, browser, githubOwner } = await app(strategy)
    const shared = browser()
    await passwordSignIn(shared, "victim")
    const callback = await atProviderAs(VICTIM_GITHUB, () => linkUntilCallback(shared))
    await signOut(shared)

    expect((await atProviderAs(VICTIM_GITHUB, () => shared.get(callback))).url).toBe(INVALID_CHECK)
    expect(await githubOwner(VICTIM_GITHUB.id)).toBeUndefined()
    expect(await adapter.getUserByEmail(VICTIM_GITHUB.email)).toBeNull()
    expect(await sessionOf(shared)).toBeNull()
  })

  it("refuses a sign-in started signed out and finished after someone signed in, and links nothing to them", async () => {
    const { users, browser, githubOwner, accountsOf } = await app(strategy)
    const shared = browser()
    const callback = await atProviderAs(VICTIM_GITHUB, () => signInUntilCallback(shared, "github"))
    await passwordSignIn(shared, "bob")

    expect((await atProviderAs(VICTIM_GITHUB, () => shared.get(callback))).url).toBe(INVALID_CHECK)
    expect(await githubOwner(VICTIM_GITHUB.id)).toBeUndefined()
    expect(await accountsOf(users.bob!)).toEqual([])
  })

  it("links the account when the user who started the flow finishes it", async () => {
    const { users, browser, githubOwner } = await app(strategy)
    const victim = browser()
    await passwordSignIn(victim, "victim")
    const callback = await atProviderAs(VICTIM_GITHUB, () => linkUntilCallback(victim))
    expectLandedOn(await atProviderAs(VICTIM_GITHUB, () => victim.get(callback)), `${APP}/account`)
    expect(await githubOwner(VICTIM_GITHUB.id)).toBe(users.victim!.id)
  })

  it("links the account when the secret was rotated while the user was at the provider", async () => {
    const { users, browser, githubOwner, rotateSecret } = await app(strategy)
    const victim = browser()
    await passwordSignIn(victim, "victim")
    const callback = await atProviderAs(VICTIM_GITHUB, () => linkUntilCallback(victim))
    rotateSecret()
    expectLandedOn(await atProviderAs(VICTIM_GITHUB, () => victim.get(callback)), `${APP}/account`)
    expect(await githubOwner(VICTIM_GITHUB.id)).toBe(users.victim!.id)
  })
})

describe("a failed callback ends its flow", () => {
  it("deletes the check cookies, so the pending verifier is not tried again: the flow's own callback is then refused", async () => {
    const { browser, githubOwner } = await app("database")
    const victim = browser()
    const callback = await atProviderAs(VICTIM_GITHUB, () => signInUntilCallback(victim, "github"))
    const wrongCode = new URL(callback)
    wrongCode.searchParams.set("code", "not-a-code")
    const tokenRequests = () => github.requests.filter((request) => request.path === "/login/oauth/access_token").length
    const before = tokenRequests()

    const failed = await victim.get(wrongCode.href)
    expect(failed.url).toBe(`${APP}/auth/signin?error=OAuthCallbackError`)
    const callbackHop = failed.hops[0]!
    const deleted = callbackHop.headers.getSetCookie().filter((line) => /; Max-Age=0/.test(line)).map((line) => line.slice(0, line.indexOf("=")))
    expect(deleted.sort()).toEqual(["__Secure-authjs.pkce.code_verifier", "__Secure-authjs.state"])
    expect(victim.cookies().filter((cookie) => CHECK_COOKIES.includes(cookie.name))).toEqual([])

    expect((await victim.get(callback)).url).toBe(INVALID_CHECK)
    expect(tokenRequests()).toBe(before + 1)
    expect(await githubOwner(VICTIM_GITHUB.id)).toBeUndefined()
    expect(await sessionOf(victim)).toBeNull()
  })
})

/**
 * OpenID Connect Back-Channel Logout against the real oidc-provider: a user signs in through the
 * provider, the provider ends its session and posts a logout token to the app over real HTTP,
 * and the app's sessions from that provider session end (database rows at once; JWT sessions at
 * their next revocation check). Forged, foreign, stale and replayed tokens are refused with 400
 * and change nothing. A provider's failing JWKS is asked once per wait, not once per post, and
 * the last good key set keeps verifying meanwhile.
 */
import { SignJWT, exportSPKI, generateKeyPair, importJWK } from "jose"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import type { StoredAdapter as FullAdapter } from "../../src/adapters/index.js"
import { Auth } from "../../src/core/handler.js"
import type { AuthConfig } from "../../src/types.js"
import { Browser } from "../support/browser.js"
import { startOidcServer, type OidcServer } from "../support/oidc-server.js"
import { serveWeb, type WebServer } from "../support/web-server.js"
import { sessionOf, signIn } from "./end-to-end-helpers.js"
import { recordingLogger, secret } from "./flow-helpers.js"

const APP = "https://app.test"
const LOGOUT_EVENT = { "http://schemas.openid.net/event/backchannel-logout": {} }

let idp: OidcServer
let web: WebServer
let adapter: FullAdapter
let current: AuthConfig & { raw?: undefined }
/** While set, logout tokens the provider posts are kept here instead of reaching the app. */
let capturing: string[] | undefined
const logger = recordingLogger()

function config(strategy: "database" | "jwt"): AuthConfig & { raw?: undefined } {
  return {
    secret,
    trustHost: true,
    adapter,
    logger: logger.logger,
    backchannelLogout: true,
    session: { strategy, revocationCheckAge: 0 },
    providers: [
      {
        id: "idp",
        name: "IdP",
        type: "oidc",
        issuer: idp.issuer,
        clientId: "app-client",
        clientSecret: "app-secret",
        authorization: { params: { scope: "openid email profile" } },
      },
    ],
  }
}

beforeAll(async () => {
  adapter = MemoryAdapter()
  // The provider posts to a real HTTP server running the same Auth() as the browser's app.
  web = await serveWeb(async (request) => {
    if (capturing && new URL(request.url).pathname.startsWith("/auth/backchannel-logout/")) {
      capturing.push(new URLSearchParams(await request.text()).get("logout_token")!)
      return new Response(null, { status: 200 })
    }
    return Auth(request, current)
  })
  const backchannel = `http://127.0.0.1:${web.port}/auth/backchannel-logout/idp`
  idp = await startOidcServer({
    backchannelLogout: true,
    clients: [
      { client_id: "app-client", client_secret: "app-secret", redirect_uris: [`${APP}/auth/callback/idp`], backchannel_logout_uri: backchannel, backchannel_logout_session_required: true },
      // Another client of the same provider: its logout tokens are for another audience.
      { client_id: "other-client", client_secret: "other-secret", redirect_uris: ["https://other.test/cb"], backchannel_logout_uri: backchannel, backchannel_logout_session_required: true },
    ],
    accounts: { alice: { email: "alice@example.com", email_verified: true, name: "Alice" } },
  })
})
afterAll(async () => {
  await Promise.all([idp?.stop(), web?.stop()])
})
afterEach(() => {
  capturing = undefined
  vi.useRealTimers()
})

/**
 * A browser signed in through the provider with database sessions, and the provider session id
 * (`sid`) its session row keeps. The app follows `current`, so a test can switch strategies.
 */
async function signedInBrowser(browser = new Browser({ app: (request) => Auth(request, current), appOrigin: APP })): Promise<{ browser: Browser; sid: string; sub: string }> {
  current = config("database")
  await signIn(browser, "idp")
  expect(await sessionOf(browser)).toMatchObject({ user: { email: "alice@example.com" } })
  const user = await adapter.getUserByAccount({ provider: "idp", providerAccountId: "alice" })
  const newest = (await adapter.listSessionsByUserId(user!.id)).sort((a, b) => b.details!.createdAt.getTime() - a.details!.createdAt.getTime())[0]
  expect(newest?.details?.idpSid).toBeTruthy()
  return { browser, sid: newest!.details!.idpSid!, sub: "alice" }
}

/** The provider ends its session `sid` of `sub` and posts the logout token, as it does at its own sign-out. */
async function providerLogsOut(clientId: string, sub: string, sid: string): Promise<void> {
  const client = (await idp.provider.Client.find(clientId)) as unknown as { backchannelLogout(sub: string, sid: string): Promise<void> }
  await client.backchannelLogout(sub, sid)
}

async function post(token: string | undefined): Promise<Response> {
  return fetch(`http://127.0.0.1:${web.port}/auth/backchannel-logout/idp`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(token === undefined ? {} : { logout_token: token }),
  })
}

describe("back-channel logout from the real oidc-provider", () => {
  it("ends the database session started under the provider session it names, at once", async () => {
    const { browser, sid, sub } = await signedInBrowser()
    await providerLogsOut("app-client", sub, sid)
    expect(await sessionOf(browser)).toBeNull()
  })

  it("ends a JWT session from that provider session at its next revocation check, and not another one", async () => {
    // The sid is learnt from a database session; the same browser then signs in again under JWT
    // sessions, and the provider (single sign-on) reuses its session, hence its sid.
    const { browser, sid, sub } = await signedInBrowser()
    const { browser: elsewhere } = await signedInBrowser()
    current = config("jwt")
    await signIn(browser, "idp")
    await signIn(elsewhere, "idp")
    expect(await sessionOf(browser)).toMatchObject({ user: { email: "alice@example.com" } })
    await providerLogsOut("app-client", sub, sid)
    // revocationCheckAge: 0, so the next read checks.
    expect(await sessionOf(browser)).toBeNull()
    expect(await sessionOf(elsewhere)).toMatchObject({ user: { email: "alice@example.com" } })
  })

  it("answers 200 with no-store, and 400 with an OAuth error body for a request without a token", async () => {
    const { sid, sub } = await signedInBrowser()
    capturing = []
    await providerLogsOut("app-client", sub, sid)
    capturing = undefined
    const accepted = await post(undefined)
    expect(accepted.status).toBe(400)
    expect(accepted.headers.get("cache-control")).toContain("no-store")
    expect(await accepted.json()).toMatchObject({ error: "invalid_request" })
  })

  it("refuses a replayed token: the first use ends the session, the second changes nothing", async () => {
    const { browser, sid, sub } = await signedInBrowser()
    capturing = []
    await providerLogsOut("app-client", sub, sid)
    const [token] = capturing
    capturing = undefined
    const first = await post(token)
    expect(first.status).toBe(200)
    expect(first.headers.get("cache-control")).toContain("no-store")
    expect(await sessionOf(browser)).toBeNull()
    const { browser: again } = await signedInBrowser()
    const replay = await post(token)
    expect(replay.status).toBe(400)
    expect(await replay.json()).toMatchObject({ error: "invalid_request", error_description: expect.stringMatching(/used before/) })
    expect(await sessionOf(again)).toMatchObject({ user: { email: "alice@example.com" } })
  })

  it("refuses a token for another client of the same provider (aud), and changes nothing", async () => {
    const { browser, sid, sub } = await signedInBrowser()
    capturing = []
    await providerLogsOut("other-client", sub, sid)
    const [foreign] = capturing
    capturing = undefined
    const response = await post(foreign)
    expect(response.status).toBe(400)
    expect((await response.json()).error_description).toMatch(/another client/)
    expect(await sessionOf(browser)).toMatchObject({ user: { email: "alice@example.com" } })
  })

  it("refuses a token too old to be a logout happening now", async () => {
    const { browser, sid, sub } = await signedInBrowser()
    capturing = []
    await providerLogsOut("app-client", sub, sid)
    const [token] = capturing
    capturing = undefined
    vi.useFakeTimers({ now: Date.now() + 10 * 60_000, toFake: ["Date"] })
    const response = await post(token)
    vi.useRealTimers()
    expect(response.status).toBe(400)
    expect(await sessionOf(browser)).toMatchObject({ user: { email: "alice@example.com" } })
  })

  it("refuses forged tokens (another key under the provider's kid, alg none, HS256 keyed with the client secret, not a JWT, oversized) and changes nothing", async () => {
    const { browser, sid } = await signedInBrowser()
    const kid = idp.jwks.keys[0]!.kid!
    const { privateKey } = await generateKeyPair("RS256")
    const claims = { iss: idp.issuer, aud: "app-client", iat: Math.floor(Date.now() / 1000), jti: crypto.randomUUID(), sid, sub: "alice", events: LOGOUT_EVENT }
    const signed = (payload: Record<string, unknown>) => new SignJWT(payload).setProtectedHeader({ alg: "RS256", kid, typ: "logout+jwt" }).sign(privateKey)
    const none = `${Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url")}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.`
    const hs256 = await new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode("app-secret"))
    const forged = [
      await signed(claims),
      none,
      hs256,
      "not.a.jwt",
      `${"a".repeat(20_000)}`,
    ]
    for (const token of forged) {
      const response = await post(token)
      expect(response.status, token.slice(0, 40)).toBe(400)
    }
    expect(await sessionOf(browser)).toMatchObject({ user: { email: "alice@example.com" } })
  })
})

/** What a logout token for this client may look like: each case changes one thing of {@link goodToken}. */
interface TokenCase {
  name: string
  claims?: (good: Record<string, unknown>) => Record<string, unknown>
  header?: Record<string, unknown>
  /** Builds the whole token instead, from the good claims (tokens the provider's key did not sign). */
  token?: (good: Record<string, unknown>) => Promise<string>
}

/** The claims of a logout token that must be accepted, ending the provider session `sid`. */
function goodClaims(sid: string): Record<string, unknown> {
  return { iss: idp.issuer, aud: "app-client", iat: Math.floor(Date.now() / 1000), jti: crypto.randomUUID(), sub: "alice", sid, events: LOGOUT_EVENT }
}

async function goodToken(sid: string, change: Pick<TokenCase, "claims" | "header" | "token"> = {}): Promise<string> {
  const good = goodClaims(sid)
  if (change.token) return change.token(good)
  return idp.signJwt(change.claims ? change.claims(good) : good, { typ: "logout+jwt", ...change.header })
}

const without = (claims: Record<string, unknown>, ...names: string[]) => Object.fromEntries(Object.entries(claims).filter(([name]) => !names.includes(name)))
const now = () => Math.floor(Date.now() / 1000)

/** Each signed with the provider's real key (but the last three), each wrong in one way only. */
const refused: (TokenCase & { /** What the refusal's error_description says: the rule that refused it, not another one. */ why: string })[] = [
  { name: "from another issuer (iss)", why: "another issuer", claims: (good) => ({ ...good, iss: `${idp.issuer}/other` }) },
  { name: "without iss", why: "another issuer", claims: (good) => without(good, "iss") },
  { name: "for another client only (aud)", why: "another client", claims: (good) => ({ ...good, aud: "other-client" }) },
  { name: "for other clients only (aud as an array)", why: "another client", claims: (good) => ({ ...good, aud: ["other-client", "third-client"] }) },
  { name: "without aud", why: "another client", claims: (good) => without(good, "aud") },
  { name: "issued too long ago (iat)", why: "too old", claims: (good) => ({ ...good, iat: now() - 400 }) },
  { name: "issued in the future beyond the clock tolerance (iat)", why: "in the future", claims: (good) => ({ ...good, iat: now() + 60 }) },
  { name: "without iat", why: "no iat", claims: (good) => without(good, "iat") },
  { name: "with iat as a string", why: "no iat", claims: (good) => ({ ...good, iat: String(now()) }) },
  { name: "expired (exp past)", why: "expired", claims: (good) => ({ ...good, iat: now() - 120, exp: now() - 60 }) },
  { name: "with exp as a string", why: "expired", claims: (good) => ({ ...good, exp: String(now() + 60) }) },
  { name: "without events", why: "no back-channel logout event", claims: (good) => without(good, "events") },
  { name: "with another event than back-channel logout", why: "no back-channel logout event", claims: (good) => ({ ...good, events: { "http://schemas.openid.net/event/other": {} } }) },
  { name: "with the logout event not an object", why: "no back-channel logout event", claims: (good) => ({ ...good, events: { "http://schemas.openid.net/event/backchannel-logout": true } }) },
  { name: "with events a string", why: "no back-channel logout event", claims: (good) => ({ ...good, events: "http://schemas.openid.net/event/backchannel-logout" }) },
  { name: "with events an array", why: "no back-channel logout event", claims: (good) => ({ ...good, events: ["http://schemas.openid.net/event/backchannel-logout"] }) },
  { name: "naming neither sid nor sub", why: "neither sid nor sub", claims: (good) => without(good, "sid", "sub") },
  { name: "with sid not a string", why: "sid is not a string", claims: (good) => ({ ...good, sid: [good.sid] }) },
  { name: "without jti", why: "no jti", claims: (good) => without(good, "jti") },
  { name: "with an empty jti", why: "no jti", claims: (good) => ({ ...good, jti: "" }) },
  { name: "with a nonce (an ID token's claim)", why: "must not have a nonce", claims: (good) => ({ ...good, nonce: "n-0S6_WzA2Mj" }) },
  { name: "typed as an access token (typ at+jwt)", why: "typ is", header: { typ: "at+jwt" } },
  { name: "typed as something else (typ JOSE)", why: "typ is", header: { typ: "JOSE" } },
  { name: "with typ not a string", why: "typ is", header: { typ: ["logout+jwt"] } },
  { name: "with alg none (no signature)", why: "not signed by the provider's keys", token: async (good) => `${Buffer.from(JSON.stringify({ alg: "none", typ: "logout+jwt" })).toString("base64url")}.${Buffer.from(JSON.stringify(good)).toString("base64url")}.` },
  { name: "HS256, keyed with the client secret", why: "not signed by the provider's keys", token: (good) => new SignJWT(good).setProtectedHeader({ alg: "HS256", typ: "logout+jwt" }).sign(new TextEncoder().encode("app-secret")) },
  {
    name: "HS256, keyed with the provider's public key (algorithm confusion)", why: "not signed by the provider's keys",
    token: async (good) => {
      const key = await importJWK(idp.jwks.keys[0]!, "RS256")
      const pem = await exportSPKI(key as CryptoKey)
      return new SignJWT(good).setProtectedHeader({ alg: "HS256", kid: idp.jwks.keys[0]!.kid!, typ: "logout+jwt" }).sign(new TextEncoder().encode(pem))
    },
  },
]

/** Tokens as a provider may send them: each must end the session. */
const accepted: TokenCase[] = [
  { name: "typ logout+jwt, sid and sub, no exp" },
  { name: "typ application/logout+jwt, aud an array with this client, exp in the future", header: { typ: "application/logout+jwt" }, claims: (good) => ({ ...good, aud: ["other-client", "app-client"], exp: now() + 120 }) },
  { name: "typ JWT, iat within the clock tolerance ahead", header: { typ: "JWT" }, claims: (good) => ({ ...good, iat: now() + 10 }) },
  { name: "no typ, only sub (every session of the user)", header: { typ: undefined }, claims: (good) => without(good, "sid") },
]

describe("logout tokens signed with the provider's real key", () => {
  it.each(accepted)("accepts one that is right: $name", async ({ claims, header }) => {
    const { browser, sid } = await signedInBrowser()
    const response = await post(await goodToken(sid, { ...(claims && { claims }), ...(header && { header }) }))
    expect(response.status).toBe(200)
    expect(await sessionOf(browser)).toBeNull()
  })

  it.each(refused)("refuses one $name with 400 invalid_request, and ends no session", async ({ why, ...change }) => {
    const { browser, sid } = await signedInBrowser()
    const response = await post(await goodToken(sid, change))
    expect(response.status).toBe(400)
    expect(response.headers.get("cache-control")).toContain("no-store")
    const body = (await response.json()) as { error: string; error_description: string }
    expect(body.error).toBe("invalid_request")
    expect(body.error_description).toContain(why)
    expect(await sessionOf(browser)).toMatchObject({ user: { email: "alice@example.com" } })
    // The refusal spent nothing: the same provider session still ends with a right token.
    expect((await post(await goodToken(sid))).status).toBe(200)
    expect(await sessionOf(browser)).toBeNull()
  })
})

describe("back-channel logout is opt-in", () => {
  it("is no route without backchannelLogout: true", async () => {
    const response = await Auth(new Request(`${APP}/auth/backchannel-logout/idp`, { method: "POST", body: new URLSearchParams({ logout_token: "x" }) }), {
      ...config("database"),
      backchannelLogout: false,
    })
    expect(response.status).toBe(400)
    expect(await response.json()).toBe("Bad request.")
  })
})

/**
 * A provider whose discovery document and JWKS are served here over real HTTP: the JWKS is the
 * oidc-provider's real public keys (so `idp.signJwt` tokens verify), a 500 while `failing`, or
 * nothing at all while `hanging`; every fetch of it is counted.
 */
async function keySetServer(): Promise<{ issuer: string; failing: boolean; hanging: boolean; fetches: number; stop(): Promise<void> }> {
  const state = { issuer: "", failing: false, hanging: false, fetches: 0, stop: async () => {} }
  const server = await serveWeb((request) => {
    const { issuer } = state
    const { pathname } = new URL(request.url)
    if (pathname === "/.well-known/openid-configuration") {
      return Response.json({ issuer, jwks_uri: `${issuer}/jwks`, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token`, response_types_supported: ["code"] })
    }
    if (pathname !== "/jwks") return new Response(null, { status: 404 })
    state.fetches++
    if (state.hanging) return new Promise<Response>(() => {})
    return state.failing ? new Response("unavailable", { status: 500 }) : Response.json(idp.jwks)
  })
  state.issuer = `http://127.0.0.1:${server.port}`
  state.stop = () => server.stop()
  return state
}

describe("the provider's key set", () => {
  const stops: (() => Promise<void>)[] = []
  afterEach(async () => {
    await Promise.all(stops.splice(0).map((stop) => stop()))
  })

  async function keyedApp(fetch?: typeof globalThis.fetch) {
    const keys = await keySetServer()
    stops.push(keys.stop)
    const log = recordingLogger()
    const app: AuthConfig & { raw?: undefined } = {
      secret,
      trustHost: true,
      adapter: MemoryAdapter(),
      logger: log.logger,
      backchannelLogout: true,
      providers: [{ id: "keyed", name: "Keyed", type: "oidc", issuer: keys.issuer, clientId: "app-client", clientSecret: "app-secret", ...(fetch && { fetch }) }],
    }
    const claims = () => ({ iss: keys.issuer, aud: "app-client", iat: Math.floor(Date.now() / 1000), jti: crypto.randomUUID(), sub: "nobody", events: LOGOUT_EVENT })
    const { privateKey } = await generateKeyPair("RS256")
    return {
      keys,
      log,
      /** A logout token signed with the provider's published key. */
      known: () => idp.signJwt(claims(), { typ: "logout+jwt" }),
      /** One signed with a key the set does not (yet) publish, as after a rotation. */
      unknown: () => new SignJWT(claims()).setProtectedHeader({ alg: "RS256", kid: "rotated", typ: "logout+jwt" }).sign(privateKey),
      post: (token: string) =>
        Auth(new Request(`${APP}/auth/backchannel-logout/keyed`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ logout_token: token }) }), app),
    }
  }
  const later = (ms: number) => vi.setSystemTime(Date.now() + ms)

  it("asks a failing JWKS once per wait, however many posts arrive, together or one after another, and again after the wait", async () => {
    const { keys, log, known, post } = await keyedApp()
    keys.failing = true
    vi.useFakeTimers({ toFake: ["Date"] })
    const token = await known()
    const answers: Response[] = await Promise.all(Array.from({ length: 20 }, () => post(token)))
    for (let i = 0; i < 20; i++) answers.push(await post(token))
    for (const answer of answers) {
      expect(answer.status).toBe(503)
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
      expect(await answer.json()).toMatchObject({ error: "temporarily_unavailable" })
    }
    expect(keys.fetches).toBe(1)
    // The failed fetch is logged once, with its cause; the posts it turned away are one warning line each.
    const errors = log.lines.filter((line) => line.level === "error")
    expect(errors.map((line) => line.code)).toEqual(["ProviderUnavailable"])
    expect(log.lines.filter((line) => line.level === "warn").map((line) => [line.code, typeof line.message[0]])).toEqual(Array(40).fill(["ServerBusy", "string"]))
    // Not before 5 s; then the wait doubles.
    later(4_999)
    expect((await post(token)).status).toBe(503)
    expect(keys.fetches).toBe(1)
    later(1)
    expect((await post(token)).status).toBe(503)
    expect(keys.fetches).toBe(2)
    later(9_999)
    expect((await post(token)).status).toBe(503)
    expect(keys.fetches).toBe(2)
    keys.failing = false
    later(1)
    expect((await post(token)).status).toBe(200)
    expect(keys.fetches).toBe(3)
  })

  it("keeps the last good set while a refresh fails: known keys still verify, and concurrent refreshes share one fetch", async () => {
    const { keys, known, unknown, post } = await keyedApp()
    vi.useFakeTimers({ toFake: ["Date"] })
    expect((await post(await known())).status).toBe(200)
    expect(keys.fetches).toBe(1)
    // A token under a key the set does not have asks for the set again (at most once a minute).
    keys.failing = true
    later(61_000)
    const refreshing = await Promise.all(Array.from({ length: 10 }, async () => post(await unknown())))
    expect(refreshing.map((answer) => answer.status)).toEqual(Array(10).fill(503))
    expect(keys.fetches).toBe(2)
    expect((await post(await known())).status).toBe(200)
    expect((await post(await unknown())).status).toBe(503)
    expect(keys.fetches).toBe(2)
    // Once the provider answers again, the set is fetched after the wait; the key is still not in it.
    keys.failing = false
    later(5_000)
    const refused = await post(await unknown())
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({ error_description: expect.stringMatching(/not signed by the provider's keys/) })
    expect(keys.fetches).toBe(3)
    expect((await post(await unknown())).status).toBe(400)
    expect((await post(await known())).status).toBe(200)
    expect(keys.fetches).toBe(3)
  })

  it("answers 503, not 500, when the JWKS does not answer in time, and waits before asking again", async () => {
    // The provider's own fetch bounds each request at 100 ms instead of the default 10 s.
    const { keys, known, unknown, post } = await keyedApp((input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(100) }))
    vi.useFakeTimers({ toFake: ["Date"] })
    const token = await known()
    expect((await post(token)).status).toBe(200)
    keys.hanging = true
    later(61_000)
    const answers = await Promise.all([post(await known()), post(await unknown())])
    expect(answers.map((answer) => answer.status)).toEqual([200, 503])
    expect(keys.fetches).toBe(2)
    expect((await post(await unknown())).status).toBe(503)
    expect(keys.fetches).toBe(2)
  })
})

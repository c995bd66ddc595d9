/**
 * Promise: no state-changing POST succeeds without this browser's own CSRF token. Every POST
 * route the router serves is listed below with what protects it; the list is checked against
 * the router's actions (a new POST route must be added here, with its protection, or this file
 * fails). Each CSRF-protected route is then sent every wrong shape of token (none, empty, made
 * up, another browser's, from another deployment, in the query or a header instead of the body, a
 * tampered cookie…) and must refuse with nothing changed, then accept the browser's own pair. The
 * POSTs that cannot carry a token (an OAuth `form_post` callback, a passkey answer) are shown to
 * be bound to the browser by their own checks instead.
 */
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { AdapterUser } from "../../src/adapters/index.js"
import type { AuthAction } from "../../src/core/auth-action.js"
import { isAuthAction } from "../../src/core/auth-action.js"
import { timingSafeEqual } from "../../src/core/crypto.js"
import { Auth } from "../../src/core/handler.js"
import { skipCSRFCheck } from "../../src/markers.js"
import { Credentials } from "../../src/providers/credentials.js"
import { Passkey } from "../../src/providers/passkey.js"
import type { EmailConfig, OAuthConfig, ProviderType } from "../../src/providers/types.js"
import type { AuthConfig, JWT } from "../../src/types.js"
import { authApp, csrfToken as browserCsrfToken } from "../flow/end-to-end-helpers.js"
import { ada, Client, credentialsConfig, isFailure, recordingLogger, secret } from "../flow/flow-helpers.js"
import { storedAdapters, type OpenStore } from "../flow/stored-adapters.js"
import { Browser } from "../support/browser.js"
import { githubLikeProvider, startGitHubLikeServer, type GitHubLikeServer } from "../support/github-like-server.js"
import { startOidcServer, type OidcServer } from "../support/oidc-server.js"
import { SoftwareAuthenticator } from "../support/software-authenticator.js"

const APP = "https://app.test"
const BASE = `${APP}/auth`
const CSRF = "__Host-authjs.csrf-token"
const SESSION = "__Secure-authjs.session-token"
const MISSING_CSRF = `${BASE}/signin?error=MissingCSRF`
const PASSWORD = { username: "ada", password: "correct horse" }
const OTHER_SECRET = "another-deployment-secret-0123456789abcdef"

const sha256 = (value: string) => createHash("sha256").update(value, "utf8").digest("hex")

// ---------------------------------------------------------------------------------------------
// The application under test: every provider kind, PostgreSQL behind it
// ---------------------------------------------------------------------------------------------

let store: OpenStore | undefined
let github: GitHubLikeServer | undefined
let oidc: OidcServer | undefined
let storedAda: AdapterUser | undefined
let jwtConfig: AuthConfig | undefined
let databaseConfig: AuthConfig | undefined
const mailed = new Map<string, string[]>()
const log = recordingLogger()

const capture: EmailConfig["sendVerificationRequest"] = ({ identifier, url }) => {
  mailed.set(identifier, [...(mailed.get(identifier) ?? []), url])
}

beforeAll(async () => {
  const postgres = storedAdapters.find((candidate) => candidate.name === "PostgreSQL")!
  ;[store, github, oidc] = await Promise.all([
    postgres.open(),
    startGitHubLikeServer({ redirectUris: [`${APP}/auth/callback/github`] }),
    startOidcServer({
      clients: [{ client_id: "app-client", client_secret: "app-secret", redirect_uris: [`${APP}/auth/callback/idp`, `${APP}/auth/callback/idp-form`] }],
      accounts: { mallory: { email: "mallory@example.com", email_verified: true, name: "Mallory" } },
    }),
  ])
  const adapter = store.adapter
  storedAda = await adapter.createUser({ id: "", email: ada.email!, name: ada.name!, image: null, emailVerified: null })
  const githubProvider = githubLikeProvider(github)
  const oidcProvider = (id: string, params: Record<string, string> = {}): OAuthConfig => ({
    id,
    name: `IdP ${id}`,
    type: "oidc",
    issuer: oidc!.issuer,
    clientId: "app-client",
    clientSecret: "app-secret",
    checks: ["pkce", "state", "nonce"],
    authorization: { url: `${oidc!.issuer}/auth`, params: { scope: "openid email profile", ...params } },
  })
  jwtConfig = {
    secret,
    trustHost: true,
    logger: log.logger,
    adapter,
    session: { strategy: "jwt" },
    experimental: { enableWebAuthn: true },
    // The opt-in routes are on, so that the table below covers their POSTs too.
    account: { routes: true },
    backchannelLogout: true,
    providers: [
      // Unthrottled: ada signs in for every route and variant; throttling has its own tests.
      Credentials({ credentials: { username: {}, password: {} }, authorize: (c) => (c.username === "ada" && c.password === "correct horse" ? { ...ada } : null), rateLimit: false }),
      githubProvider,
      oidcProvider("idp"),
      oidcProvider("idp-form", { response_mode: "form_post" }),
      { id: "email", name: "Email", type: "email", sendVerificationRequest: capture },
      Passkey(),
    ],
    callbacks: {
      // A session update may rename the user: the state the update route changes.
      jwt: ({ token, trigger, session }) => {
        const name = (session as { name?: unknown } | undefined)?.name
        return trigger === "update" && typeof name === "string" ? ({ ...token, name } as JWT) : token
      },
    },
  }
  databaseConfig = {
    secret,
    trustHost: true,
    logger: log.logger,
    adapter,
    session: { strategy: "database" },
    // The account routes act for a stored user: the table covers them under database sessions.
    account: { routes: true },
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: (c) => (c.username === "ada" && c.password === "correct horse" ? { ...storedAda! } : null),
        rateLimit: false,
      }),
      { id: "email-confirm", name: "Email", type: "email", confirmSignIn: true, sendVerificationRequest: capture },
      githubProvider,
      oidcProvider("idp"),
    ],
  }
})

afterAll(async () => {
  await Promise.all([store?.close(), github?.stop(), oidc?.stop()])
})

/** The session a browser has, as the session route answers it (`null` when signed out). */
async function sessionOf(client: Client): Promise<string> {
  return JSON.stringify(await client.session())
}

/** Signs `client` in through the credentials callback, with its own valid CSRF pair. */
async function signedIn(client: Client): Promise<void> {
  const response = await client.signIn()
  expect(response.status).toBe(302)
  expect(client.jar.get(SESSION)).toBeTruthy()
}

let addresses = 0
const nextAddress = () => `csrf-${++addresses}@example.com`

// ---------------------------------------------------------------------------------------------
// Every POST route the router serves, and what protects it
// ---------------------------------------------------------------------------------------------

/**
 * What each action does with a POST sent without a CSRF token: the error the handler logs. The
 * CSRF-protected ones log MissingCSRF; UnknownAction means the router serves no POST there. Typed
 * as a Record over AuthAction, so a new action does not compile until it is listed here.
 */
const POST_WITHOUT_TOKEN: Record<AuthAction, string | Partial<Record<ProviderType | "none", string>>> = {
  signin: { none: "MissingCSRF", credentials: "MissingCSRF", oauth: "MissingCSRF", oidc: "MissingCSRF", email: "MissingCSRF", webauthn: "MissingCSRF" },
  signout: "MissingCSRF",
  session: "MissingCSRF",
  callback: {
    none: "InvalidProvider",
    credentials: "MissingCSRF",
    // A sign-in link opened with GET signs in only in the browser that asked for it; the confirmation
    // page's POST, for anyone else, carries the token.
    email: "MissingCSRF",
    // A provider's form_post cannot carry our token: the state, PKCE and nonce cookies bind it instead.
    oauth: "InvalidCheck",
    oidc: "InvalidCheck",
    // A passkey answer is signed over the challenge in this browser's challenge cookie.
    webauthn: "WebAuthnVerificationError",
  },
  // The account routes: for the signed-in user's own browser only.
  sessions: "MissingCSRF",
  accounts: "MissingCSRF",
  link: { none: "MissingCSRF", credentials: "MissingCSRF", oauth: "MissingCSRF", oidc: "MissingCSRF", email: "MissingCSRF", webauthn: "MissingCSRF" },
  // Posted by the provider's server, not a browser: the logout token's signature is what binds it.
  "backchannel-logout": {
    none: "InvalidLogoutToken",
    credentials: "InvalidLogoutToken",
    oauth: "InvalidLogoutToken",
    oidc: "InvalidLogoutToken",
    email: "InvalidLogoutToken",
    webauthn: "InvalidLogoutToken",
  },
  // Served only with `twoFactor`, which this configuration lacks (its adapter has no two-factor
  // methods yet); with it, every POST below two-factor is CSRF-checked in the route entry
  // (flow/route-table-two-factor.test.ts).
  "two-factor": "UnknownAction",
  // Served only with `organizations.routes` / `admin.routes`; with them every POST below is
  // CSRF-checked in the route entry.
  organizations: "UnknownAction",
  admin: "UnknownAction",
  csrf: "UnknownAction",
  providers: "UnknownAction",
  error: "UnknownAction",
  "verify-request": "UnknownAction",
  "webauthn-options": { none: "UnknownAction", credentials: "UnknownAction", oauth: "UnknownAction", oidc: "UnknownAction", email: "UnknownAction", webauthn: "UnknownAction" },
}

/** The actions the router knows, read from the set it matches paths against. */
function routerActions(): string[] {
  const source = readFileSync(new URL("../../src/core/auth-action.ts", import.meta.url), "utf8")
  const set = source.slice(source.indexOf("new Set<AuthAction>(["))
  return [...set.slice(0, set.indexOf("])")).matchAll(/"([^"]+)"/g)].map((match) => match[1]!)
}

/** Fields any of the routes would take, so only the missing token can be what is refused. */
const PLAUSIBLE_FIELDS = { ...PASSWORD, email: "probe@example.com", token: "0".repeat(64), callbackUrl: "/" }

/** The failure logged for one POST (a refusal's warning line), sent with a valid CSRF cookie and plausible fields but no token. */
async function errorLoggedFor(config: AuthConfig, path: string): Promise<string> {
  const client = new Client(config)
  await client.csrfToken()
  const before = log.lines.length
  await client.postForm(path, PLAUSIBLE_FIELDS)
  const errors = log.lines.slice(before).filter(isFailure)
  return errors.map((line) => line.code).join(", ") || "(nothing: accepted)"
}

describe("the POST routes and what protects each", () => {
  it("lists every action the router knows, and only those", () => {
    const actions = routerActions()
    expect(actions.length).toBeGreaterThan(5)
    expect(actions.every(isAuthAction)).toBe(true)
    expect(Object.keys(POST_WITHOUT_TOKEN).sort()).toEqual([...actions].sort())
  })

  it("refuses a POST without a token on every route, with the protection the table names", async () => {
    const byType = (config: AuthConfig) =>
      new Map(config.providers.map((provider) => [typeof provider === "function" ? provider({}).type : provider.type, typeof provider === "function" ? provider({}).id : provider.id]))
    const jwtProviders = byType(jwtConfig!)
    const seen: string[] = []
    const expected: string[] = []
    for (const action of routerActions() as AuthAction[]) {
      const rule = POST_WITHOUT_TOKEN[action]
      if (typeof rule === "string") {
        seen.push(`POST ${action}: ${await errorLoggedFor(jwtConfig!, action)}`)
        expected.push(`POST ${action}: ${rule}`)
        continue
      }
      for (const [kind, code] of Object.entries(rule)) {
        const path = kind === "none" ? action : `${action}/${jwtProviders.get(kind as ProviderType)}`
        seen.push(`POST ${path}: ${await errorLoggedFor(jwtConfig!, path)}`)
        expected.push(`POST ${path}: ${code}`)
      }
    }
    // The confirmSignIn email callback is the one POST callback guarded by the token.
    seen.push(`POST callback/email-confirm: ${await errorLoggedFor(databaseConfig!, "callback/email-confirm")}`)
    expected.push("POST callback/email-confirm: MissingCSRF")
    expect(seen).toEqual(expected)
  })
})

// ---------------------------------------------------------------------------------------------
// The CSRF-protected routes: every wrong token refused with nothing changed, the right one accepted
// ---------------------------------------------------------------------------------------------

/** A browser made ready for one POST: the fields it posts besides the token, and the state it would change. */
interface Prepared {
  fields: Record<string, unknown>
  /** The state the POST changes, as this browser (or its captured cookies) can observe it. */
  state(): Promise<string>
  /** After a refusal: proves what the POST would have spent is still there. */
  stillUsable?(): Promise<void>
}

interface ProtectedRoute {
  name: string
  path: string
  config(): AuthConfig
  /** Posts JSON (the session update) rather than a form. */
  json?: boolean
  prepare(client: Client): Promise<Prepared>
  /** What the state change is, for the test name; `undefined` for routes that only redirect. */
  changes?: string
  /** Why the accepted answer is not what it should be, if it is not. */
  acceptedProblem(response: Response): Promise<string | undefined>
  /** How a refusal answers: the sign-in page with MissingCSRF (default), or the account routes' 403 JSON. */
  refusal?: "page" | "json"
}

const redirectsTo = (expected: (location: string) => boolean, what: string) => async (response: Response) => {
  const location = response.headers.get("location") ?? ""
  return response.status === 302 && expected(location) ? undefined : `answered ${response.status} ${location}, expected ${what}`
}

/** The account routes' accepted answer: JSON with `status`. */
const answersJson = (status: number) => async (response: Response) => {
  const type = response.headers.get("content-type") ?? ""
  return response.status === status && type.includes("application/json") ? undefined : `answered ${response.status} ${type}, expected ${status} JSON`
}

/** The OAuth check cookies a started sign-in leaves (PKCE verifier, state, nonce). */
const checkCookies = (client: Client) =>
  [...client.jar.cookies.keys()].filter((name) => /pkce|\.state$|nonce/.test(name)).sort().join(",") || "none"

/** The sign-out of a signed-in database session, posting `fields`. */
function signOutRoute(name: string, fields: Record<string, string>): ProtectedRoute {
  return {
    name,
    path: "signout",
    config: () => databaseConfig!,
    changes: "ends the session (its row is gone)",
    prepare: async (client) => {
      await signedIn(client)
      const captured = client.jar.cookies.get(SESSION)!
      // The session as anyone holding the cookie sees it, whatever the browser did with its jar.
      const replay = async () => {
        const other = new Client(databaseConfig!)
        other.jar.cookies.set(SESSION, captured)
        return sessionOf(other)
      }
      return { fields, state: replay }
    },
    acceptedProblem: redirectsTo((l) => l === APP, "the origin"),
  }
}

const protectedRoutes: ProtectedRoute[] = [
  {
    name: "signin (no provider)",
    path: "signin",
    config: () => jwtConfig!,
    prepare: async () => ({ fields: {}, state: async () => "" }),
    acceptedProblem: redirectsTo((l) => l === `${BASE}/signin`, "the sign-in page"),
  },
  {
    name: "signin/credentials",
    path: "signin/credentials",
    config: () => jwtConfig!,
    prepare: async () => ({ fields: {}, state: async () => "" }),
    acceptedProblem: redirectsTo((l) => l === `${BASE}/signin`, "the sign-in page"),
  },
  {
    name: "signin/passkey",
    path: "signin/passkey",
    config: () => jwtConfig!,
    prepare: async () => ({ fields: {}, state: async () => "" }),
    acceptedProblem: redirectsTo((l) => l === `${BASE}/signin`, "the sign-in page"),
  },
  {
    name: "signin/github (OAuth 2)",
    path: "signin/github",
    config: () => jwtConfig!,
    changes: "starts a sign-in at the provider (check cookies set)",
    prepare: async (client) => ({ fields: { callbackUrl: "/dashboard" }, state: async () => checkCookies(client) }),
    acceptedProblem: redirectsTo((l) => l.startsWith(`${github!.authorizeUrl}?`), "the provider"),
  },
  {
    name: "signin/idp (OpenID Connect)",
    path: "signin/idp",
    config: () => jwtConfig!,
    changes: "starts a sign-in at the provider (check cookies set)",
    prepare: async (client) => ({ fields: { callbackUrl: "/dashboard" }, state: async () => checkCookies(client) }),
    acceptedProblem: redirectsTo((l) => l.startsWith(`${oidc!.issuer}/auth?`), "the provider"),
  },
  {
    name: "signin/email",
    path: "signin/email",
    config: () => jwtConfig!,
    changes: "mails a sign-in link",
    prepare: async () => {
      const address = nextAddress()
      return { fields: { email: address }, state: async () => `${mailed.get(address)?.length ?? 0} links mailed` }
    },
    acceptedProblem: redirectsTo((l) => l === `${BASE}/verify-request?provider=email&type=email`, "the verify-request page"),
  },
  signOutRoute("signout (database session)", {}),
  // A sign-out asking to end the session at the provider too is the same route and check.
  signOutRoute("signout with provider (database session; the RP-initiated logout field)", { provider: "idp" }),
  {
    name: "session (update, JWT session)",
    path: "session",
    json: true,
    config: () => jwtConfig!,
    changes: "renames the user in the session",
    prepare: async (client) => {
      await signedIn(client)
      return { fields: { data: { name: "Renamed by POST" } }, state: async () => sessionOf(client) }
    },
    acceptedProblem: async (response) => {
      const body = (await response.clone().json()) as { user?: { name?: string } } | null
      return response.status === 200 && body?.user?.name === "Renamed by POST" ? undefined : `answered ${response.status} ${JSON.stringify(body)}`
    },
  },
  {
    name: "callback/credentials (database session)",
    path: "callback/credentials",
    config: () => databaseConfig!,
    changes: "signs in (a session row)",
    prepare: async (client) => ({ fields: { ...PASSWORD }, state: async () => sessionOf(client) }),
    acceptedProblem: redirectsTo((l) => l === APP, "the origin"),
  },
  {
    name: "callback/email-confirm (the confirmSignIn page's POST)",
    path: "callback/email-confirm",
    config: () => databaseConfig!,
    changes: "spends the link's token and signs in",
    prepare: async (client) => {
      const address = nextAddress()
      await client.postForm("signin/email-confirm", { csrfToken: await client.csrfToken(), email: address })
      const link = new URL(mailed.get(address)!.at(-1)!)
      const page = await client.send(new Request(link, { headers: { cookie: client.jar.header() } }))
      expect(page.status).toBe(200)
      const fields = { token: link.searchParams.get("token")!, email: address, callbackUrl: "/dashboard" }
      return {
        fields,
        state: async () => sessionOf(client),
        // Refused, the token was not spent: the browser's own confirmation still signs in.
        stillUsable: async () => {
          const confirmed = await client.postForm("callback/email-confirm", { ...fields, csrfToken: await client.csrfToken() })
          expect(confirmed.headers.get("location")).toBe(`${APP}/dashboard`)
          expect(await client.session()).toMatchObject({ user: { email: address } })
        },
      }
    },
    acceptedProblem: redirectsTo((l) => l === `${APP}/dashboard`, "the callback URL"),
  },
  {
    name: "sessions (revoke another session of the user)",
    path: "sessions",
    config: () => databaseConfig!,
    changes: "ends that session (its row is gone)",
    refusal: "json",
    prepare: async (client) => {
      await signedIn(client)
      const elsewhere = new Client(databaseConfig!)
      await signedIn(elsewhere)
      // The other browser's session, as that browser's own listing names it.
      const theirs = (await (await elsewhere.get("sessions")).json()) as { sessions: { id: string; current: boolean }[] }
      const id = theirs.sessions.find((session) => session.current)!.id
      return { fields: { revoke: id }, state: async () => sessionOf(elsewhere) }
    },
    acceptedProblem: answersJson(200),
  },
  {
    name: "sessions (revoke every other session of the user)",
    path: "sessions",
    config: () => databaseConfig!,
    changes: "ends the user's other sessions",
    refusal: "json",
    prepare: async (client) => {
      await signedIn(client)
      const elsewhere = new Client(databaseConfig!)
      await signedIn(elsewhere)
      return { fields: { revokeOthers: "true" }, state: async () => sessionOf(elsewhere) }
    },
    acceptedProblem: answersJson(200),
  },
  {
    name: "accounts (unlink an account of the user)",
    path: "accounts",
    config: () => databaseConfig!,
    changes: "unlinks the account",
    refusal: "json",
    prepare: async (client) => {
      await signedIn(client)
      const providerAccountId = crypto.randomUUID()
      // Two accounts, so that unlinking one is not refused as the last way in.
      await store!.adapter.linkAccount!({ userId: storedAda!.id, type: "oauth", provider: "github", providerAccountId })
      await store!.adapter.linkAccount!({ userId: storedAda!.id, type: "oidc", provider: "idp", providerAccountId: crypto.randomUUID() })
      return {
        fields: { unlink: "github", providerAccountId },
        state: async () => JSON.stringify(await store!.adapter.getUserByAccount!({ provider: "github", providerAccountId })),
      }
    },
    acceptedProblem: answersJson(200),
  },
  {
    name: "link/idp (link an OIDC account to the signed-in user)",
    path: "link/idp",
    config: () => databaseConfig!,
    changes: "starts a linking sign-in at the provider (check cookies set)",
    prepare: async (client) => {
      await signedIn(client)
      return { fields: { callbackUrl: "/account" }, state: async () => checkCookies(client) }
    },
    acceptedProblem: redirectsTo((l) => l.startsWith(`${oidc!.issuer}/auth?`), "the provider"),
  },
]

/** A CSRF cookie (decoded) and the token that goes with it. */
interface Pair {
  token: string
  cookie: string
}

/** How one request presents (or fails to present) the token. */
interface Presentation {
  /** The CSRF cookie to send (decoded), or `undefined` for none. */
  cookie: string | undefined
  /** The body's csrfToken; absent when `undefined`. */
  token?: unknown
  /** A csrfToken query parameter. */
  query?: string
  headers?: Record<string, string>
  /** Post JSON, for tokens a form cannot carry. */
  json?: boolean
}

const flipLast = (hex: string) => hex.slice(0, -1) + (hex.endsWith("0") ? "1" : "0")
const guessed = "a".repeat(64)

const wrongTokens: { name: string; present(mine: Pair, theirs: Pair, foreign: Pair): Presentation }[] = [
  { name: "no csrfToken in the body", present: (mine) => ({ cookie: mine.cookie }) },
  { name: "an empty csrfToken", present: (mine) => ({ cookie: mine.cookie, token: "" }) },
  { name: "a made-up token", present: (mine) => ({ cookie: mine.cookie, token: "f".repeat(64) }) },
  { name: "another browser's token with this browser's cookie", present: (mine, theirs) => ({ cookie: mine.cookie, token: theirs.token }) },
  { name: "this browser's token with another browser's cookie", present: (mine, theirs) => ({ cookie: theirs.cookie, token: mine.token }) },
  { name: "the token with no CSRF cookie", present: (mine) => ({ cookie: undefined, token: mine.token }) },
  { name: "the cookie with the token only in the query", present: (mine) => ({ cookie: mine.cookie, query: mine.token }) },
  {
    name: "the cookie with the token only in X-CSRF-Token and CSRF-Token headers",
    present: (mine) => ({ cookie: mine.cookie, headers: { "x-csrf-token": mine.token, "csrf-token": mine.token, "x-xsrf-token": mine.token } }),
  },
  { name: "a cookie whose hash was tampered with", present: (mine) => ({ cookie: `${mine.token}|${flipLast(mine.cookie.split("|")[1]!)}`, token: mine.token }) },
  { name: "a cookie hashed with a guessed secret", present: () => ({ cookie: `${guessed}|${sha256(`${guessed}guessed-secret`)}`, token: guessed }) },
  { name: "a cookie without its hash", present: (mine) => ({ cookie: mine.token, token: mine.token }) },
  { name: "a cookie with an empty hash", present: (mine) => ({ cookie: `${mine.token}|`, token: mine.token }) },
  { name: "a cookie and token minted under another secret (another deployment)", present: (_mine, _theirs, foreign) => ({ cookie: foreign.cookie, token: foreign.token }) },
  { name: "the whole cookie value as the token", present: (mine) => ({ cookie: mine.cookie, token: mine.cookie }) },
  { name: "the token in upper case", present: (mine) => ({ cookie: mine.cookie, token: mine.token.toUpperCase() }) },
  { name: "the token with a trailing space", present: (mine) => ({ cookie: mine.cookie, token: `${mine.token} ` }) },
  { name: "the token inside a JSON array", present: (mine) => ({ cookie: mine.cookie, token: [mine.token], json: true }) },
  { name: "the token as a JSON object", present: (mine) => ({ cookie: mine.cookie, token: { csrfToken: mine.token }, json: true }) },
]

/** The CSRF pair a client holds (fetching one if it has none). */
async function pairOf(client: Client): Promise<Pair> {
  const token = await client.csrfToken()
  return { token, cookie: client.jar.get(CSRF)! }
}

/** Posts `fields` on `route` from `client`, with the token presented as `presentation` says. */
function post(client: Client, route: ProtectedRoute, fields: Record<string, unknown>, presentation: Presentation): Promise<Response> {
  if (presentation.cookie === undefined) client.jar.cookies.delete(CSRF)
  else client.jar.cookies.set(CSRF, encodeURIComponent(presentation.cookie))
  const body = presentation.token === undefined ? fields : { ...fields, csrfToken: presentation.token }
  const path = presentation.query === undefined ? route.path : `${route.path}?${new URLSearchParams({ csrfToken: presentation.query })}`
  if (route.json || presentation.json) return client.postJson(path, body, presentation.headers)
  return client.postForm(path, body as Record<string, string>, presentation.headers)
}

/** What a refusal answers: the sign-in page with MissingCSRF, or 400 `null` for a session update. */
async function expectRefused(route: ProtectedRoute, response: Response): Promise<void> {
  if (route.path === "session") {
    expect(response.status).toBe(400)
    expect(await response.json()).toBeNull()
  } else if (route.refusal === "json") {
    expect(response.status).toBe(403)
    expect(await response.json()).toMatchObject({ error: "MissingCSRF" })
  } else {
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(MISSING_CSRF)
  }
}

for (const route of protectedRoutes) {
  describe(`POST ${route.name}`, () => {
    for (const { name, present } of wrongTokens) {
      it(`refuses ${name}, and nothing changes`, async () => {
        const victim = new Client(route.config())
        const prepared = await route.prepare(victim)
        const mine = await pairOf(victim)
        const theirs = await pairOf(new Client(route.config()))
        const foreign = await pairOf(new Client(credentialsConfig({ secret: OTHER_SECRET })))
        const before = await prepared.state()

        const response = await post(victim, route, prepared.fields, present(mine, theirs, foreign))
        await expectRefused(route, response)
        expect(await prepared.state()).toBe(before)
        await prepared.stillUsable?.()
      })
    }

    it(`accepts this browser's own cookie and token${route.changes ? `: ${route.changes}` : ""}`, async () => {
      const client = new Client(route.config())
      const prepared = await route.prepare(client)
      const mine = await pairOf(client)
      const before = await prepared.state()
      const response = await post(client, route, prepared.fields, { cookie: mine.cookie, token: mine.token })
      expect(await route.acceptedProblem(response)).toBeUndefined()
      if (route.changes) expect(await prepared.state()).not.toBe(before)
    })
  })
}

// ---------------------------------------------------------------------------------------------
// The POSTs that cannot carry the token, bound to the browser another way
// ---------------------------------------------------------------------------------------------

describe("POST backchannel-logout/<provider> takes no CSRF token, by design", () => {
  // The identity provider's server posts it, with no browser and no cookies: what binds it is the
  // logout token's signature by the provider's keys (the accepting case, a tokenless post from the
  // real oidc-provider ending a session, is in test/flow/backchannel-logout.test.ts).
  it("answers from the logout token alone: refused for a bad one with or without a CSRF pair, and never reads or sets a cookie", async () => {
    const withPair = new Client(jwtConfig!)
    const { token } = await pairOf(withPair)
    const answers: { status: number; body: unknown; setCookie: string | null }[] = []
    for (const [client, fields] of [
      [new Client(jwtConfig!), { logout_token: "not.a.token" }],
      [withPair, { logout_token: "not.a.token", csrfToken: token }],
    ] as const) {
      const response = await client.postForm("backchannel-logout/idp", fields)
      answers.push({ status: response.status, body: await response.json(), setCookie: response.headers.get("set-cookie") })
    }
    for (const answer of answers) {
      expect(answer.status).toBe(400)
      // Refused by the token check, not by a CSRF check, and identically with or without the pair.
      expect(answer.body).toMatchObject({ error: "invalid_request" })
      expect(answer.setCookie).toBeNull()
    }
    expect(answers[0]).toEqual(answers[1])
  })
})

describe("POST callback/<oidc> with response_mode=form_post (the provider posts, so no CSRF token)", () => {
  /** Runs an attacker's sign-in at the provider up to its auto-posting form; returns the form's action and fields. */
  async function attackersFormPost(attacker: Browser): Promise<{ action: string; fields: Record<string, string> }> {
    const start = await attacker.post(`${BASE}/signin/idp-form`, { csrfToken: await browserCsrfToken(attacker), callbackUrl: "/dashboard" })
    const page = start.last.body
    const action = /<form[^>]*action="([^"]+)"/i.exec(page)?.[1]
    expect(action, page.slice(0, 300)).toBe(`${BASE}/callback/idp-form`)
    const fields = Object.fromEntries([...page.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/gi)].map((match) => [match[1]!, match[2]!]))
    expect(fields.code).toBeTruthy()
    return { action: action!, fields }
  }

  it("refuses the attacker's code posted from the victim's browser (login CSRF): no session, InvalidCheck", async () => {
    const attacker = new Browser({ app: authApp(jwtConfig!), autoSubmit: false })
    const { action, fields } = await attackersFormPost(attacker)
    const victim = new Browser({ app: authApp(jwtConfig!) })
    await victim.get(`${BASE}/signin`)
    const before = log.lines.length
    const posted = await victim.post(action, fields, { from: oidc!.issuer, follow: false })
    expect(posted.last.location).toBe(`${BASE}/error?error=InvalidCheck`)
    expect(log.lines.slice(before).map((line) => line.code)).toContain("InvalidCheck")
    expect((await victim.get(`${BASE}/session`)).last.json()).toBeNull()
  })

  it("(control) accepts the same form posted from the browser that started the sign-in", async () => {
    const attacker = new Browser({ app: authApp(jwtConfig!), autoSubmit: false })
    const { action, fields } = await attackersFormPost(attacker)
    const posted = await attacker.post(action, fields, { from: oidc!.issuer, follow: false })
    expect(posted.last.location).toBe(`${APP}/dashboard`)
    expect((await attacker.get(`${BASE}/session`)).last.json()).toMatchObject({ user: { email: "mallory@example.com" } })
  })
})

describe("POST callback/passkey (a WebAuthn answer, bound to this browser's challenge)", () => {
  /** A registration answer signed over the challenge of `client`'s own ceremony. */
  async function registrationFor(client: Client, email: string) {
    const response = await client.get(`webauthn-options/passkey?${new URLSearchParams({ action: "register", email })}`)
    const { options } = (await response.json()) as { options: { challenge: string } }
    return new SoftwareAuthenticator().register({ challenge: options.challenge, origin: APP, rpId: "app.test" })
  }

  it("refuses an answer signed over another browser's challenge: no session, no passkey stored", async () => {
    const email = nextAddress()
    const attacker = new Client(jwtConfig!)
    const credential = await registrationFor(attacker, email)
    const victim = new Client(jwtConfig!)
    await registrationFor(victim, nextAddress())
    const before = log.lines.length
    const response = await victim.postForm("callback/passkey", { action: "register", data: JSON.stringify(credential) })
    expect(response.headers.get("location")).toBe(`${BASE}/error?error=WebAuthnVerificationError`)
    expect(log.lines.slice(before).map((line) => line.code)).toContain("WebAuthnVerificationError")
    expect(await victim.session()).toBeNull()
    expect(await store!.adapter.getAuthenticator!(Buffer.from(credential.id, "base64url").toString("base64"))).toBeNull()
  })

  it("refuses an answer from a browser that has no challenge at all", async () => {
    const credential = await registrationFor(new Client(jwtConfig!), nextAddress())
    const victim = new Client(jwtConfig!)
    const response = await victim.postForm("callback/passkey", { action: "register", data: JSON.stringify(credential) })
    expect(response.headers.get("location")).toBe(`${BASE}/error?error=WebAuthnVerificationError`)
    expect(await victim.session()).toBeNull()
  })

  it("(control) accepts the answer in the browser whose challenge it signed", async () => {
    const email = nextAddress()
    const client = new Client(jwtConfig!)
    const credential = await registrationFor(client, email)
    const response = await client.postForm("callback/passkey", { action: "register", data: JSON.stringify(credential) })
    expect(response.headers.get("location")).toBe(APP)
    expect(await client.session()).toMatchObject({ user: { email } })
    expect(await store!.adapter.getAuthenticator!(Buffer.from(credential.id, "base64url").toString("base64"))).not.toBeNull()
  })
})

// ---------------------------------------------------------------------------------------------
// The token itself
// ---------------------------------------------------------------------------------------------

describe("the CSRF token and cookie", () => {
  it("are token|sha256(token + secret), 256 random bits, in a __Host- HttpOnly Secure SameSite=Lax cookie, never cached", async () => {
    const client = new Client(credentialsConfig())
    const first = await client.get("csrf")
    expect(first.headers.get("cache-control")).toBe("private, no-cache, no-store")
    expect(first.headers.get("expires")).toBe("0")
    expect(first.headers.get("pragma")).toBe("no-cache")
    const { csrfToken } = (await first.json()) as { csrfToken: string }
    expect(csrfToken).toMatch(/^[0-9a-f]{64}$/)
    expect(client.jar.get(CSRF)).toBe(`${csrfToken}|${sha256(`${csrfToken}${secret}`)}`)
    // __Host-: no Domain, Path=/, Secure, so a sibling subdomain cannot plant a pair of its own.
    expect(first.headers.getSetCookie().find((line) => line.startsWith(`${CSRF}=`))).toMatch(/%7C[0-9a-f]{64}; Path=\/; HttpOnly; Secure; SameSite=Lax$/)
  })

  it("is reused while the cookie is valid, and differs between browsers", async () => {
    const client = new Client(credentialsConfig())
    const token = await client.csrfToken()
    const again = await client.get("csrf")
    expect(((await again.json()) as { csrfToken: string }).csrfToken).toBe(token)
    expect(again.headers.getSetCookie().some((line) => line.startsWith(`${CSRF}=`))).toBe(false)
    expect(await new Client(credentialsConfig()).csrfToken()).not.toBe(token)
  })

  it("is minted anew after a forged cookie was refused", async () => {
    const client = new Client(credentialsConfig())
    client.jar.cookies.set(CSRF, encodeURIComponent(`${guessed}|${sha256(`${guessed}guessed-secret`)}`))
    const response = await client.postForm("callback/credentials", { csrfToken: guessed, ...PASSWORD })
    expect(response.headers.get("location")).toBe(MISSING_CSRF)
    const fresh = await client.csrfToken()
    expect(fresh).not.toBe(guessed)
    expect(client.jar.get(CSRF)).toBe(`${fresh}|${sha256(`${fresh}${secret}`)}`)
  })

  it("is accepted in a JSON body as in a form", async () => {
    const client = new Client(credentialsConfig())
    const response = await client.postJson("callback/credentials", { csrfToken: await client.csrfToken(), ...PASSWORD })
    expect(response.headers.get("location")).toBe(APP)
  })

  it("is not checked, nor served, only with skipCSRFCheck (for framework authors), which is logged", async () => {
    const { logger, lines } = recordingLogger()
    const config = credentialsConfig({ skipCSRFCheck, logger })
    const client = new Client(config)
    const response = await client.postForm("callback/credentials", { ...PASSWORD })
    expect(response.headers.get("location")).toBe(APP)
    expect(response.headers.getSetCookie().some((line) => line.startsWith(`${CSRF}=`))).toBe(false)
    const csrf = await Auth(new Request(`${BASE}/csrf?callbackUrl=%2Fx`), config)
    expect(csrf.status).toBe(404)
    expect(csrf.headers.getSetCookie()).toEqual([
      `__Secure-authjs.callback-url=${encodeURIComponent(`${APP}/x`)}; Path=/; HttpOnly; Secure; SameSite=Lax`,
      `${CSRF}=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax`,
    ])
    expect(lines.some((line) => line.code === "csrf-disabled")).toBe(true)
  })

  it("is compared by a function that matches equal strings only", () => {
    expect(timingSafeEqual("abc", "abc")).toBe(true)
    expect(timingSafeEqual("", "")).toBe(true)
    for (const [a, b] of [
      ["abc", "abd"],
      ["abc", "ab"],
      ["ab", "abc"],
      ["", "a"],
      ["a", ""],
      ["é", "e\u0301"],
      ["a".repeat(64), "A".repeat(64)],
    ] as const) {
      expect(timingSafeEqual(a, b), `${a} vs ${b}`).toBe(false)
    }
  })
})

/**
 * The configurations the fuzz suite runs against, and real state minted under each of them (CSRF
 * pairs, session cookies, OAuth check cookies, a passkey challenge) so random requests can carry
 * genuine or tampered cookies and reach past the CSRF check.
 *
 * OAuth and OIDC providers point at a loopback port nobody listens on: a sign-in that reaches
 * them fails at once, and no request leaves the machine.
 */
import { createServer } from "node:net"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { defaultCookies, mergeCookies } from "../../src/cookies/defaults.js"
import { Auth } from "../../src/core/handler.js"
import { skipCSRFCheck } from "../../src/markers.js"
import { Credentials } from "../../src/providers/credentials.js"
import { Passkey } from "../../src/providers/passkey.js"
import type { EmailConfig, OAuthConfig, ProviderConfig } from "../../src/providers/types.js"
import type { AuthConfig, LoggerInstance, User } from "../../src/types.js"

/** The origins state is minted on: one secure, one plain http. */
export const HTTPS_ORIGIN = "https://app.test"
export const HTTP_ORIGIN = "http://localhost:3000"

/** One logged line, as the application's logger received it. */
export interface LoggedLine {
  level: keyof LoggerInstance
  code: string
  message: unknown[]
}

/** A cookie as a browser would send it back: the value exactly as it came in `Set-Cookie`. */
export interface MintedCookie {
  name: string
  value: string
}

/** State minted on one origin under one configuration. */
export interface Minted {
  /** The CSRF cookie and the token that matches it. */
  csrf: { cookie: MintedCookie; token: string }
  /** Every cookie of a live session (several when the session is chunked). */
  sessions: MintedCookie[][]
  /** Other cookies worth replaying: OAuth checks, the passkey challenge, the callback URL. */
  others: MintedCookie[]
  /** Genuine sign-in links the email provider sent (absolute URLs on the minting origin). */
  links: string[]
}

/** A configuration under fuzz, with what the checks need to know about it. */
export interface FuzzConfig {
  name: string
  config: AuthConfig & { raw?: undefined }
  basePath: string
  /** Every secret of the configuration: none may ever reach a response. */
  secrets: readonly string[]
  /** Origins a redirect may go to besides the request's own (the providers'). */
  providerOrigins: readonly string[]
  /** The provider ids configured. */
  providerIds: readonly string[]
  /** Whether a cookie name is one this configuration may set. */
  setsCookie(name: string): boolean
  /** What the application's logger received since the last `reset()`. */
  readonly logged: LoggedLine[]
  /** Sign-in links the email provider was asked to send since the last `reset()`. */
  readonly sentLinks: string[]
  minted: { https: Minted; http: Minted }
  reset(): void
}

/** A port on 127.0.0.1 that was free a moment ago; connections to it are refused. */
export async function deadLoopbackPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (!address || typeof address === "string") throw new Error("no port")
  return address.port
}

function recorder(): { logger: LoggerInstance; lines: LoggedLine[] } {
  const lines: LoggedLine[] = []
  return {
    lines,
    logger: {
      error: (code, ...message) => void lines.push({ level: "error", code, message }),
      warn: (code, ...message) => void lines.push({ level: "warn", code, message }),
      debug: (code, ...message) => void lines.push({ level: "debug", code, message }),
    },
  }
}

const PASSWORD = "correct horse"
/** A name long enough that the JWT session cookie needs several chunks. */
const BIG_NAME = "B".repeat(6_000)

/** A credentials provider that knows `ada` and `big`, as `users` maps them. */
function credentials(users: () => Record<string, User>): ProviderConfig {
  return Credentials({
    credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
    authorize: ({ username, password }) => {
      if (password !== PASSWORD || typeof username !== "string") return null
      const user = users()[username]
      return user ? { ...user } : null
    },
  })
}

function capturingEmail(sent: string[]): EmailConfig {
  return { id: "email", name: "Email", type: "email", sendVerificationRequest: ({ url }) => void sent.push(url) }
}

/** Makes the configurations and mints their state; about half a second. */
export async function makeFuzzConfigs(): Promise<FuzzConfig[]> {
  const dead = `http://127.0.0.1:${await deadLoopbackPort()}`
  const made: FuzzConfig[] = []

  const add = async (
    name: string,
    options: { basePath: string; secrets: string[]; providerOrigins?: string[]; build: (logger: LoggerInstance, sent: string[]) => Promise<AuthConfig> },
  ) => {
    const { logger, lines } = recorder()
    const sent: string[] = []
    const config = (await options.build(logger, sent)) as AuthConfig & { raw?: undefined }
    const names = new Set<string>()
    let sessionNames: string[] = []
    for (const secure of [true, false]) {
      const cookies = mergeCookies(defaultCookies(secure), config.cookies)
      for (const cookie of Object.values(cookies)) names.add(cookie.name)
      sessionNames = [...sessionNames, cookies.sessionToken.name]
    }
    const chunkNames = sessionNames.map((session) => new RegExp(`^${escapeRegExp(session)}\\.\\d{1,4}$`))
    const entry: FuzzConfig = {
      name,
      config,
      basePath: options.basePath,
      secrets: options.secrets,
      providerOrigins: options.providerOrigins ?? [],
      providerIds: (config.providers ?? []).flatMap((provider) => (typeof provider === "function" ? [] : [provider.id])),
      setsCookie: (cookieName) => names.has(cookieName) || chunkNames.some((chunk) => chunk.test(cookieName)),
      logged: lines,
      sentLinks: sent,
      minted: { https: emptyMinted(), http: emptyMinted() },
      reset: () => {
        lines.length = 0
        sent.length = 0
      },
    }
    entry.minted = { https: await mint(entry, HTTPS_ORIGIN), http: await mint(entry, HTTP_ORIGIN) }
    entry.reset()
    made.push(entry)
  }

  await add("jwt with credentials", {
    basePath: "/auth",
    secrets: ["fuzz-secret-jwt-credentials-0123456789abcdef"],
    build: async (logger) => ({
      secret: "fuzz-secret-jwt-credentials-0123456789abcdef",
      trustHost: true,
      logger,
      providers: [credentials(() => ({ ada: { id: "ada", name: "Ada", email: "ada@app.test" }, big: { id: "big", name: BIG_NAME, email: "big@app.test" } }))],
    }),
  })

  await add("database sessions with email and credentials", {
    basePath: "/auth",
    secrets: ["fuzz-secret-database-email-0123456789abcdef"],
    build: async (logger, sent) => {
      const adapter = MemoryAdapter()
      const ada = await adapter.createUser({ email: "ada@app.test", emailVerified: null, name: "Ada" })
      return {
        secret: "fuzz-secret-database-email-0123456789abcdef",
        trustHost: true,
        logger,
        adapter,
        session: { strategy: "database" },
        providers: [credentials(() => ({ ada })), capturingEmail(sent)],
      }
    },
  })

  const hub: OAuthConfig = {
    id: "hub",
    name: "Hub",
    type: "oauth",
    clientId: "fuzz-client",
    clientSecret: "fuzz-client-secret-hub-0123456789",
    authorization: { url: `${dead}/authorize`, params: { scope: "read:user" } },
    token: `${dead}/token`,
    userinfo: `${dead}/user`,
    profile: (profile) => ({ id: String(profile.id), name: null, email: null, image: null }),
  }
  const idp: OAuthConfig = {
    id: "idp",
    name: "IdP",
    type: "oidc",
    issuer: dead,
    clientId: "fuzz-oidc-client",
    clientSecret: "fuzz-client-secret-idp-0123456789",
  }
  await add("oauth and oidc with custom pages", {
    basePath: "/api/auth",
    secrets: ["fuzz-secret-oauth-pages-0123456789abcdef", hub.clientSecret!, idp.clientSecret!],
    providerOrigins: [dead],
    build: async (logger) => ({
      secret: "fuzz-secret-oauth-pages-0123456789abcdef",
      trustHost: true,
      logger,
      basePath: "/api/auth",
      pages: { signIn: "/login", signOut: "/bye", error: "/oops?from=auth", verifyRequest: "/check-email" },
      providers: [hub, idp, credentials(() => ({ ada: { id: "ada", name: "Ada", email: "ada@app.test" } }))],
    }),
  })

  await add("passkeys at the root", {
    basePath: "/",
    secrets: ["fuzz-secret-passkey-root-0123456789abcdef"],
    build: async (logger) => {
      const adapter = MemoryAdapter()
      const ada = await adapter.createUser({ email: "ada@app.test", emailVerified: null, name: "Ada" })
      return {
        secret: "fuzz-secret-passkey-root-0123456789abcdef",
        trustHost: true,
        logger,
        basePath: "/",
        adapter,
        experimental: { enableWebAuthn: true },
        providers: [Passkey(), credentials(() => ({ ada }))],
      }
    },
  })

  await add("no CSRF checks, rotated secrets, renamed cookies", {
    basePath: "/a.b+(c)",
    secrets: ["fuzz-secret-rotated-new-0123456789abcdef", "fuzz-secret-rotated-old-0123456789abcdef"],
    build: async (logger, sent) => ({
      secret: ["fuzz-secret-rotated-new-0123456789abcdef", "fuzz-secret-rotated-old-0123456789abcdef"],
      trustHost: true,
      logger,
      basePath: "/a.b+(c)/",
      skipCSRFCheck,
      useSecureCookies: true,
      adapter: MemoryAdapter(),
      session: { strategy: "jwt", maxAge: 3600, updateAge: 0 },
      cookies: { sessionToken: { name: "sid" }, callbackUrl: { options: { sameSite: "strict" } } },
      theme: { colorScheme: "dark", brandColor: "#336699", logo: "https://app.test/logo.png", buttonText: "#ffffff" },
      callbacks: {
        jwt: ({ token, user }) => (user ? { ...token, role: "reader" } : token),
        session: ({ session, token }) => ({ ...session, role: token?.role }),
      },
      providers: [capturingEmail(sent), credentials(() => ({ ada: { id: "ada", name: "Ada", email: "ada@app.test" }, big: { id: "big", name: BIG_NAME, email: "big@app.test" } }))],
    }),
  })

  return made
}

function emptyMinted(): Minted {
  return { csrf: { cookie: { name: "", value: "" }, token: "" }, sessions: [], others: [], links: [] }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
}

/** The cookies a response sets (not those it deletes), values as sent. */
export function cookiesSet(response: Response): MintedCookie[] {
  return response.headers
    .getSetCookie()
    .filter((line) => !/;\s*Max-Age=0(;|$)/i.test(line))
    .map((line) => {
      const [pair] = line.split(";")
      const eq = pair!.indexOf("=")
      return { name: pair!.slice(0, eq), value: pair!.slice(eq + 1) }
    })
    .filter((cookie) => cookie.value !== "")
}

function cookieHeader(cookies: readonly MintedCookie[]): string {
  return cookies.map(({ name, value }) => `${name}=${value}`).join("; ")
}

/** Mints a CSRF pair, sessions, and whatever check cookies the configuration's providers use. */
async function mint(entry: FuzzConfig, origin: string): Promise<Minted> {
  const base = `${origin}${entry.basePath === "/" ? "" : entry.basePath}`
  const send = (path: string, init: RequestInit = {}) => Auth(new Request(`${base}/${path}`, init), entry.config)

  const csrfResponse = await send("csrf")
  const csrfCookies = cookiesSet(csrfResponse)
  const body = (await csrfResponse.json().catch(() => null)) as { csrfToken?: string } | null
  // Without CSRF checks there is no token; any value then passes.
  const csrf = { cookie: csrfCookies.find((cookie) => cookie.name.endsWith("csrf-token")) ?? { name: "unused", value: "" }, token: body?.csrfToken ?? "" }

  const post = (path: string, fields: Record<string, string>, extra: readonly MintedCookie[] = []) =>
    send(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookieHeader([csrf.cookie, ...extra]) },
      body: new URLSearchParams({ csrfToken: csrf.token, ...fields }),
    })

  const sessions: MintedCookie[][] = []
  for (const username of ["ada", "big"]) {
    if (!entry.providerIds.includes("credentials")) continue
    const signedIn = await post("callback/credentials", { username, password: PASSWORD, callbackUrl: "/dashboard" })
    const session = cookiesSet(signedIn).filter((cookie) => cookie.name.includes("session-token") || cookie.name.startsWith("sid"))
    if (session.length > 0) sessions.push(session)
  }

  const others: MintedCookie[] = []
  if (entry.providerIds.includes("hub")) others.push(...cookiesSet(await post("signin/hub", { callbackUrl: "/after-oauth" })))
  if (entry.providerIds.includes("passkey")) others.push(...cookiesSet(await send("webauthn-options/passkey")))
  const links: string[] = []
  if (entry.providerIds.includes("email")) {
    for (const email of ["someone@example.com", "ada@app.test"]) {
      others.push(...cookiesSet(await post("signin/email", { email, callbackUrl: "/after-email" })))
    }
    links.push(...entry.sentLinks)
  }
  return { csrf, sessions, others: others.filter((cookie) => cookie.name !== csrf.cookie.name), links }
}

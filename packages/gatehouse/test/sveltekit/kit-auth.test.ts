/**
 * gatehouse-auth/sveltekit's handle and form actions, driven with request events shaped like
 * SvelteKit's (a real Request and URL, a recording `cookies`, plain `locals`) and stand-ins for
 * Kit's `redirect` and `error`: the edge cases, fast. The real app in examples/sveltekit is the
 * proof that Kit itself agrees.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import type { AdapterUser } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { CredentialsSignin } from "../../src/errors.js"
import { Credentials } from "../../src/providers/credentials.js"
import GitHub from "../../src/providers/github.js"
import { createKitAuth, type KitControl } from "../../src/sveltekit/kit-auth.js"
import type { KitAuthConfig, KitCookieOptions, KitRequestEvent } from "../../src/sveltekit/types.js"
import type { Session } from "../../src/types.js"
import { ada, credentialsConfig, moveClockOn, recordingLogger, secret } from "../flow/flow-helpers.js"
import { enrol, PENDING, totpNow, type Adapted, type Authentication } from "../two-factor/bypass-matrix-helpers.js"

const ORIGIN = "https://app.test"
const SESSION = "__Secure-authjs.session-token"

/** What Kit's `redirect` and `error` throw, as plain objects to assert on. */
class Redirected {
  constructor(
    readonly status: number,
    readonly location: string,
  ) {}
}
class HttpError {
  constructor(
    readonly status: number,
    readonly message: string,
  ) {}
}
/** The locations the integration let leave the origin (Kit 3's `external`), newest last. */
const allowedExternal: string[] = []
const kit: KitControl = {
  redirect: (status, location, options) => {
    // As Kit 3's does: another origin only when allowed (Kit 2's allows it always).
    if (new URL(location, ORIGIN).origin !== ORIGIN && options?.external !== true) throw new Error(`Cannot redirect to external URL ${location}`)
    if (options?.external === true) allowedExternal.push(location)
    throw new Redirected(status, location)
  },
  error: (status, message) => {
    throw new HttpError(status, message)
  },
}

/** A cookie set through `event.cookies`. */
interface SetCookie {
  name: string
  value: string
  options: KitCookieOptions
}

type TestEvent = KitRequestEvent & { set: SetCookie[]; locals: { auth?: () => Promise<Session | null> } }

/** A request event as Kit builds one: the request, its URL, a cookie API that records, fresh locals. */
function kitEvent(path: string, init: RequestInit & { cookie?: string; platform?: unknown } = {}): TestEvent {
  const { cookie, platform, ...rest } = init
  const headers = new Headers(rest.headers)
  if (cookie) headers.set("cookie", cookie)
  const request = new Request(`${ORIGIN}${path}`, { ...rest, headers })
  const set: SetCookie[] = []
  return {
    request,
    url: new URL(request.url),
    cookies: { set: (name, value, options) => void set.push({ name, value, options }) },
    locals: {},
    platform,
    set,
  }
}

/** A form post from this app's own pages (Kit's form actions get these). */
function formPost(path: string, fields: Record<string, string>, extra: { cookie?: string; headers?: Record<string, string> } = {}): TestEvent {
  return kitEvent(path, {
    method: "POST",
    cookie: extra.cookie,
    headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN, ...extra.headers },
    body: new URLSearchParams(fields),
  })
}

/** The Cookie header a browser would send after the cookies an event set. */
function cookieHeader(...events: TestEvent[]): string {
  const jar = new Map<string, string>()
  for (const { name, value, options } of events.flatMap((event) => event.set)) {
    if (options.maxAge === 0) jar.delete(name)
    else jar.set(name, encodeURIComponent(value))
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ")
}

/** Runs an action; returns where it redirected (an action ends with Kit's redirect or error). */
async function redirectOf(action: Promise<never>): Promise<Redirected> {
  const thrown = await action.catch((error: unknown) => error)
  if (!(thrown instanceof Redirected)) throw new Error(`expected a redirect, got ${String(thrown)}`)
  return thrown
}

const resolve = vi.fn(async () => new Response("the page"))

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllEnvs()
  resolve.mockClear()
})

/** Signs ada in through the signIn action; returns the Cookie header afterwards. */
async function signedIn(auth: ReturnType<typeof createKitAuth>): Promise<string> {
  const event = formPost("/signin", { providerId: "credentials", username: "ada", password: "correct horse", redirectTo: "/dashboard" })
  await redirectOf(auth.signIn(event))
  return cookieHeader(event)
}

describe("handle", () => {
  it("serves the auth routes under /auth and passes every other request to resolve", async () => {
    const { handle } = createKitAuth(credentialsConfig(), kit)
    const providers = await handle({ event: kitEvent("/auth/providers"), resolve })
    expect(await providers.json()).toMatchObject({ credentials: { id: "credentials", signinUrl: `${ORIGIN}/auth/signin/credentials` } })
    expect(resolve).not.toHaveBeenCalled()
    for (const path of ["/", "/dashboard", "/auth/login", "/authx/session"]) {
      const event = kitEvent(path)
      expect(await (await handle({ event, resolve })).text()).toBe("the page")
      expect(resolve).toHaveBeenLastCalledWith(event)
    }
  })

  it("puts auth() on locals, read once per request however many loads call it", async () => {
    let reads = 0
    const config = credentialsConfig({ callbacks: { session: ({ session }) => (reads++, session) } })
    const auth = createKitAuth(config, kit)
    const cookie = await signedIn(auth)
    const event = kitEvent("/dashboard", { cookie })
    await auth.handle({ event, resolve })
    const sessions = await Promise.all([event.locals.auth!(), event.locals.auth!(), event.locals.auth!()])
    expect(sessions[0]).toMatchObject({ user: { email: ada.email } })
    expect(sessions[1]).toBe(sessions[0])
    expect(await event.locals.auth!()).toBe(sessions[0])
    expect(reads).toBe(1)
    // The next request reads again.
    const next = kitEvent("/dashboard", { cookie })
    await auth.handle({ event: next, resolve })
    await next.locals.auth!()
    expect(reads).toBe(2)
  })

  it("copies a slid session cookie through event.cookies, with the core's attributes", async () => {
    const auth = createKitAuth(credentialsConfig(), kit)
    const cookie = await signedIn(auth)
    moveClockOn()
    const event = kitEvent("/dashboard", { cookie })
    await auth.handle({ event, resolve })
    expect(await event.locals.auth!()).toMatchObject({ user: { email: ada.email } })
    expect(event.set).toHaveLength(1)
    expect(event.set[0]).toMatchObject({ name: SESSION, options: { path: "/", httpOnly: true, secure: true, sameSite: "lax" } })
    expect(event.set[0]!.options.expires).toBeInstanceOf(Date)
  })

  it("answers null without a session, and clears an unreadable session cookie", async () => {
    const auth = createKitAuth(credentialsConfig(), kit)
    const none = kitEvent("/")
    await auth.handle({ event: none, resolve })
    expect(await none.locals.auth!()).toBeNull()
    expect(none.set).toEqual([])
    const garbage = kitEvent("/", { cookie: `${SESSION}=garbage` })
    await auth.handle({ event: garbage, resolve })
    expect(await garbage.locals.auth!()).toBeNull()
    expect(garbage.set).toEqual([{ name: SESSION, value: "", options: expect.objectContaining({ maxAge: 0, path: "/" }) }])
  })

  it("fails closed: a configuration that cannot read sessions gives null, logged, and the page still renders", async () => {
    const log = recordingLogger()
    const auth = createKitAuth({ providers: [], trustHost: true, logger: log.logger }, kit)
    const event = kitEvent("/dashboard")
    expect(await (await auth.handle({ event, resolve })).text()).toBe("the page")
    expect(await event.locals.auth!()).toBeNull()
    expect(log.lines.map((line) => line.code)).toContain("MissingSecret")
  })

  it("keeps an auth() an earlier hook put on locals", async () => {
    const auth = createKitAuth(credentialsConfig(), kit)
    const event = kitEvent("/")
    const mine = async () => null
    event.locals.auth = mine
    await auth.handle({ event, resolve })
    expect(event.locals.auth).toBe(mine)
  })

  it("keeps the CSRF check on the auth routes: a JSON post without the token neither signs in nor updates", async () => {
    const config = credentialsConfig({ callbacks: { jwt: ({ token, trigger }) => (trigger === "update" ? { ...token, name: "Changed" } : token) } })
    const auth = createKitAuth(config, kit)
    const cookie = await signedIn(auth)
    const json = (path: string, body: unknown, extra: Record<string, string> = {}) =>
      auth.handle({
        event: kitEvent(path, { method: "POST", cookie: [cookie, extra.cookie].filter(Boolean).join("; "), headers: { "content-type": "application/json", origin: ORIGIN }, body: JSON.stringify(body) }),
        resolve,
      })
    const update = await json("/auth/session", { data: { name: "Changed" } })
    expect(update.status).toBe(400)
    expect(update.headers.getSetCookie()).toEqual([])
    const signIn = await json("/auth/callback/credentials", { username: "ada", password: "correct horse" })
    expect(new URL(signIn.headers.get("location")!).searchParams.get("error")).toBe("MissingCSRF")
    expect(signIn.headers.getSetCookie().some((line) => line.startsWith(`${SESSION}=`))).toBe(false)
    // With the double-submit token, as gatehouse-auth/client sends it, the same update goes through.
    const csrf = await auth.handle({ event: kitEvent("/auth/csrf", { cookie }), resolve })
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const csrfCookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!
    const allowed = await json("/auth/session", { data: { name: "Changed" }, csrfToken }, { cookie: csrfCookie })
    expect(allowed.status).toBe(200)
    expect(await allowed.json()).toMatchObject({ user: { name: "Changed" } })
  })

  it("builds the auth routes' links on AUTH_URL's origin when a proxy in front changes the host", async () => {
    const config: KitAuthConfig = { ...credentialsConfig(), trustHost: undefined }
    const auth = createKitAuth(config, kit)
    const event = kitEvent("/auth/providers", { platform: { env: { AUTH_SECRET: secret, AUTH_URL: "https://public.example" } } })
    const answer = await auth.handle({ event, resolve })
    expect(await answer.json()).toMatchObject({ credentials: { signinUrl: "https://public.example/auth/signin/credentials" } })
  })
})

describe("the environment", () => {
  const configWithoutSecret = (): KitAuthConfig => ({ ...credentialsConfig(), secret: undefined, trustHost: undefined })

  it("reads AUTH_SECRET from the platform's env when the adapter has one", async () => {
    const { handle } = createKitAuth(configWithoutSecret(), kit)
    const answer = await handle({ event: kitEvent("/auth/session", { platform: { env: { AUTH_SECRET: secret } } }), resolve })
    expect(answer.status).toBe(200)
  })

  it("falls back to process.env on Node", async () => {
    vi.stubEnv("AUTH_SECRET", secret)
    const { handle } = createKitAuth(configWithoutSecret(), kit)
    expect((await handle({ event: kitEvent("/auth/session"), resolve })).status).toBe(200)
  })

  it("honours AUTH_TRUST_HOST in production, and refuses the Host header in production without it", async () => {
    const production = { AUTH_SECRET: secret, NODE_ENV: "production" }
    const trusted = createKitAuth(configWithoutSecret(), kit)
    const ok = await trusted.handle({ event: kitEvent("/auth/session", { platform: { env: { ...production, AUTH_TRUST_HOST: "true" } } }), resolve })
    expect(ok.status).toBe(200)
    const log = recordingLogger()
    const untrusted = createKitAuth({ ...configWithoutSecret(), logger: log.logger }, kit)
    const refused = await untrusted.handle({ event: kitEvent("/auth/session", { platform: { env: production } }), resolve })
    expect(refused.status).toBe(500)
    expect(log.lines.map((line) => line.code)).toContain("UntrustedHost")
    const no = createKitAuth({ ...configWithoutSecret(), logger: recordingLogger().logger }, kit)
    const off = await no.handle({ event: kitEvent("/auth/session", { platform: { env: { AUTH_SECRET: secret, AUTH_TRUST_HOST: "false" } } }), resolve })
    expect(off.status).toBe(500)
  })

  it("in production without AUTH_URL or AUTH_TRUST_HOST: public pages resolve, the auth routes answer 500, and locals.auth() reads signed out, the untrusted host logged once naming the fix", async () => {
    const log = recordingLogger()
    const { handle } = createKitAuth({ ...configWithoutSecret(), logger: log.logger }, kit)
    const production = { platform: { env: { AUTH_SECRET: secret, NODE_ENV: "production" } } }
    const page = kitEvent("/", production)
    const answer = await handle({ event: page, resolve })
    expect(answer.status).toBe(200)
    expect(await answer.text()).toBe("the page")
    const route = await handle({ event: kitEvent("/auth/session", production), resolve })
    expect(route.status).toBe(500)
    expect(await route.text()).not.toMatch(/UntrustedHost|AUTH_URL|\.ts:/)
    // A layout reading the session on every page must not take the public ones down.
    expect(await page.locals.auth!()).toBeNull()
    const another = kitEvent("/about", production)
    await handle({ event: another, resolve })
    expect(await another.locals.auth!()).toBeNull()
    const logged = log.lines.filter((line) => line.code === "UntrustedHost")
    expect(logged).toHaveLength(1)
    expect(logged[0]!.message.map((part) => (part instanceof Error ? part.message : String(part))).join(" ")).toMatch(/AUTH_URL=https:\/\/your\.site.*AUTH_TRUST_HOST=true/)
  })

  it("calls a config function with the request event", async () => {
    const config = credentialsConfig()
    const seen: KitRequestEvent[] = []
    const { handle } = createKitAuth(async (event) => (seen.push(event), config), kit)
    const event = kitEvent("/auth/session")
    expect((await handle({ event, resolve })).status).toBe(200)
    expect(seen).toEqual([event])
  })
})

describe("the signIn form action", () => {
  it("signs in with credentials posted from the app's own page: a 303 and the session cookie through event.cookies", async () => {
    const auth = createKitAuth(credentialsConfig(), kit)
    const event = formPost("/signin", { providerId: "credentials", username: "ada", password: "correct horse", redirectTo: "/dashboard" })
    const redirect = await redirectOf(auth.signIn(event))
    expect(redirect).toEqual(new Redirected(303, `${ORIGIN}/dashboard`))
    expect(event.set.find((cookie) => cookie.name === SESSION)?.options).toMatchObject({ httpOnly: true, secure: true, path: "/" })
    // No double-submit cookie was needed: Kit checked the Origin.
    expect(event.set.some((cookie) => cookie.name.includes("csrf-token"))).toBe(false)
  })

  it("sends a refused sign-in back to the sign-in page with CredentialsSignin, its code and the callback URL", async () => {
    const auth = createKitAuth(credentialsConfig(), kit)
    const event = formPost("/signin", { providerId: "credentials", username: "ada", password: "wrong", redirectTo: "/dashboard" })
    const redirect = await redirectOf(auth.signIn(event))
    expect(redirect.status).toBe(303)
    const url = new URL(redirect.location, ORIGIN)
    expect(url.pathname).toBe("/auth/signin")
    expect(Object.fromEntries(url.searchParams)).toEqual({ error: "CredentialsSignin", code: "credentials", callbackUrl: "/dashboard" })
    expect(event.set.some((cookie) => cookie.name === SESSION)).toBe(false)
  })

  it("names a CredentialsSignin subclass's code, on the app's own sign-in page when it has one", async () => {
    class LockedOut extends CredentialsSignin {
      override code = "locked_out"
    }
    const config = credentialsConfig({
      pages: { signIn: "/signin" },
      providers: [
        Credentials({
          credentials: { username: {} },
          authorize: () => {
            throw new LockedOut()
          },
          rateLimit: false,
        }),
      ],
    })
    const redirect = await redirectOf(createKitAuth(config, kit).signIn(formPost("/signin", { providerId: "credentials", username: "ada" })))
    expect(redirect.location).toBe("/signin?error=CredentialsSignin&code=locked_out&callbackUrl=%2F")
  })

  it("sends a refused sign-in back to the app's own page the form was on (its Referer) when pages.signIn is not set", async () => {
    const auth = createKitAuth(credentialsConfig(), kit)
    const event = formPost("/login?/signin", { providerId: "credentials", username: "ada", password: "wrong" }, { headers: { referer: `${ORIGIN}/login?callbackUrl=%2Fdashboard` } })
    const redirect = await redirectOf(auth.signIn(event))
    expect(redirect).toEqual(new Redirected(303, "/login?callbackUrl=%2Fdashboard&error=CredentialsSignin&code=credentials"))
    // A failure page is the integration's choice, not the core's: Kit 3 keeps refusing another origin for it.
    expect(allowedExternal).not.toContain(redirect.location)
    // pages.signIn, when set, wins; a Referer of another site or of the built-in page is not followed.
    const custom = createKitAuth(credentialsConfig({ pages: { signIn: "/signin" } }), kit)
    const fromHeader = formPost("/login", { providerId: "credentials", ...{ username: "ada", password: "wrong" } }, { headers: { referer: `${ORIGIN}/login` } })
    expect((await redirectOf(custom.signIn(fromHeader))).location).toBe("/signin?error=CredentialsSignin&code=credentials&callbackUrl=%2F")
    for (const referer of ["https://evil.test/login", `${ORIGIN}//evil.test/login`, `${ORIGIN}/auth/signin`]) {
      const elsewhere = formPost("/login", { providerId: "credentials", username: "ada", password: "wrong" }, { headers: { referer } })
      expect(new URL((await redirectOf(auth.signIn(elsewhere))).location, ORIGIN).pathname, referer).toBe("/auth/signin")
    }
  })

  it("refuses a form posted from another site, or without an Origin, unless it carries the double-submit token", async () => {
    const auth = createKitAuth(credentialsConfig(), kit)
    const fields = { providerId: "credentials", username: "ada", password: "correct horse" }
    for (const headers of [{ origin: "https://evil.test" }, { origin: "null" }, { origin: "" }]) {
      const event = formPost("/signin", fields, { headers })
      if (headers.origin === "") event.request.headers.delete("origin")
      const redirect = await redirectOf(auth.signIn(event))
      expect(new URL(redirect.location, ORIGIN).searchParams.get("error")).toBe("MissingCSRF")
      expect(event.set.some((cookie) => cookie.name === SESSION)).toBe(false)
    }
  })

  it("passes authorizationParams-* fields to the provider's authorization URL (a redirect to another origin, allowed as Kit 3 asks), and sets the OAuth check cookies", async () => {
    const config = credentialsConfig({ providers: [GitHub({ clientId: "id", clientSecret: "secret" })] })
    const event = formPost("/signin", { providerId: "github", "authorizationParams-prompt": "consent", "authorizationParams-login": "ada", redirectTo: "/after" })
    const redirect = await redirectOf(createKitAuth(config, kit).signIn(event))
    const url = new URL(redirect.location)
    expect(url.origin + url.pathname).toBe("https://github.com/login/oauth/authorize")
    expect(url.searchParams.get("prompt")).toBe("consent")
    expect(url.searchParams.get("login")).toBe("ada")
    expect(url.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/auth/callback/github`)
    expect(event.set.map((cookie) => cookie.name)).toContain("__Secure-authjs.pkce.code_verifier")
  })

  it.each([
    ["no provider", {}],
    ["an unknown provider", { providerId: "nope" }],
  ])("sends %s to the sign-in page, keeping where to go", async (_case, fields) => {
    const redirect = await redirectOf(createKitAuth(credentialsConfig(), kit).signIn(formPost("/signin", { ...fields, redirectTo: "/after" })))
    expect(redirect).toEqual(new Redirected(303, "/auth/signin?callbackUrl=%2Fafter"))
  })

  it.each([
    ["the callbackUrl of the page it was posted from", `${ORIGIN}/signin?callbackUrl=%2Fprotected`, "https://app.test/protected"],
    ["the page it was posted from", `${ORIGIN}/pricing`, `${ORIGIN}/pricing`],
    ["/ when posted from the action's own page", `${ORIGIN}/signin`, `${ORIGIN}/`],
    ["/ when posted from another site's page", "https://evil.test/x?callbackUrl=https://evil.test", `${ORIGIN}/`],
  ])("goes, without redirectTo, to %s", async (_case, referer, expected) => {
    const auth = createKitAuth(credentialsConfig(), kit)
    const event = formPost("/signin", { providerId: "credentials", username: "ada", password: "correct horse" }, { headers: { referer } })
    expect((await redirectOf(auth.signIn(event))).location).toBe(expected)
  })

  it("never redirects off the site: another origin's redirectTo ends on the app", async () => {
    const auth = createKitAuth(credentialsConfig(), kit)
    const event = formPost("/signin", { providerId: "credentials", username: "ada", password: "correct horse", redirectTo: "https://evil.test/steal" })
    expect((await redirectOf(auth.signIn(event))).location).toBe(ORIGIN)
  })

  it("answers 400 for a body that is no form", async () => {
    const auth = createKitAuth(credentialsConfig(), kit)
    const event = kitEvent("/signin", { method: "POST", headers: { "content-type": "multipart/form-data; boundary=x", origin: ORIGIN }, body: "not multipart at all" })
    await expect(auth.signIn(event)).rejects.toEqual(new HttpError(400, "The form could not be read"))
  })

  it("sends an email link and goes to the verify-request page", async () => {
    const sent: string[] = []
    const config = credentialsConfig({
      adapter: MemoryAdapter(),
      providers: [{ id: "email", type: "email", name: "Email", from: "auth@app.test", maxAge: 600, sendVerificationRequest: async ({ url }) => void sent.push(url) }],
    })
    const redirect = await redirectOf(createKitAuth(config, kit).signIn(formPost("/signin", { providerId: "email", email: "ada@app.test", redirectTo: "/after" })))
    expect(new URL(redirect.location).pathname).toBe("/auth/verify-request")
    expect(sent).toHaveLength(1)
    expect(new URL(sent[0]!).pathname).toBe("/auth/callback/email")
  })
})

describe("the signOut form action", () => {
  it("ends the session, clears its cookie through event.cookies and redirects (303)", async () => {
    const auth = createKitAuth(credentialsConfig(), kit)
    const cookie = await signedIn(auth)
    const event = formPost("/signout", { redirectTo: "/bye" }, { cookie })
    expect(await redirectOf(auth.signOut(event))).toEqual(new Redirected(303, `${ORIGIN}/bye`))
    expect(event.set.find((set) => set.name === SESSION)).toMatchObject({ value: "", options: { maxAge: 0 } })
    const after = kitEvent("/", { cookie: cookieHeader(event) })
    await auth.handle({ event: after, resolve })
    expect(await after.locals.auth!()).toBeNull()
  })

  it("does not sign out on a form posted from another site", async () => {
    const auth = createKitAuth(credentialsConfig(), kit)
    const cookie = await signedIn(auth)
    const event = formPost("/signout", {}, { cookie, headers: { origin: "https://evil.test" } })
    expect(new URL((await redirectOf(auth.signOut(event))).location, ORIGIN).searchParams.get("error")).toBe("MissingCSRF")
    expect(event.set).toEqual([])
  })
})

describe("the client's address for the per-IP sign-in limits", () => {
  /** Credentials that never sign in, limited to two attempts per client address. */
  const limited = () =>
    credentialsConfig({
      providers: [Credentials({ credentials: { username: {}, password: {} }, authorize: () => null, rateLimit: { perIdentifier: false, perIp: { max: 2, windowSeconds: 600 } } })],
    })
  /** What a client may send to pick a bucket of its own: a new address per attempt. */
  const forged = (n: number) => ({
    "x-real-ip": `192.0.2.${n}`,
    "x-forwarded-for": `192.0.2.${n}`,
    "cf-connecting-ip": `192.0.2.${n}`,
    "x-gatehouse-client-address": `192.0.2.${n}`,
  })
  /** `event` as Kit hands it over, its adapter seeing the client at `address` (or unable to tell). */
  const from = <Event extends TestEvent>(event: Event, address: string | Error): Event =>
    Object.assign(event, {
      getClientAddress: () => {
        if (address instanceof Error) throw address
        return address
      },
    })

  it("is Kit's getClientAddress() in the signIn action: a rotated X-Real-IP or X-Forwarded-For picks no bucket", async () => {
    const auth = createKitAuth(limited(), kit)
    const errors = []
    for (const [n, address] of [[1, "203.0.113.9"], [2, "203.0.113.9"], [3, "203.0.113.9"], [4, "198.51.100.4"]] as const) {
      const event = from(formPost("/signin", { providerId: "credentials", username: `spray-${n}`, password: "x" }, { headers: forged(n) }), address)
      errors.push(new URL((await redirectOf(auth.signIn(event))).location, ORIGIN).searchParams.get("error"))
    }
    expect(errors).toEqual(["CredentialsSignin", "CredentialsSignin", "CredentialsRateLimited", "CredentialsSignin"])
  })

  it("is Kit's getClientAddress() on the auth routes too", async () => {
    const auth = createKitAuth(limited(), kit)
    const csrf = await auth.handle({ event: kitEvent("/auth/csrf"), resolve })
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const cookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!
    const statuses = []
    for (const [n, address] of [[1, "203.0.113.9"], [2, "203.0.113.9"], [3, "203.0.113.9"], [4, "198.51.100.4"]] as const) {
      const event = kitEvent("/auth/callback/credentials", {
        method: "POST",
        cookie,
        headers: { "content-type": "application/x-www-form-urlencoded", ...forged(n) },
        body: new URLSearchParams({ csrfToken, username: `spray-${n}`, password: "x" }),
      })
      statuses.push((await auth.handle({ event: from(event, address), resolve })).status)
    }
    expect(statuses).toEqual([302, 302, 429, 302])
  })

  it("reads the app's own trustedIpHeader (X-Real-IP, which its proxy sets) rather than getClientAddress()", async () => {
    const auth = createKitAuth({ ...limited(), trustedIpHeader: "x-real-ip" }, kit)
    const errors = []
    // The adapter sees one address, the proxy's; the proxy's X-Real-IP tells the clients apart.
    for (const [n, realIp] of [[1, "192.0.2.1"], [2, "192.0.2.2"], [3, "192.0.2.1"], [4, "192.0.2.1"]] as const) {
      const event = from(formPost("/signin", { providerId: "credentials", username: `real-${n}`, password: "x" }, { headers: { "x-real-ip": realIp } }), "10.0.0.2")
      errors.push(new URL((await redirectOf(auth.signIn(event))).location, ORIGIN).searchParams.get("error"))
    }
    expect(errors).toEqual(["CredentialsSignin", "CredentialsSignin", "CredentialsSignin", "CredentialsRateLimited"])
  })

  it("ignores a client-sent X-Real-IP when the adapter cannot tell the address (Kit throws): no per-IP count then", async () => {
    const auth = createKitAuth(limited(), kit)
    const errors = []
    for (let n = 1; n <= 3; n++) {
      const event = from(formPost("/signin", { providerId: "credentials", username: `spray-${n}`, password: "x" }, { headers: forged(0) }), new Error("no address"))
      errors.push(new URL((await redirectOf(auth.signIn(event))).location, ORIGIN).searchParams.get("error"))
    }
    expect(errors).toEqual(["CredentialsSignin", "CredentialsSignin", "CredentialsSignin"])
  })
})

describe("under two-factor sign-in (issue 37)", () => {
  async function twoFactorApp() {
    const adapter = MemoryAdapter() as Adapted
    const { id: uid } = await adapter.createUser({ id: "", name: "Ada", email: ada.email!, emailVerified: null } as AdapterUser)
    const key = await enrol(adapter, uid)
    const signInEvent = vi.fn()
    const config: KitAuthConfig = {
      ...credentialsConfig({ adapter, session: { strategy: "database" }, events: { signIn: signInEvent } }),
      providers: [Credentials({ credentials: { username: {}, password: {} }, authorize: ({ password }) => (password === "correct horse" ? { id: uid, email: ada.email } : null), rateLimit: false })],
      twoFactor: { totp: { issuer: "Gatehouse tests" } },
    }
    return { adapter, uid, key, signInEvent, auth: createKitAuth(config, kit) }
  }

  it("the signIn action leaves only the pending cookie for an enrolled user; locals.auth() is null until the code, then has session.authentication at aal 2", async () => {
    const { adapter, uid, key, signInEvent, auth } = await twoFactorApp()
    const action = formPost("/signin", { providerId: "credentials", username: "ada", password: "correct horse", redirectTo: "/dashboard" })
    expect(await redirectOf(auth.signIn(action))).toEqual(new Redirected(303, `${ORIGIN}/auth/two-factor`))
    // Only the pending cookie: the callback URL's cookie aside, nothing of a session.
    expect(action.set.filter(({ name, value }) => value !== "" && !name.endsWith(".callback-url")).map(({ name }) => name)).toEqual([PENDING])
    expect(await adapter.listSessionsByUserId(uid)).toHaveLength(0)
    expect(signInEvent).not.toHaveBeenCalled()
    const pending = kitEvent("/dashboard", { cookie: cookieHeader(action) })
    await auth.handle({ event: pending, resolve })
    expect(await pending.locals.auth!()).toBeNull()

    // The two-factor page posts to the auth routes, with the double-submit token.
    const csrf = await auth.handle({ event: kitEvent("/auth/csrf", { cookie: cookieHeader(action) }), resolve })
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const csrfCookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!
    const done = await auth.handle({
      event: formPost("/auth/two-factor", { csrfToken, code: totpNow(key) }, { cookie: `${cookieHeader(action)}; ${csrfCookie}` }),
      resolve,
    })
    expect(done.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    const session = done.headers.getSetCookie().find((line) => line.startsWith(`${SESSION}=`))!.split(";")[0]!
    expect(signInEvent).toHaveBeenCalledTimes(1)

    const after = kitEvent("/dashboard", { cookie: session })
    await auth.handle({ event: after, resolve })
    const read = (await after.locals.auth!()) as (Session & { authentication?: Authentication }) | null
    expect(read?.authentication).toMatchObject({ aal: 2, amr: ["pwd", "otp", "mfa"] })
    expect(Date.now() - Date.parse(read!.authentication!.secondFactorAt!)).toBeLessThan(60_000)
  })
})

/**
 * Gatehouse and `@auth/core` served side by side on one origin, with one browser cookie jar: a
 * switch between the two libraries (either way) must keep users signed in and forms working, and
 * the JSON answers clients read must be the same.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { Auth as AuthJs, type AuthConfig as AuthJsConfig } from "@auth/core"
import CredentialsJs from "@auth/core/providers/credentials"
import { Auth } from "../../src/core/handler.js"
import type { AuthConfig } from "../../src/types.js"
import { githubLikeProvider, startGitHubLikeServer, type GitHubLikeServer } from "../support/github-like-server.js"
import { Client, ada, credentialsConfig, moveClockOn, secret as stringSecret } from "./flow-helpers.js"

type Server = "gatehouse" | "authjs"
type Secret = string | string[]

const SERVERS: readonly Server[] = ["gatehouse", "authjs"]
const SECRETS: [string, Secret][] = [
  ["a string secret", stringSecret],
  ["an array secret of two", ["interop-newest-0123456789abcdef0123456789", "interop-oldest-0123456789abcdef0123456789"]],
]
const HTTPS = "https://app.test"
const HTTP = "http://app.test"
const SESSION = "__Secure-authjs.session-token"
const CSRF = "__Host-authjs.csrf-token"
const GOOD = { username: "ada", password: "correct horse" }
const THIRTY_DAYS_MS = 30 * 24 * 60 * 60 * 1000

const quietLogger = { error() {}, warn() {}, debug() {} }

/** Auth.js with the same credentials provider as `credentialsConfig()`. A fresh object: Auth.js mutates it. */
function authjsConfig(secret: Secret, extra: Partial<AuthJsConfig> = {}): AuthJsConfig {
  return {
    secret,
    trustHost: true,
    basePath: "/auth",
    logger: quietLogger,
    providers: [
      CredentialsJs({
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        authorize: (input) => (input.username === "ada" && input.password === "correct horse" ? { ...ada } : null),
      }),
    ],
    ...extra,
  }
}

function gatehouseConfig(secret: Secret, extra: Partial<AuthConfig> = {}): AuthConfig {
  return credentialsConfig({ secret, basePath: "/auth", ...extra })
}

/**
 * One browser on one origin whose requests go to Gatehouse or to Auth.js, whichever is switched
 * on: the same cookie jar crosses between the two, as in a migration.
 */
class Browser extends Client {
  server: Server = "gatehouse"
  readonly authjs: AuthJsConfig

  constructor(
    secret: Secret = stringSecret,
    origin: string = HTTPS,
    configs: { gatehouse?: AuthConfig; authjs?: AuthJsConfig } = {},
  ) {
    super(configs.gatehouse ?? gatehouseConfig(secret), origin)
    this.authjs = configs.authjs ?? authjsConfig(secret)
  }

  on(server: Server): this {
    this.server = server
    return this
  }

  override async send(request: Request): Promise<Response> {
    const response =
      this.server === "authjs" ? await AuthJs(request, this.authjs) : await Auth(request, this.config as Omit<AuthConfig, "raw">)
    return this.jar.store(response)
  }
}

/** Runs `scenario` on a fresh browser against each library; the results keyed by library. */
async function onBoth<T>(scenario: (browser: Browser) => Promise<T>, make: () => Browser = () => new Browser()): Promise<Record<Server, T>> {
  return {
    gatehouse: await scenario(make().on("gatehouse")),
    authjs: await scenario(make().on("authjs")),
  }
}

function setCookieNames(response: Response): string[] {
  return response.headers.getSetCookie().map((line) => line.slice(0, line.indexOf("=")))
}

function setCookieLine(response: Response, name: string): string {
  const line = response.headers.getSetCookie().find((l) => l.startsWith(`${name}=`))
  if (!line) throw new Error(`no Set-Cookie for ${name} in ${JSON.stringify(response.headers.getSetCookie())}`)
  return line
}

/** A Set-Cookie line without its value and Expires date: the name, then every attribute in order. */
function attributesOf(line: string): string[] {
  const [pair, ...attributes] = line.split("; ")
  return [pair!.slice(0, pair!.indexOf("=")), ...attributes.map((a) => (a.startsWith("Expires=") ? "Expires=<date>" : a))]
}

function expiresOf(line: string): number {
  const match = /; Expires=([^;]+)/.exec(line)
  if (!match) throw new Error(`no Expires in ${line}`)
  return Date.parse(match[1]!)
}

/** What a client can observe of an answer, apart from cookie values and times. */
async function observable(response: Response) {
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    location: response.headers.get("location"),
    cacheControl: response.headers.get("cache-control"),
    expires: response.headers.get("expires"),
    pragma: response.headers.get("pragma"),
    setCookies: setCookieNames(response),
    body: await response.text(),
  }
}

afterEach(() => {
  vi.useRealTimers()
})

function other(server: Server): Server {
  return server === "gatehouse" ? "authjs" : "gatehouse"
}

describe.each(SECRETS)("sessions across Gatehouse and Auth.js with %s", (_, secret) => {
  it.each(SERVERS)("a session cookie issued by a credentials sign-in on %s is read by the other library", async (issuer) => {
    const browser = new Browser(secret).on(issuer)
    const signIn = await browser.signIn()
    expect(signIn.status).toBe(302)
    expect(signIn.headers.get("location")).toBe(HTTPS)
    expect(browser.jar.get(SESSION)).toMatch(/^eyJ/)

    const session = await browser.on(other(issuer)).session()
    expect(session).toEqual({
      user: { name: ada.name, email: ada.email, image: ada.image },
      expires: expect.any(String),
    })
  })

  it.each(SERVERS)("a session cookie re-issued by GET session on %s is still read by the other library", async (issuer) => {
    const browser = new Browser(secret).on(issuer)
    await browser.signIn()
    const first = browser.jar.get(SESSION)

    // Auth.js writes the cookie on every read, Gatehouse once the token is older than updateAge.
    moveClockOn()
    const refresh = await browser.get("session")
    expect(await refresh.json()).toMatchObject({ user: { name: ada.name, email: ada.email } })
    expect(setCookieNames(refresh)).toContain(SESSION)
    expect(browser.jar.get(SESSION)).not.toBe(first)

    expect(await browser.on(other(issuer)).session()).toMatchObject({ user: { name: ada.name, email: ada.email } })
  })

  it.each(SERVERS)("the other library signs out a session %s issued, and neither reads it afterwards", async (issuer) => {
    const browser = new Browser(secret).on(issuer)
    await browser.signIn()
    const verifier = other(issuer)
    browser.on(verifier)
    const signOut = await browser.postForm("signout", { csrfToken: await browser.csrfToken() })
    expect(signOut.status).toBe(302)
    expect(setCookieLine(signOut, SESSION)).toMatch(/; Max-Age=0;/)
    expect(browser.jar.get(SESSION)).toBeUndefined()
    expect(await browser.on(issuer).session()).toBeNull()
  })
})

describe("chunked session cookies across Gatehouse and Auth.js", () => {
  /** Both libraries with a jwt callback that adds the same ~7 KB claim, so the token needs three chunks. */
  function bigClaimBrowser(): Browser {
    const big = "x".repeat(16) + "0123456789abcdef".repeat(7_000 / 16)
    const callbacks = { jwt: ({ token }: { token: Record<string, unknown> }) => ({ ...token, big }) }
    return new Browser(stringSecret, HTTPS, {
      gatehouse: gatehouseConfig(stringSecret, { callbacks: callbacks as AuthConfig["callbacks"] }),
      authjs: authjsConfig(stringSecret, { callbacks: callbacks as AuthJsConfig["callbacks"] }),
    })
  }

  it.each(SERVERS)("a session chunked by %s is read by the other library", async (issuer) => {
    const browser = bigClaimBrowser().on(issuer)
    const signIn = await browser.signIn()
    expect(setCookieNames(signIn)).toEqual([`${SESSION}.0`, `${SESSION}.1`, `${SESSION}.2`])
    expect(await browser.on(other(issuer)).session()).toMatchObject({ user: { name: ada.name, email: ada.email } })
  })

  it("both split the same token length at the same boundaries with the same attributes", async () => {
    const chunks = await onBoth(
      async (browser) =>
        (await browser.signIn()).headers.getSetCookie().map((line) => ({
          attributes: attributesOf(line),
          length: line.slice(line.indexOf("=") + 1, line.indexOf(";")).length,
        })),
      bigClaimBrowser,
    )
    expect(chunks.gatehouse.map((c) => c.attributes)).toEqual(chunks.authjs.map((c) => c.attributes))
    expect(chunks.gatehouse.map((c) => c.length).slice(0, 2)).toEqual([3936, 3936])
    expect(chunks.authjs.map((c) => c.length).slice(0, 2)).toEqual([3936, 3936])
  })

  it("shrinking a chunked session emits the same deletions then the plain cookie in both", async () => {
    const dropBig = { jwt: ({ token }: { token: Record<string, unknown> }) => ({ ...token, big: undefined }) }
    const shrinking = () =>
      new Browser(stringSecret, HTTPS, {
        gatehouse: gatehouseConfig(stringSecret, { callbacks: dropBig as AuthConfig["callbacks"] }),
        authjs: authjsConfig(stringSecret, { callbacks: dropBig as AuthJsConfig["callbacks"] }),
      })
    const answers = await onBoth(async (browser) => {
      const chunked = bigClaimBrowser().on(browser.server)
      await chunked.signIn()
      // The same jar, now served by a configuration whose jwt callback drops the big claim.
      for (const [name, value] of chunked.jar.cookies) browser.jar.cookies.set(name, value)
      const response = await browser.get("session")
      return response.headers.getSetCookie().filter((l) => l.startsWith(SESSION)).map(attributesOf)
    }, shrinking)
    expect(answers.gatehouse).toEqual(answers.authjs)
    expect(answers.gatehouse.map((a) => [a[0], a[1]])).toEqual([
      [`${SESSION}.0`, "Max-Age=0"],
      [`${SESSION}.1`, "Max-Age=0"],
      [`${SESSION}.2`, "Max-Age=0"],
      [SESSION, "Path=/"],
    ])
  })
})

describe.each(SECRETS)("CSRF cookies across Gatehouse and Auth.js with %s", (_, secret) => {
  it.each(SERVERS)("a CSRF token minted by %s validates a credentials sign-in on the other library", async (minter) => {
    const browser = new Browser(secret).on(minter)
    const csrfToken = await browser.csrfToken()
    const minted = browser.jar.get(CSRF)

    const response = await browser.on(other(minter)).postForm("callback/credentials", { csrfToken, ...GOOD })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(HTTPS)
    expect(setCookieNames(response)).toContain(SESSION)
    // Accepted as it is: the verifier did not replace it with one of its own.
    expect(setCookieNames(response)).not.toContain(CSRF)
    expect(browser.jar.get(CSRF)).toBe(minted)
  })

  it.each(SERVERS)("a CSRF token minted by %s validates a sign-out on the other library", async (minter) => {
    const browser = new Browser(secret).on(minter)
    await browser.signIn()
    const csrfToken = await browser.csrfToken()

    const response = await browser.on(other(minter)).postForm("signout", { csrfToken, callbackUrl: `${HTTPS}/goodbye` })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${HTTPS}/goodbye`)
    expect(setCookieNames(response)).not.toContain(CSRF)
    expect(browser.jar.get(SESSION)).toBeUndefined()
  })

  it.each(SERVERS)("a CSRF cookie %s minted with another secret is refused by the other library", async (minter) => {
    const browser = new Browser(secret, HTTPS, {
      gatehouse: gatehouseConfig(minter === "gatehouse" ? "a-different-secret-0123456789abcdef0123" : secret),
      authjs: authjsConfig(minter === "authjs" ? "a-different-secret-0123456789abcdef0123" : secret),
    }).on(minter)
    const csrfToken = await browser.csrfToken()

    const response = await browser.on(other(minter)).postForm("callback/credentials", { csrfToken, ...GOOD })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${HTTPS}/auth/signin?error=MissingCSRF`)
    expect(browser.jar.get(SESSION)).toBeUndefined()
  })
})

describe("an OAuth sign-in started on one library and finished on the other", () => {
  const CALLBACK = `${HTTPS}/auth/callback/github`
  let github: GitHubLikeServer
  beforeAll(async () => {
    github = await startGitHubLikeServer({ redirectUris: [CALLBACK] })
  })
  afterAll(() => github?.stop())

  /** The same GitHub-shaped provider for both libraries (PKCE only, their default). A fresh object: Auth.js mutates it. */
  const provider = () => githubLikeProvider(github)
  const oauthBrowser = () =>
    new Browser(stringSecret, HTTPS, {
      gatehouse: gatehouseConfig(stringSecret, { providers: [provider()] }),
      authjs: authjsConfig(stringSecret, { providers: [provider() as unknown as NonNullable<AuthJsConfig["providers"]>[number]] }),
    })

  /** POST signin/github, then the provider's (automatic) approval; returns the callback's path and query under /auth. */
  async function untilCallback(browser: Browser): Promise<{ route: string; authorize: URL }> {
    const started = await browser.postForm("signin/github", { csrfToken: await browser.csrfToken(), callbackUrl: `${HTTPS}/dashboard` })
    expect(started.status).toBe(302)
    const authorize = new URL(started.headers.get("location")!)
    const approved = await fetch(authorize, { redirect: "manual" })
    const back = new URL(approved.headers.get("location")!)
    expect(back.origin + back.pathname).toBe(CALLBACK)
    return { route: `callback/github${back.search}`, authorize }
  }

  it("a sign-in started on Gatehouse (PKCE and state) finishes on Auth.js, which checks the PKCE verifier and ignores the state", async () => {
    const browser = oauthBrowser().on("gatehouse")
    const { route, authorize } = await untilCallback(browser)
    expect(authorize.searchParams.has("state")).toBe(true)
    const finished = await browser.on("authjs").get(route)
    expect(finished.status).toBe(302)
    expect(finished.headers.get("location")).toBe(`${HTTPS}/dashboard`)
    expect(await browser.session()).toMatchObject({ user: { name: "The Octocat" } })
    expect(await browser.on("gatehouse").session()).toMatchObject({ user: { name: "The Octocat" } })
  })

  it("a sign-in started on Auth.js (PKCE only, no state cookie) fails Gatehouse's state check once; the next one, started on Gatehouse, finishes", async () => {
    const browser = oauthBrowser().on("authjs")
    const { route, authorize } = await untilCallback(browser)
    expect(authorize.searchParams.has("state")).toBe(false)
    const refused = await browser.on("gatehouse").get(route)
    expect(refused.headers.get("location")).toBe(`${HTTPS}/auth/error?error=InvalidCheck`)
    expect(browser.jar.get("__Secure-authjs.pkce.code_verifier")).toBeUndefined()
    expect(await browser.session()).toBeNull()

    const again = await untilCallback(browser)
    expect((await browser.get(again.route)).headers.get("location")).toBe(`${HTTPS}/dashboard`)
    expect(await browser.session()).toMatchObject({ user: { name: "The Octocat" } })
  })
})

describe("cookie names and attributes match Auth.js", () => {
  it("over http both use the unprefixed cookie names", async () => {
    const names = await onBoth(
      async (browser) => {
        const csrf = await browser.get("csrf")
        const signIn = await browser.signIn()
        return { csrf: setCookieNames(csrf), signIn: setCookieNames(signIn) }
      },
      () => new Browser(stringSecret, HTTP),
    )
    expect(names.gatehouse).toEqual(names.authjs)
    expect(names.gatehouse).toEqual({ csrf: ["authjs.csrf-token", "authjs.callback-url"], signIn: ["authjs.session-token"] })
  })

  it("over https both use the __Host-/__Secure- prefixed cookie names", async () => {
    const names = await onBoth(async (browser) => {
      const csrf = await browser.get("csrf")
      const signIn = await browser.signIn()
      return { csrf: setCookieNames(csrf), signIn: setCookieNames(signIn) }
    })
    expect(names.gatehouse).toEqual(names.authjs)
    expect(names.gatehouse).toEqual({ csrf: [CSRF, "__Secure-authjs.callback-url"], signIn: [SESSION] })
  })

  it.each([HTTPS, HTTP])("the CSRF and callback-url cookies have the same attributes in the same order (%s)", async (at) => {
    const lines = await onBoth(
      async (browser) => {
        const csrf = await browser.get("csrf")
        return csrf.headers.getSetCookie().map(attributesOf)
      },
      () => new Browser(stringSecret, at),
    )
    expect(lines.gatehouse).toEqual(lines.authjs)
  })

  it.each([HTTPS, HTTP])("the session cookie set at sign-in has the same attributes in the same order (%s)", async (at) => {
    const name = at === HTTPS ? SESSION : "authjs.session-token"
    const lines = await onBoth(
      async (browser) => setCookieLine(await browser.signIn(), name),
      () => new Browser(stringSecret, at),
    )
    expect(attributesOf(lines.gatehouse)).toEqual(attributesOf(lines.authjs))
    expect(Math.abs(expiresOf(lines.gatehouse) - expiresOf(lines.authjs))).toBeLessThan(60_000)
    expect(Math.abs(expiresOf(lines.gatehouse) - (Date.now() + THIRTY_DAYS_MS))).toBeLessThan(60_000)
  })

  it("the session cookie re-issued by GET session has the same attributes in the same order", async () => {
    const lines = await onBoth(async (browser) => {
      await browser.signIn()
      moveClockOn()
      const line = setCookieLine(await browser.get("session"), SESSION)
      vi.useRealTimers()
      return line
    })
    expect(attributesOf(lines.gatehouse)).toEqual(attributesOf(lines.authjs))
    expect(Math.abs(expiresOf(lines.gatehouse) - expiresOf(lines.authjs))).toBeLessThan(60_000)
  })

  it("the session cookie deleted at sign-out has the same attributes in the same order", async () => {
    const lines = await onBoth(async (browser) => {
      await browser.signIn()
      return setCookieLine(await browser.postForm("signout", { csrfToken: await browser.csrfToken() }), SESSION)
    })
    expect(attributesOf(lines.gatehouse)).toEqual(attributesOf(lines.authjs))
    expect(lines.gatehouse).toBe(`${SESSION}=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax`)
  })

  it("a session cookie that does not decode is deleted by both, with the same line", async () => {
    const answers = await onBoth(async (browser) => {
      browser.jar.cookies.set(SESSION, "not-a-token")
      const response = await browser.get("session")
      return { lines: response.headers.getSetCookie().filter((l) => l.startsWith(SESSION)), body: await response.json() }
    })
    expect(answers.gatehouse).toEqual(answers.authjs)
    expect(answers.gatehouse).toEqual({
      lines: [`${SESSION}=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax`],
      body: null,
    })
  })

  it("a whole session cookie beside a non-empty chunk: both answer no session; Gatehouse deletes neither (a deletion reaches only the genuine host-only half)", async () => {
    const answers = await onBoth(async (browser) => {
      browser.jar.cookies.set(SESSION, "not-a-token")
      browser.jar.cookies.set(`${SESSION}.3`, "planted")
      const response = await browser.get("session")
      return { lines: response.headers.getSetCookie().filter((l) => l.startsWith(SESSION)), body: await response.json() }
    })
    expect(answers.authjs.body).toBeNull()
    expect(answers.authjs.lines).toHaveLength(2)
    expect(answers.gatehouse).toEqual({ lines: [], body: null })
  })
})

describe("JSON answers match Auth.js", () => {
  it("GET providers answers the same JSON", async () => {
    const answers = await onBoth(async (browser) => {
      // Cookies left out: Gatehouse also sends the new CSRF and callback-url cookies here, Auth.js sends none.
      const { setCookies: _cookies, ...rest } = await observable(await browser.get("providers"))
      return rest
    })
    expect(answers.gatehouse).toEqual(answers.authjs)
    expect(JSON.parse(answers.gatehouse.body)).toEqual({
      credentials: {
        id: "credentials",
        name: "Credentials",
        type: "credentials",
        signinUrl: `${HTTPS}/auth/signin/credentials`,
        callbackUrl: `${HTTPS}/auth/callback/credentials`,
      },
    })
  })

  it("GET csrf answers a 64-hex token with the same no-cache headers and cookies", async () => {
    const answers = await onBoth(async (browser) => {
      const { body, ...rest } = await observable(await browser.get("csrf"))
      return { ...rest, body: JSON.parse(body) as unknown }
    })
    const { body: ours, ...oursRest } = answers.gatehouse
    const { body: theirs, ...theirsRest } = answers.authjs
    expect(oursRest).toEqual(theirsRest)
    expect(oursRest).toMatchObject({ status: 200, cacheControl: "private, no-cache, no-store", expires: "0", pragma: "no-cache" })
    expect(ours).toEqual({ csrfToken: expect.stringMatching(/^[0-9a-f]{64}$/) })
    expect(theirs).toEqual({ csrfToken: expect.stringMatching(/^[0-9a-f]{64}$/) })
  })

  it("GET session without a cookie answers null with the same headers; Gatehouse mints no CSRF or callback-url cookie on a read", async () => {
    const answers = await onBoth(async (browser) => observable(await browser.get("session")))
    const { setCookies: ourCookies, ...ours } = answers.gatehouse
    const { setCookies: theirCookies, ...theirs } = answers.authjs
    expect(ours).toEqual(theirs)
    expect(ours).toMatchObject({ status: 200, body: "null", cacheControl: "private, no-cache, no-store" })
    expect(theirCookies).toEqual([CSRF, "__Secure-authjs.callback-url"])
    expect(ourCookies).toEqual([])
  })

  it("GET session of a signed-in user answers the same shape and headers", async () => {
    const answers = await onBoth(async (browser) => {
      await browser.signIn()
      const { body, ...rest } = await observable(await browser.get("session"))
      return { ...rest, body: JSON.parse(body) as { expires: string } }
    })
    const { expires: ourExpires, ...ours } = answers.gatehouse.body
    const { expires: theirExpires, ...theirs } = answers.authjs.body
    // Auth.js writes the session cookie again on every read; Gatehouse not while it is fresh.
    expect(answers.authjs.setCookies).toEqual([SESSION])
    expect(answers.gatehouse.setCookies).toEqual([])
    expect({ ...answers.gatehouse, body: ours, setCookies: [] }).toEqual({ ...answers.authjs, body: theirs, setCookies: [] })
    expect(ours).toEqual({ user: { name: ada.name, email: ada.email, image: ada.image } })
    expect(Math.abs(Date.parse(ourExpires) - Date.parse(theirExpires))).toBeLessThan(60_000)
    expect(ourExpires).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
  })

  it("POST session without a CSRF token answers 400 null", async () => {
    const answers = await onBoth(async (browser) => {
      await browser.signIn()
      return observable(await browser.postJson("session", { data: { name: "Eve" } }))
    })
    expect(answers.gatehouse).toEqual(answers.authjs)
    expect(answers.gatehouse).toMatchObject({ status: 400, body: "null", setCookies: [] })
  })

  it.each([
    ["GET", "nope"],
    ["POST", "nope"],
    ["PUT", "session"],
    ["DELETE", "session"],
    ["GET", "session/extra/segment"],
    ["GET", ""],
  ])('%s /auth/%s answers 400 "Bad request." like Auth.js', async (method, path) => {
    const answers = await onBoth(async (browser) =>
      observable(await browser.send(new Request(`${HTTPS}/auth${path ? `/${path}` : ""}`, { method }))),
    )
    expect(answers.gatehouse).toEqual(answers.authjs)
    expect(answers.gatehouse).toMatchObject({ status: 400, contentType: "application/json", body: '"Bad request."', setCookies: [] })
  })

  it("POST to a GET-only action redirects to the error page; Gatehouse names it UnknownAction where Auth.js says Configuration", async () => {
    const answers = await onBoth(async (browser) => observable(await browser.postForm("providers", {})))
    expect(answers.authjs).toMatchObject({ status: 302, location: `${HTTPS}/auth/error?error=Configuration`, setCookies: [] })
    expect(answers.gatehouse).toEqual({ ...answers.authjs, location: `${HTTPS}/auth/error?error=UnknownAction` })
  })

  it("a failed credentials sign-in redirects to the sign-in page with error=CredentialsSignin&code=credentials; Gatehouse keeps the user name typed in a cookie, not the URL", async () => {
    const answers = await onBoth(async (browser) => observable(await browser.signIn({ username: "ada", password: "wrong" })))
    expect(answers.authjs).toMatchObject({
      status: 302,
      location: `${HTTPS}/auth/signin?error=CredentialsSignin&code=credentials`,
      setCookies: [],
    })
    // So the built-in page can show it again; clients reading the URL see no difference.
    expect(answers.gatehouse).toEqual({ ...answers.authjs, setCookies: ["__Secure-authjs.sign-in-identifier"] })
  })

  it("a sign-in without a CSRF token redirects with error=MissingCSRF like Auth.js", async () => {
    const answers = await onBoth(async (browser) => observable(await browser.postForm("callback/credentials", GOOD)))
    expect(answers.gatehouse).toEqual(answers.authjs)
    expect(answers.gatehouse).toMatchObject({ status: 302, location: `${HTTPS}/auth/signin?error=MissingCSRF`, setCookies: [] })
  })

  describe("X-Auth-Return-Redirect", () => {
    const returnRedirect = { "X-Auth-Return-Redirect": "1" }

    it("a successful sign-in answers 200 {url} and keeps Location and the session cookie", async () => {
      const answers = await onBoth(async (browser) =>
        observable(await browser.postForm("callback/credentials", { csrfToken: await browser.csrfToken(), ...GOOD }, returnRedirect)),
      )
      expect(answers.gatehouse).toEqual(answers.authjs)
      expect(answers.gatehouse).toMatchObject({
        status: 200,
        contentType: "application/json",
        location: HTTPS,
        setCookies: [SESSION],
        body: JSON.stringify({ url: HTTPS }),
      })
    })

    it("a failed credentials sign-in answers 200 {url} of the sign-in page, the same URL; Gatehouse keeps the user name typed in a cookie", async () => {
      const answers = await onBoth(async (browser) =>
        observable(
          await browser.postForm("callback/credentials", { csrfToken: await browser.csrfToken(), username: "ada", password: "wrong" }, returnRedirect),
        ),
      )
      expect(answers.authjs).toMatchObject({
        status: 200,
        location: null,
        setCookies: [],
        body: JSON.stringify({ url: `${HTTPS}/auth/signin?error=CredentialsSignin&code=credentials` }),
      })
      expect(answers.gatehouse).toEqual({ ...answers.authjs, setCookies: ["__Secure-authjs.sign-in-identifier"] })
    })

    it("a sign-out answers 200 {url} with the deletion cookie", async () => {
      const answers = await onBoth(async (browser) => {
        await browser.signIn()
        return observable(await browser.postForm("signout", { csrfToken: await browser.csrfToken() }, returnRedirect))
      })
      expect(answers.gatehouse).toEqual(answers.authjs)
      expect(answers.gatehouse).toMatchObject({ status: 200, location: HTTPS, setCookies: [SESSION], body: JSON.stringify({ url: HTTPS }) })
    })

    it("a sign-out without a CSRF token answers 200 {url} with error=MissingCSRF", async () => {
      const answers = await onBoth(async (browser) => {
        await browser.signIn()
        return observable(await browser.postForm("signout", {}, returnRedirect))
      })
      expect(answers.gatehouse).toEqual(answers.authjs)
      expect(answers.gatehouse).toMatchObject({ status: 200, setCookies: [], body: JSON.stringify({ url: `${HTTPS}/auth/signin?error=MissingCSRF` }) })
    })
  })
})

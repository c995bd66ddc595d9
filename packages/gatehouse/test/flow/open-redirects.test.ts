/**
 * Open redirects: hostile `callbackUrl` values sent through every route that redirects to a
 * callback URL or writes one into a page or a cookie. Whatever comes in, what goes out must stay
 * on the application's origin, never be a path starting with `//`, and never carry CR/LF.
 */
import { describe, expect, it } from "vitest"
import { Auth } from "../../src/core/handler.js"
import type { AuthConfig } from "../../src/types.js"
import { Client, ada, credentialsConfig, origin } from "./flow-helpers.js"

const SECURE_CALLBACK_COOKIE = "__Secure-authjs.callback-url"
const PLAIN_CALLBACK_COOKIE = "authjs.callback-url"
const SECURE_SESSION_COOKIE = "__Secure-authjs.session-token"

/** Callback URLs that must never take the browser (or a later reader of the value) off-site. */
const hostile: readonly string[] = [
  // protocol-relative and slash/backslash confusions
  "//evil.test",
  "///evil.test",
  "////evil.test",
  "//evil.test/",
  "//evil.test/%2e%2e",
  "//evil.test:443/x",
  "/\\evil.test",
  "\\\\evil.test",
  "\\/evil.test",
  "/\\/evil.test",
  "/.//evil.test",
  "/./\\evil.test",
  "/%2F/evil.test/../..//evil.test",
  "/a/../..//evil.test",
  "https://app.test//evil.test",
  "https://app.test/../..//evil.test",
  // absolute URLs on other origins
  "https://evil.test",
  "https://evil.test/",
  "HTTPS://EVIL.TEST",
  "https://app.test@evil.test",
  "https://app.test:pw@evil.test/",
  "https://app.test.evil.test",
  "https://evil.test#@app.test",
  "https://evil.test?@app.test",
  "https://evil.test\\@app.test",
  "https:evil.test",
  "https:/evil.test",
  "https:\\\\evil.test",
  "http://evil.test",
  "http://app.test/",
  "https://app.test:444/",
  "https://app.test:8443/x",
  "https://evil\u3002test",
  "https://evil\uff0etest",
  "https://[::1]/",
  "https://127.0.0.1/",
  "http://[::1",
  // other schemes
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "java\tscript:alert(1)",
  "java\nscript:alert(1)",
  " javascript:alert(1)",
  "javascript://app.test/%0aalert(1)",
  "data:text/html,<script>alert(1)</script>",
  "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
  "vbscript:msgbox(1)",
  "ftp://evil.test",
  "mailto:x@evil.test",
  "blob:https://evil.test/x",
  "file:///etc/passwd",
  // percent-encoded and double-encoded slashes
  "%2F%2Fevil.test",
  "%2f%2fevil.test",
  "/%2F%2Fevil.test",
  "/%5Cevil.test",
  "%5C%5Cevil.test",
  "%252F%252Fevil.test",
  "/%252F%252Fevil.test",
  "https%3A%2F%2Fevil.test",
  "%68ttps://evil.test",
  // control characters and whitespace
  "/\t/evil.test",
  "/\n/evil.test",
  "/\r/evil.test",
  "/\r\n/evil.test",
  "\t//evil.test",
  " //evil.test",
  "\u0000//evil.test",
  "//evil.test%0d%0aSet-Cookie:x=y",
  "/%0d%0aSet-Cookie:x=y",
  "/\r\nSet-Cookie:x=y",
  "https://evil.test/\r\nLocation: https://evil.test",
  // unicode look-alikes
  "\uff0f\uff0fevil.test",
  "/\uff0fevil.test",
  "\u2215\u2215evil.test",
  // size
  `https://evil.test/${"a".repeat(10_000)}`,
  `//evil.test/${"a".repeat(10_000)}`,
]

/** A short, printable test title for a hostile value. */
function show(value: string): string {
  const json = JSON.stringify(value)
  return json.length > 70 ? `${json.slice(0, 60)}…(${value.length} chars)` : json
}

/**
 * The three properties every URL the handler hands out must have: no CR/LF in the raw string,
 * the application's origin, and a path that does not start with `//`.
 */
function expectOnOrigin(value: string | null | undefined, where: string, appOrigin = origin): void {
  expect(typeof value, `${where}: missing`).toBe("string")
  const raw = value as string
  expect(/[\r\n]/.test(raw), `${where} contains CR/LF: ${JSON.stringify(raw.slice(0, 200))}`).toBe(false)
  const url = new URL(raw, appOrigin)
  expect(url.origin, `${where} = ${JSON.stringify(raw.slice(0, 200))}`).toBe(appOrigin)
  expect(url.pathname.startsWith("//"), `${where} path starts with //: ${JSON.stringify(raw.slice(0, 200))}`).toBe(false)
}

/** The decoded value of the cookie `name` the response sets, if it sets it. */
function setCookieValue(response: Response, name: string): string | undefined {
  for (const line of response.headers.getSetCookie()) {
    expect(/[\r\n]/.test(line)).toBe(false)
    const [pair] = line.split(";")
    const eq = pair!.indexOf("=")
    if (pair!.slice(0, eq) === name) return decodeURIComponent(pair!.slice(eq + 1))
  }
  return undefined
}

/** Every callback-url cookie the response sets, if any, is on the origin. */
function expectCallbackCookieOnOrigin(response: Response, name = SECURE_CALLBACK_COOKIE, appOrigin = origin): void {
  const value = setCookieValue(response, name)
  if (value !== undefined) expectOnOrigin(value, `Set-Cookie ${name}`, appOrigin)
}

const entities: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" }

/** The values of the hidden `callbackUrl` inputs of a page, HTML-unescaped. */
function hiddenCallbackUrls(html: string): string[] {
  const values = [...html.matchAll(/<input type="hidden" name="callbackUrl" value="([^"]*)">/g)].map((match) =>
    match[1]!.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => entities[entity]!),
  )
  return values
}

/** A redirect status (302) or a page (200), never a server error. */
function expectCleanStatus(response: Response, allowed: number[]): void {
  expect(allowed, `status ${response.status}`).toContain(response.status)
}

/** The sign-in page as a browser gets it: one hidden `callbackUrl` per form, all on the origin. */
async function expectSignInPageOnOrigin(response: Response, appOrigin = origin): Promise<void> {
  expectCleanStatus(response, [200])
  const html = await response.text()
  const values = hiddenCallbackUrls(html)
  expect(values.length).toBeGreaterThan(0)
  for (const value of values) expectOnOrigin(value, "hidden callbackUrl input", appOrigin)
}

function withCallbackUrl(path: string, callbackUrl: string): string {
  return `${path}?${new URLSearchParams({ callbackUrl })}`
}

const credentials = { username: "ada", password: "correct horse" }

for (const value of hostile) {
  describe(`hostile callbackUrl ${show(value)}`, () => {
    it("GET signin renders an on-origin hidden callbackUrl and callback-url cookie", async () => {
      const client = new Client(credentialsConfig())
      const response = await client.get(withCallbackUrl("signin", value))
      expectCallbackCookieOnOrigin(response)
      await expectSignInPageOnOrigin(response)
    })

    it("GET signin with pages.signIn redirects with an on-origin callbackUrl parameter", async () => {
      const client = new Client(credentialsConfig({ pages: { signIn: "/login" } }))
      const response = await client.get(withCallbackUrl("signin", value))
      expectCleanStatus(response, [302])
      const location = response.headers.get("Location")
      expectOnOrigin(location, "Location")
      const url = new URL(location!, origin)
      expect(url.pathname).toBe("/login")
      expectOnOrigin(url.searchParams.get("callbackUrl"), "Location callbackUrl parameter")
      expectCallbackCookieOnOrigin(response)
    })

    it("GET signout sets only an on-origin callback-url cookie", async () => {
      const client = new Client(credentialsConfig())
      const response = await client.get(withCallbackUrl("signout", value))
      expectCleanStatus(response, [200])
      expectCallbackCookieOnOrigin(response)
    })

    it("POST signout with the body callbackUrl redirects on-origin", async () => {
      const client = new Client(credentialsConfig())
      await client.signIn()
      const response = await client.postForm("signout", { csrfToken: await client.csrfToken(), callbackUrl: value })
      expectCleanStatus(response, [302])
      expectOnOrigin(response.headers.get("Location"), "Location")
      expectCallbackCookieOnOrigin(response)
      expect(client.jar.get(SECURE_SESSION_COOKIE)).toBeUndefined()
    })

    it("POST signout with the callbackUrl in a JSON body and X-Auth-Return-Redirect answers an on-origin url", async () => {
      const client = new Client(credentialsConfig())
      const response = await client.postJson(
        "signout",
        { csrfToken: await client.csrfToken(), callbackUrl: value },
        { "X-Auth-Return-Redirect": "1" },
      )
      expectCleanStatus(response, [200])
      const { url } = (await response.json()) as { url: string }
      expectOnOrigin(url, "JSON url")
      expectOnOrigin(response.headers.get("Location"), "Location")
      expectCallbackCookieOnOrigin(response)
    })

    it("POST signout with the callbackUrl in the query redirects on-origin", async () => {
      const client = new Client(credentialsConfig())
      const response = await client.postForm(withCallbackUrl("signout", value), { csrfToken: await client.csrfToken() })
      expectCleanStatus(response, [302])
      expectOnOrigin(response.headers.get("Location"), "Location")
      expectCallbackCookieOnOrigin(response)
    })

    it("POST callback/credentials signs in and redirects on-origin", async () => {
      const client = new Client(credentialsConfig())
      const response = await client.signIn({ ...credentials, callbackUrl: value })
      expectCleanStatus(response, [302])
      expectOnOrigin(response.headers.get("Location"), "Location")
      expectCallbackCookieOnOrigin(response)
      expect(client.jar.get(SECURE_SESSION_COOKIE)).toBeTruthy()
    })

    it("a hostile callback-url cookie is not followed by GET signin, POST signout or POST callback/credentials", async () => {
      const client = new Client(credentialsConfig())
      const plant = () => client.jar.cookies.set(SECURE_CALLBACK_COOKIE, encodeURIComponent(value))

      // Fetch the token first: every request resolves (and rewrites) the callback-url cookie.
      const token = await client.csrfToken()
      plant()
      const page = await client.get("signin")
      expectCallbackCookieOnOrigin(page)
      await expectSignInPageOnOrigin(page)

      plant()
      const signedIn = await client.postForm("callback/credentials", { csrfToken: token, ...credentials })
      expectCleanStatus(signedIn, [302])
      expectOnOrigin(signedIn.headers.get("Location"), "Location after sign-in")
      expectCallbackCookieOnOrigin(signedIn)
      expect(client.jar.get(SECURE_SESSION_COOKIE)).toBeTruthy()

      plant()
      const signedOut = await client.postForm("signout", { csrfToken: token })
      expectCleanStatus(signedOut, [302])
      expectOnOrigin(signedOut.headers.get("Location"), "Location after sign-out")
      expectCallbackCookieOnOrigin(signedOut)
    })

    it("a hostile callback-url cookie sent unencoded is not followed either", async () => {
      // Only values a Cookie header can carry as they are.
      if (!/^[\x21-\x3a\x3c-\x7e]+$/.test(value)) return
      const client = new Client(credentialsConfig())
      const token = await client.csrfToken()
      client.jar.cookies.set(SECURE_CALLBACK_COOKIE, value)
      const signedOut = await client.postForm("signout", { csrfToken: token })
      expectCleanStatus(signedOut, [302])
      expectOnOrigin(signedOut.headers.get("Location"), "Location")
      expectCallbackCookieOnOrigin(signedOut)
    })

    it("a signIn callback returning it redirects on-origin without signing in", async () => {
      const client = new Client(credentialsConfig({ callbacks: { signIn: () => value } }))
      const response = await client.signIn()
      expectCleanStatus(response, [302])
      expectOnOrigin(response.headers.get("Location"), "Location")
      expectCallbackCookieOnOrigin(response)
      expect(client.jar.get(SECURE_SESSION_COOKIE)).toBeUndefined()
    })

    it("on a plain-http app, the authjs.callback-url cookie and query stay on the http origin", async () => {
      const httpOrigin = "http://app.test"
      const config = credentialsConfig()
      const cookie = `${PLAIN_CALLBACK_COOKIE}=${encodeURIComponent(value)}`

      const page = await Auth(new Request(`${httpOrigin}/auth/signin`, { headers: { cookie } }), config as Omit<AuthConfig, "raw">)
      expectCallbackCookieOnOrigin(page, PLAIN_CALLBACK_COOKIE, httpOrigin)
      await expectSignInPageOnOrigin(page, httpOrigin)

      const fromQuery = await Auth(new Request(`${httpOrigin}/${withCallbackUrl("auth/signin", value)}`), config as Omit<AuthConfig, "raw">)
      expectCallbackCookieOnOrigin(fromQuery, PLAIN_CALLBACK_COOKIE, httpOrigin)
      await expectSignInPageOnOrigin(fromQuery, httpOrigin)
    })
  })
}

describe("callback URLs the default redirect callback hands out", () => {
  // Stricter than "resolves on the origin": a stored or returned callback URL is read again later
  // (by this library, by Auth.js sharing the cookie, by client code doing `new URL(url)`), so an
  // absolute-looking value must name the origin when parsed on its own, without a base.
  it.each(["https:evil.test", "https:/evil.test", "https:\\\\evil.test", "HTTPS:evil.test"])(
    "never returns %j, which reads as another host without a base URL",
    async (value) => {
      const client = new Client(credentialsConfig())
      const response = await client.signIn({ ...credentials, callbackUrl: value })
      expect(response.status).toBe(302)
      for (const out of [response.headers.get("Location")!, setCookieValue(response, SECURE_CALLBACK_COOKIE)!]) {
        const standalone = /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(out) ? new URL(out) : new URL(out, origin)
        expect(standalone.origin, JSON.stringify(out)).toBe(origin)
      }
    },
  )
})

describe("legitimate callback URLs are kept", () => {
  it.each([
    ["/dashboard?x=1#y", `${origin}/dashboard?x=1#y`],
    [`${origin}/a`, `${origin}/a`],
    [`${origin}/a/b?c=d&e=f#g`, `${origin}/a/b?c=d&e=f#g`],
    ["/", `${origin}/`],
  ])("%j through sign-in, sign-out, the sign-in page and the cookie", async (value, expected) => {
    const client = new Client(credentialsConfig())

    const page = await client.get(withCallbackUrl("signin", value))
    expect(page.status).toBe(200)
    expect(hiddenCallbackUrls(await page.text())).toContain(expected)
    expect(client.jar.get(SECURE_CALLBACK_COOKIE)).toBe(expected)

    const signedIn = await client.signIn({ ...credentials, callbackUrl: value })
    expect(signedIn.status).toBe(302)
    expect(signedIn.headers.get("Location")).toBe(expected)
    expect(await client.session()).toMatchObject({ user: { name: ada.name, email: ada.email } })

    // The cookie remembers it: a sign-out without a callbackUrl goes back there.
    const signedOut = await client.postForm("signout", { csrfToken: await client.csrfToken() })
    expect(signedOut.status).toBe(302)
    expect(signedOut.headers.get("Location")).toBe(expected)
  })

  it("follows a same-origin callback-url cookie planted the way the hostile cases plant theirs", async () => {
    const client = new Client(credentialsConfig())
    const token = await client.csrfToken()
    client.jar.cookies.set(SECURE_CALLBACK_COOKIE, encodeURIComponent(`${origin}/from-cookie?a=1`))
    const response = await client.postForm("signout", { csrfToken: token })
    expect(response.status).toBe(302)
    expect(response.headers.get("Location")).toBe(`${origin}/from-cookie?a=1`)
    // Unchanged, so not set again.
    expect(setCookieValue(response, SECURE_CALLBACK_COOKIE)).toBeUndefined()
  })

  it("keeps /dashboard?x=1#y through pages.signIn as the callbackUrl parameter", async () => {
    const client = new Client(credentialsConfig({ pages: { signIn: "/login" } }))
    const response = await client.get(withCallbackUrl("signin", "/dashboard?x=1#y"))
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get("Location")!, origin)
    expect(location.pathname).toBe("/login")
    expect(location.searchParams.get("callbackUrl")).toBe(`${origin}/dashboard?x=1#y`)
  })

  it("keeps a same-origin URL a signIn callback returns", async () => {
    const client = new Client(credentialsConfig({ callbacks: { signIn: () => "/welcome?first=1" } }))
    const response = await client.signIn()
    expect(response.status).toBe(302)
    expect(response.headers.get("Location")).toBe(`${origin}/welcome?first=1`)
  })

  it("falls back to the origin when no callbackUrl is given anywhere", async () => {
    const client = new Client(credentialsConfig())
    const response = await client.signIn()
    expect(response.headers.get("Location")).toBe(origin)
  })
})

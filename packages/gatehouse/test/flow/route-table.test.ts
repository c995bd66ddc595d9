import { describe, expect, it } from "vitest"
import { Auth } from "../../src/core/handler.js"
import type { AuthConfig } from "../../src/types.js"
import { base, Client, credentialsConfig, origin } from "./flow-helpers.js"

const auth = (request: Request, config: AuthConfig = credentialsConfig()) => Auth(request, config as Omit<AuthConfig, "raw">)
const noCache = { "cache-control": "private, no-cache, no-store", expires: "0", pragma: "no-cache" }

describe("the route table", () => {
  it("GET providers lists every provider with absolute sign-in and callback URLs", async () => {
    const response = await auth(new Request(`${base}/providers`))
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("application/json")
    expect(await response.json()).toEqual({
      credentials: {
        id: "credentials",
        name: "Credentials",
        type: "credentials",
        signinUrl: `${base}/signin/credentials`,
        callbackUrl: `${base}/callback/credentials`,
      },
    })
  })

  it("GET csrf returns the token with no-cache headers", async () => {
    const response = await auth(new Request(`${base}/csrf`))
    expect(response.status).toBe(200)
    expect(Object.fromEntries(["cache-control", "expires", "pragma"].map((h) => [h, response.headers.get(h)]))).toEqual(noCache)
    expect(await response.json()).toEqual({ csrfToken: expect.stringMatching(/^[0-9a-f]{64}$/) })
  })

  it("GET session without a cookie is 200 null with no-cache headers, and sets no cookie (no CSRF or callback-url minting on a session read)", async () => {
    const response = await auth(new Request(`${base}/session?callbackUrl=%2Fa`))
    expect(response.status).toBe(200)
    expect(await response.text()).toBe("null")
    expect(response.headers.get("cache-control")).toBe(noCache["cache-control"])
    expect(response.headers.getSetCookie()).toEqual([])
  })

  it("POST session with CSRF answers 200 JSON without the no-cache headers", async () => {
    const client = new Client(credentialsConfig())
    const response = await client.postJson("session", { csrfToken: await client.csrfToken() })
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("application/json")
    expect(response.headers.get("cache-control")).toBeNull()
    expect(await response.json()).toBeNull()
  })

  it("GET signin renders the sign-in page", async () => {
    const response = await auth(new Request(`${base}/signin`))
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("text/html")
    const html = await response.text()
    expect(html).toContain("<title>Sign in</title>")
    expect(html).toContain(`action="${base}/callback/credentials"`)
  })

  it("GET signin redirects to pages.signIn with callbackUrl and error", async () => {
    const response = await auth(new Request(`${base}/signin?error=SessionRequired&callbackUrl=%2Fa`), credentialsConfig({ pages: { signIn: "/login" } }))
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`/login?callbackUrl=${encodeURIComponent(`${origin}/a`)}&error=SessionRequired`)
  })

  it("GET signin/<provider> is unsupported: the request's own error, not Configuration", async () => {
    const response = await auth(new Request(`${base}/signin/credentials`))
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${base}/error?error=UnknownAction`)
  })

  it("POST signin without a provider goes to the sign-in page; with an unknown one it is InvalidProvider", async () => {
    const client = new Client(credentialsConfig())
    const token = await client.csrfToken()
    expect((await client.postForm("signin", { csrfToken: token })).headers.get("location")).toBe(`${base}/signin`)
    expect((await client.postForm("signin/nope", { csrfToken: token })).headers.get("location")).toBe(`${base}/error?error=InvalidProvider`)
  })

  it("GET/POST callback without a provider or with an unknown one is InvalidProvider", async () => {
    const client = new Client(credentialsConfig())
    const token = await client.csrfToken()
    for (const response of [
      await client.get("callback"),
      await client.get("callback/nope"),
      await client.postForm("callback/nope", { csrfToken: token }),
    ]) {
      expect(response.headers.get("location")).toBe(`${base}/error?error=InvalidProvider`)
    }
  })

  it("GET signout renders the confirmation page, or redirects to pages.signOut", async () => {
    const page = await auth(new Request(`${base}/signout`))
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain("<title>Sign out</title>")
    expect(html).toContain(`action="${base}/signout"`)
    const custom = await auth(new Request(`${base}/signout`), credentialsConfig({ pages: { signOut: "/bye" } }))
    expect(custom.headers.get("location")).toBe("/bye")
  })

  it("POST signout without a session redirects to the callback URL and clears nothing", async () => {
    const client = new Client(credentialsConfig())
    const response = await client.postForm("signout", { csrfToken: await client.csrfToken(), callbackUrl: "/later" })
    expect(response.headers.get("location")).toBe(`${origin}/later`)
    expect(response.headers.getSetCookie().some((c) => c.includes("session-token"))).toBe(false)
  })

  it("GET verify-request renders the page, or redirects to pages.verifyRequest keeping the query", async () => {
    const page = await auth(new Request(`${base}/verify-request?provider=email&type=email`))
    expect(page.status).toBe(200)
    expect(await page.text()).toContain("Check your email")
    const custom = await auth(new Request(`${base}/verify-request?provider=email&type=email`), credentialsConfig({ pages: { verifyRequest: "/check" } }))
    expect(custom.headers.get("location")).toBe("/check?provider=email&type=email")
  })

  it.each([
    ["Configuration", 500],
    ["AccessDenied", 403],
    ["Verification", 403],
    ["Default", 200],
    [undefined, 200],
  ])("GET error?error=%s renders with status %s", async (error, status) => {
    const response = await auth(new Request(`${base}/error${error ? `?error=${error}` : ""}`))
    expect(response.status).toBe(status)
    expect(await response.text()).toContain("<title>Error</title>")
  })

  it("GET error redirects to pages.error with the error encoded", async () => {
    const config = credentialsConfig({ pages: { error: "/oops" } })
    expect((await auth(new Request(`${base}/error?error=AccessDenied`), config)).headers.get("location")).toBe("/oops?error=AccessDenied")
    expect((await auth(new Request(`${base}/error?error=a%0d%0ab`), config)).headers.get("location")).toBe("/oops?error=a%0D%0Ab")
  })

  it("GET webauthn-options answers with a typed error until passkeys are available", async () => {
    const response = await auth(new Request(`${base}/webauthn-options/credentials`))
    expect(response.headers.get("location")).toBe(`${base}/error?error=InvalidProvider`)
  })

  it.each(["providers", "csrf", "error", "verify-request", "webauthn-options/credentials"])("POST %s is UnknownAction", async (path) => {
    const response = await auth(new Request(`${base}/${path}`, { method: "POST" }))
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${base}/error?error=UnknownAction`)
  })

  it.each(["PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"])("%s is 400 \"Bad request.\"", async (method) => {
    const response = await auth(new Request(`${base}/session`, { method }))
    expect(response.status).toBe(400)
    if (method !== "HEAD") expect(await response.text()).toBe('"Bad request."')
  })

  it("serves routes under a custom basePath and at the root", async () => {
    const nested = await auth(new Request(`${origin}/api/auth/session`), credentialsConfig({ basePath: "/api/auth" }))
    expect(nested.status).toBe(200)
    const root = await auth(new Request(`${origin}/providers`), credentialsConfig({ basePath: "/" }))
    expect(((await root.json()) as Record<string, { signinUrl: string }>).credentials!.signinUrl).toBe(`${origin}/signin/credentials`)
  })

  it("uses unprefixed, non-Secure cookies over http", async () => {
    const response = await auth(new Request("http://app.test/auth/csrf"))
    const cookies = response.headers.getSetCookie()
    expect(cookies.some((c) => c.startsWith("authjs.csrf-token=") && !c.includes("Secure"))).toBe(true)
  })
})

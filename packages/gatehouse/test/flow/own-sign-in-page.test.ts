/**
 * A refused sign-in posted from the app's own page (not the built-in one) comes back to that
 * page with its error, with and without `pages.signIn`; nothing else becomes a redirect target.
 */
import { describe, expect, it } from "vitest"
import { CredentialsSignin } from "../../src/errors.js"
import { Credentials } from "../../src/providers/credentials.js"
import { base, Client, credentialsConfig, origin } from "./flow-helpers.js"

const wrong = { username: "ada", password: "wrong" }

async function refusedFrom(referer: string | undefined, client = new Client(credentialsConfig()), headers: Record<string, string> = {}): Promise<Response> {
  const token = await client.csrfToken()
  return client.postForm("callback/credentials", { csrfToken: token, ...wrong }, { ...(referer && { referer }), ...headers })
}

describe("a failed sign-in from the app's own sign-in page", () => {
  it("goes back to that page with error and code, keeping its query, when no pages.signIn is set", async () => {
    const response = await refusedFrom(`${origin}/login?callbackUrl=%2Fdashboard`)
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${origin}/login?callbackUrl=%2Fdashboard&error=CredentialsSignin&code=credentials`)
    expect(response.headers.getSetCookie().some((cookie) => cookie.includes("session-token"))).toBe(false)
  })

  it("replaces the error of an earlier failure rather than adding a second", async () => {
    const response = await refusedFrom(`${origin}/login?error=CredentialsSignin&code=locked_out`)
    expect(response.headers.get("location")).toBe(`${origin}/login?error=CredentialsSignin&code=credentials`)
  })

  it("names a CredentialsSignin subclass's code there", async () => {
    class LockedOut extends CredentialsSignin {
      override code = "locked_out"
    }
    const config = credentialsConfig({
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
    const response = await refusedFrom(`${origin}/account/login`, new Client(config))
    expect(response.headers.get("location")).toBe(`${origin}/account/login?error=CredentialsSignin&code=locked_out`)
  })

  it("answers a client asking with X-Auth-Return-Redirect with that page's URL", async () => {
    const response = await refusedFrom(`${origin}/login`, undefined, { "X-Auth-Return-Redirect": "1" })
    expect(await response.json()).toEqual({ url: `${origin}/login?error=CredentialsSignin&code=credentials` })
  })

  it("goes to pages.signIn when it is set, wherever the form was", async () => {
    const client = new Client(credentialsConfig({ pages: { signIn: "/signin" } }))
    const response = await refusedFrom(`${origin}/header-form`, client)
    expect(response.headers.get("location")).toBe(`${origin}/signin?error=CredentialsSignin&code=credentials`)
  })

  it("an app's own page beside the auth routes (Express's /auth/login) counts as the app's", async () => {
    const response = await refusedFrom(`${base}/login`)
    expect(response.headers.get("location")).toBe(`${base}/login?error=CredentialsSignin&code=credentials`)
  })

  it("keeps the built-in page for its own form, for no Referer, for another site and for a path naming another host", async () => {
    for (const referer of [`${base}/signin?callbackUrl=%2Fx`, undefined, "https://evil.test/login", `${origin}//evil.test/login`, `${origin}/\\evil.test/login`, "not a url"]) {
      const response = await refusedFrom(referer)
      const location = new URL(response.headers.get("location")!)
      expect(location.origin, String(referer)).toBe(origin)
      expect(location.pathname, String(referer)).toBe("/auth/signin")
      expect(location.searchParams.get("error")).toBe("CredentialsSignin")
    }
  })

  it("does not send the error page's failures (a GET) back to the Referer", async () => {
    const client = new Client(credentialsConfig())
    const response = await client.get("callback/credentials", { referer: `${origin}/login` })
    expect(new URL(response.headers.get("location")!).pathname).not.toBe("/login")
  })
})

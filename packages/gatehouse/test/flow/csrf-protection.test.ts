import { describe, expect, it } from "vitest"
import { Auth } from "../../src/core/handler.js"
import { timingSafeEqual } from "../../src/core/crypto.js"
import { skipCSRFCheck } from "../../src/markers.js"
import { base, Client, credentialsConfig, origin, recordingLogger } from "./flow-helpers.js"

const CSRF = "__Host-authjs.csrf-token"

async function sha256(value: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value))
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("")
}

describe("CSRF double-submit protection", () => {
  it("mints token|sha256(token + secret), reuses it while valid, never caches the answer", async () => {
    const client = new Client(credentialsConfig())
    const first = await client.get("csrf")
    expect(first.headers.get("cache-control")).toBe("private, no-cache, no-store")
    expect(first.headers.get("expires")).toBe("0")
    expect(first.headers.get("pragma")).toBe("no-cache")
    const { csrfToken } = (await first.json()) as { csrfToken: string }
    expect(csrfToken).toMatch(/^[0-9a-f]{64}$/)
    expect(client.jar.get(CSRF)).toBe(`${csrfToken}|${await sha256(`${csrfToken}${credentialsConfig().secret}`)}`)
    expect(first.headers.getSetCookie().find((c) => c.startsWith(CSRF))).toMatch(/%7C[0-9a-f]{64}; Path=\/; HttpOnly; Secure; SameSite=Lax$/)

    const second = await client.get("csrf")
    expect(((await second.json()) as { csrfToken: string }).csrfToken).toBe(csrfToken)
    expect(second.headers.getSetCookie().some((c) => c.startsWith(CSRF))).toBe(false)
  })

  const stateChanging: [string, string][] = [
    ["POST signin", "signin/credentials"],
    ["POST signout", "signout"],
    ["POST callback/credentials", "callback/credentials"],
  ]

  it.each(stateChanging)("refuses %s without a token, with a wrong one and with a token but no cookie", async (_, path) => {
    const client = new Client(credentialsConfig())
    const token = await client.csrfToken()
    const missing = await client.postForm(path, { username: "ada", password: "correct horse" })
    const wrong = await client.postForm(path, { csrfToken: "f".repeat(64), username: "ada", password: "correct horse" })
    const noCookie = await new Client(credentialsConfig()).postForm(path, { csrfToken: token, username: "ada", password: "correct horse" })
    for (const response of [missing, wrong, noCookie]) {
      expect(response.status).toBe(302)
      expect(response.headers.get("location")).toBe(`${base}/signin?error=MissingCSRF`)
    }
  })

  it("answers a session update without a valid token with 400 null", async () => {
    const client = new Client(credentialsConfig())
    await client.signIn()
    const response = await client.postJson("session", { data: { name: "Mallory" } })
    expect(response.status).toBe(400)
    expect(await response.json()).toBeNull()
    const ok = await client.postJson("session", { csrfToken: await client.csrfToken(), data: {} })
    expect(ok.status).toBe(200)
  })

  it("refuses a forged cookie whose hash was not made with the secret, and re-mints", async () => {
    const client = new Client(credentialsConfig())
    const token = "a".repeat(64)
    client.jar.cookies.set(CSRF, encodeURIComponent(`${token}|${await sha256(`${token}guessed-secret`)}`))
    const response = await client.postForm("callback/credentials", { csrfToken: token, username: "ada", password: "correct horse" })
    expect(response.headers.get("location")).toBe(`${base}/signin?error=MissingCSRF`)
    // The error redirect drops cookies, so the next GET mints a fresh token.
    const fresh = await client.csrfToken()
    expect(fresh).not.toBe(token)
  })

  it("refuses a cookie made under another secret (e.g. reused from another deployment)", async () => {
    const other = new Client(credentialsConfig({ secret: "another-deployment-secret-0123456789abcdef" }))
    const token = await other.csrfToken()
    const client = new Client(credentialsConfig())
    client.jar.cookies.set(CSRF, other.jar.cookies.get(CSRF)!)
    const response = await client.postForm("callback/credentials", { csrfToken: token, username: "ada", password: "correct horse" })
    expect(response.headers.get("location")).toBe(`${base}/signin?error=MissingCSRF`)
  })

  it("refuses another user's token with my cookie", async () => {
    const mine = new Client(credentialsConfig())
    const theirs = new Client(credentialsConfig())
    await mine.csrfToken()
    const response = await mine.postForm("signout", { csrfToken: await theirs.csrfToken() })
    expect(response.headers.get("location")).toBe(`${base}/signin?error=MissingCSRF`)
  })

  it("reads the token only from the body, never from the query or a header", async () => {
    const client = new Client(credentialsConfig())
    const token = await client.csrfToken()
    const viaQuery = await client.postForm(`signout?csrfToken=${token}`, {})
    const viaHeader = await client.postForm("signout", {}, { "x-csrf-token": token, "csrf-token": token })
    expect(viaQuery.headers.get("location")).toBe(`${base}/signin?error=MissingCSRF`)
    expect(viaHeader.headers.get("location")).toBe(`${base}/signin?error=MissingCSRF`)
  })

  it("accepts the token in a JSON body too", async () => {
    const client = new Client(credentialsConfig())
    const response = await client.postJson("callback/credentials", { csrfToken: await client.csrfToken(), username: "ada", password: "correct horse" })
    expect(response.headers.get("location")).toBe(origin)
  })

  it("skips the check for framework authors with skipCSRFCheck, and then serves no token", async () => {
    const { logger, lines } = recordingLogger()
    const client = new Client(credentialsConfig({ skipCSRFCheck, logger }))
    const response = await client.postForm("callback/credentials", { username: "ada", password: "correct horse" })
    expect(response.headers.get("location")).toBe(origin)
    expect(response.headers.getSetCookie().some((c) => c.startsWith(CSRF))).toBe(false)

    const csrf = await Auth(new Request(`${base}/csrf?callbackUrl=%2Fx`), credentialsConfig({ skipCSRFCheck, logger }))
    expect(csrf.status).toBe(404)
    expect(csrf.headers.getSetCookie()).toEqual([
      `__Secure-authjs.callback-url=${encodeURIComponent(`${origin}/x`)}; Path=/; HttpOnly; Secure; SameSite=Lax`,
      `${CSRF}=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax`,
    ])
    expect(lines.filter((line) => line.code === "csrf-disabled").length).toBeGreaterThan(0)
  })

  it("compares in constant time without ever matching unequal strings", () => {
    expect(timingSafeEqual("abc", "abc")).toBe(true)
    expect(timingSafeEqual("abc", "abd")).toBe(false)
    expect(timingSafeEqual("abc", "ab")).toBe(false)
    expect(timingSafeEqual("", "a")).toBe(false)
    expect(timingSafeEqual("a", "")).toBe(false)
    expect(timingSafeEqual("", "")).toBe(true)
    expect(timingSafeEqual("é", "e\u0301")).toBe(false)
  })
})

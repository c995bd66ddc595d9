import { describe, expect, it } from "vitest"
import { parseCookieHeader } from "../../src/cookies/header.js"
import { readChunkedCookie } from "../../src/cookies/chunks.js"
import { defaultCookies } from "../../src/cookies/defaults.js"

describe("parsing the Cookie header", () => {
  it("reads pairs, keeps the first of a repeated name, and percent-decodes values", () => {
    const cookies = parseCookieHeader("a=1; b=x%7Cy; a=2; c=\"quoted\"; bad; =novalue; d=%E0%A4%A")
    expect([...cookies]).toEqual([["a", "1"], ["b", "x|y"], ["c", "quoted"], ["d", "%E0%A4%A"]])
  })

  it("remembers which names were repeated", () => {
    expect([...(parseCookieHeader("a=1; b=2; a=3; a=4").repeated ?? [])]).toEqual(["a"])
    expect(parseCookieHeader("a=1; b=2").repeated).toBeUndefined()
  })

  it("answers an empty map for no header", () => {
    expect(parseCookieHeader(null).size).toBe(0)
    expect(parseCookieHeader("").size).toBe(0)
  })
})

describe("reading a chunked session cookie", () => {
  it("joins chunks by number, beyond nine", () => {
    const cookies = new Map(Array.from({ length: 12 }, (_, i) => [`s.${i}`, String.fromCharCode(97 + i)] as const).reverse())
    expect(readChunkedCookie(cookies, "s")).toEqual({ value: "abcdefghijkl", stray: false })
  })

  it("reads an unchunked cookie and ignores empty or unrelated ones", () => {
    expect(readChunkedCookie(new Map([["s", "whole"], ["s2", "x"], ["s.", "y"], ["s.01", "z"]]), "s").value).toBe("whole")
    expect(readChunkedCookie(new Map([["s", ""]]), "s").value).toBeUndefined()
    expect(readChunkedCookie(new Map(), "s").value).toBeUndefined()
  })
})

describe("default cookies", () => {
  it("match Auth.js names and attributes on secure and plain origins", () => {
    const secure = defaultCookies(true)
    expect(Object.fromEntries(Object.entries(secure).map(([k, v]) => [k, v.name]))).toEqual({
      sessionToken: "__Secure-authjs.session-token",
      callbackUrl: "__Secure-authjs.callback-url",
      csrfToken: "__Host-authjs.csrf-token",
      pkceCodeVerifier: "__Secure-authjs.pkce.code_verifier",
      state: "__Secure-authjs.state",
      nonce: "__Secure-authjs.nonce",
      webauthnChallenge: "__Secure-authjs.challenge",
      emailLinkBinding: "__Secure-authjs.email-link",
      twoFactor: "__Secure-authjs.two-factor",
      twoFactorTrust: "__Secure-authjs.two-factor-trust",
      signInIdentifier: "__Secure-authjs.sign-in-identifier",
      impersonator: "__Secure-authjs.impersonator",
    })
    // Only the sign-in page reads it, so it goes no further than the base path (given at resolution).
    expect(secure.signInIdentifier.options).toEqual({ httpOnly: true, sameSite: "lax", path: "/", secure: true, maxAge: 60 })
    expect(defaultCookies(true, "/api/auth").signInIdentifier.options.path).toBe("/api/auth")
    expect(secure.pkceCodeVerifier.options).toEqual({ httpOnly: true, sameSite: "lax", path: "/", secure: true, maxAge: 900 })
    expect(secure.nonce.options.maxAge).toBeUndefined()
    const plain = defaultCookies(false)
    expect(plain.sessionToken).toEqual({ name: "authjs.session-token", options: { httpOnly: true, sameSite: "lax", path: "/", secure: false } })
    expect(plain.csrfToken.name).toBe("authjs.csrf-token")
  })
})

import { describe, expect, it } from "vitest"
import { parseRoute } from "../../src/core/router.js"

const ACTIONS = ["callback", "csrf", "error", "providers", "session", "signin", "signout", "verify-request", "webauthn-options"] as const

describe("parseRoute", () => {
  it.each(ACTIONS)("reads the action %s under /auth", (action) => {
    expect(parseRoute(`/auth/${action}`, "/auth")).toEqual({ action, providerId: undefined })
  })

  it.each([
    // [pathname, basePath, action, providerId]
    ["/auth/signin/github", "/auth", "signin", "github"],
    ["/auth/callback/credentials", "/auth", "callback", "credentials"],
    ["/auth/webauthn-options/passkey", "/auth", "webauthn-options", "passkey"],
    ["/auth/signin/github/", "/auth", "signin", "github"],
    ["/auth/signin/auth0///", "/auth", "signin", "auth0"],
    ["/auth//signin//github//", "/auth", "signin", "github"],
    ["/auth//session/", "/auth", "session", undefined],
    ["/auth/session///", "/auth", "session", undefined],
    ["/api/auth/session", "/api/auth", "session", undefined],
    ["/api/auth/signin/github", "/api/auth", "signin", "github"],
    ["/a.b+(c)/session", "/a.b+(c)", "session", undefined],
    ["/a.b+(c)/callback/x", "/a.b+(c)", "callback", "x"],
    ["/$^[]{}|/csrf", "/$^[]{}|", "csrf", undefined],
    ["/session", "/", "session", undefined],
    ["/signin/github", "/", "signin", "github"],
    ["//callback//credentials/", "/", "callback", "credentials"],
    // An unset provider id in a client-built URL means no provider.
    ["/auth/signin/undefined", "/auth", "signin", undefined],
    ["/auth/callback/undefined", "/auth", "callback", undefined],
    // The provider segment is percent-decoded.
    ["/auth/signin/my%20provider", "/auth", "signin", "my provider"],
    ["/auth/signin/a%2Fb", "/auth", "signin", "a/b"],
    ["/auth/signin/%E2%9C%93", "/auth", "signin", "\u2713"],
    ["/auth/signin/%75ndefined", "/auth", "signin", undefined],
  ])("reads %s under %s as %s with provider %s", (pathname, basePath, action, providerId) => {
    expect(parseRoute(pathname, basePath)).toEqual({ action, providerId })
  })

  it.each([
    // [pathname, basePath]
    ["/auth", "/auth"],
    ["/auth/", "/auth"],
    ["/auth//", "/auth"],
    ["/authsignin", "/auth"],
    ["/auth-signin", "/auth"],
    ["/auth.session", "/auth"],
    ["/auth/signinn", "/auth"],
    ["/auth/login", "/auth"],
    ["/auth/SESSION", "/auth"],
    ["/AUTH/session", "/auth"],
    ["/auth/%73ession", "/auth"],
    ["/auth/session/x", "/auth"],
    ["/auth/csrf/x", "/auth"],
    ["/auth/providers/github", "/auth"],
    ["/auth/signout/github", "/auth"],
    ["/auth/error/Configuration", "/auth"],
    ["/auth/verify-request/email", "/auth"],
    ["/auth/signin/a/b", "/auth"],
    ["/auth/signin/github/github", "/auth"],
    ["/auth/auth/signin/github", "/auth"],
    ["/api/auth/session", "/auth"],
    ["/api/auth/signinn", "/api/auth"],
    ["/x/auth/session", "/auth"],
    ["/", "/auth"],
    ["", "/auth"],
    ["/auth/__proto__", "/auth"],
    ["/auth/constructor", "/auth"],
    ["/auth/toString", "/auth"],
    ["/auth/hasOwnProperty", "/auth"],
    ["/auth/signin/%E0%A4%A", "/auth"],
    ["/auth/callback/%", "/auth"],
    ["/auth/webauthn-options/%ZZ", "/auth"],
    // A base path is matched literally, never as a regular expression.
    ["/aXb+(c)/session", "/a.b+(c)"],
    ["/a.bb(c)/session", "/a.b+(c)"],
    ["/a.b+c/session", "/a.b+(c)"],
    ["/a.b+(c)X/session", "/a.b+(c)"],
    ["/xa.b+(c)/session", "/a.b+(c)"],
    ["/anything/session", "/.*"],
    ["/", "/"],
    ["/nope", "/"],
    ["/auth/session", "/"],
  ])("names no route for %j under %s", (pathname, basePath) => {
    expect(parseRoute(pathname, basePath)).toBeUndefined()
  })

  it("takes a provider only for signin, callback and webauthn-options", () => {
    for (const action of ACTIONS) {
      const route = parseRoute(`/auth/${action}/p`, "/auth")
      if (action === "signin" || action === "callback" || action === "webauthn-options") expect(route).toEqual({ action, providerId: "p" })
      else expect(route).toBeUndefined()
    }
  })

  describe("two-factor", () => {
    const served = { twoFactor: { totp: { issuer: "Acme" } } }

    it("is no route unless twoFactor is configured", () => {
      for (const path of ["/auth/two-factor", "/auth/two-factor/totp", "/auth/two-factor/status"]) {
        expect(parseRoute(path, "/auth")).toBeUndefined()
        expect(parseRoute(path, "/auth", {})).toBeUndefined()
        expect(parseRoute(path, "/auth", { twoFactor: undefined })).toBeUndefined()
        expect(parseRoute(path, "/auth", { twoFactor: false })).toBeUndefined()
      }
    })

    it("reads two-factor, with slashes tolerated as elsewhere", () => {
      for (const path of ["/auth/two-factor", "/auth/two-factor/", "/auth//two-factor//"]) {
        expect(parseRoute(path, "/auth", served)).toEqual({ action: "two-factor", providerId: undefined })
      }
    })

    it.each(["totp", "totp/confirm", "recovery-codes", "disable", "status"])("reads two-factor/%s", (subPath) => {
      expect(parseRoute(`/auth/two-factor/${subPath}`, "/auth", served)).toEqual({ action: "two-factor", providerId: undefined, subPath })
      expect(parseRoute(`/auth/two-factor/${subPath}/`, "/auth", served)).toEqual({ action: "two-factor", providerId: undefined, subPath })
    })

    it.each(["two-factor/nope", "two-factor/totp/nope", "two-factor/confirm", "two-factor/totp/confirm/x", "two-factor/%74otp", "two-factor/TOTP", "two-factor/status/x"])(
      "names no route for %s",
      (path) => {
        expect(parseRoute(`/auth/${path}`, "/auth", served)).toBeUndefined()
      },
    )
  })
})

import { describe, expect, it, vi } from "vitest"
import { createActionURL } from "../../src/env.js"
import { isAuthAction } from "../../src/core/auth-action.js"
import { AuthError } from "../../src/errors.js"

describe("createActionURL", () => {
  it.each([
    [{ host: "example.com" }, undefined, {}, "/basepath", "https://example.com/basepath/callback", "callback"],
    [{ host: "example.com", "x-forwarded-proto": "http" }, "https", {}, "/auth", "http://example.com/auth/signin", "signin"],
    [{ host: "example.com", "x-forwarded-host": "public.test" }, "http", {}, "/auth", "http://public.test/auth/session", "session"],
    [{ host: "example.com" }, "http:", {}, "/auth/", "http://example.com/auth/session", "session"],
    [{ host: "example.com" }, "https", {}, undefined, "https://example.com/session", "session"],
    [{ host: "localhost:3000" }, "http", {}, "/api/auth", "http://localhost:3000/api/auth/csrf", "csrf"],
    [{ host: "ignored" }, "http", { AUTH_URL: "https://sub.domain.env.com/api/auth" }, undefined, "https://sub.domain.env.com/api/auth/signout", "signout"],
    [{ host: "ignored" }, "http", { AUTH_URL: "https://env.test/api/auth" }, "/api/auth", "https://env.test/api/auth/session", "session"],
    [{ host: "ignored" }, "http", { LEGACYAUTH_URL: "https://legacy.test" }, "/auth", "https://legacy.test/auth/session", "session"],
    [{ "x-forwarded-host": "a.test, b.test", "x-forwarded-proto": "https,http" }, "http", {}, "/auth", "https://a.test/auth/providers", "providers"],
  ] as const)("%j %s %j %s → %s", (headers, protocol, env, basePath, expected, action) => {
    expect(createActionURL(action, protocol, new Headers(headers), env, basePath).href).toBe(expected)
  })

  it("lets basePath win over a different AUTH_URL path, with a warning", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
    try {
      const url = createActionURL("session", "https", new Headers(), { AUTH_URL: "https://env.test/other" }, "/auth")
      expect(url.href).toBe("https://env.test/auth/session")
      // With what it means, as every warning: a bare code tells an operator nothing.
      expect(warn).toHaveBeenCalledWith("[auth][warn][env-url-basepath-mismatch]", "AUTH_URL's path and `basePath` disagree; `basePath` wins.")
    } finally {
      warn.mockRestore()
    }
  })

  it.each([
    ["no host", {}],
    ["a host with a path", { host: "evil.test/path" }],
    ["a host with credentials", { host: "user@evil.test" }],
    ["a host with a query", { host: "evil.test?x=1" }],
    ["a host with an empty query", { host: "app.test?" }],
    ["a host with an empty fragment", { host: "app.test#" }],
    ["a host with a backslash", { host: "app.test\\evil" }],
    ["an odd protocol", { host: "app.test", "x-forwarded-proto": "javascript" }],
  ])("throws a clear AuthError for %s", (_, headers) => {
    expect(() => createActionURL("session", "https", new Headers(headers), {}, "/auth")).toThrow(AuthError)
  })
})

describe("createActionURL with AUTH_URL", () => {
  it("prefers AUTH_URL over LEGACYAUTH_URL", () => {
    const env = { AUTH_URL: "https://new.test", LEGACYAUTH_URL: "https://old.test" }
    expect(createActionURL("session", "https", new Headers(), env, "/auth").href).toBe("https://new.test/auth/session")
  })

  it.each(["https://app.test/auth?x=1", "https://app.test/auth#f", "ftp://app.test/auth", "https://u:p@app.test/"])(
    "rejects AUTH_URL %s",
    (AUTH_URL) => {
      expect(() => createActionURL("session", "https", new Headers(), { AUTH_URL }, "/auth")).toThrow(AuthError)
    },
  )

  it("accepts a plain header map from JavaScript callers", () => {
    const headers = { host: "app.test", "x-forwarded-proto": ["http"] } as unknown as Headers
    expect(createActionURL("csrf", undefined, headers, {}, "/auth").href).toBe("http://app.test/auth/csrf")
  })
})

describe("isAuthAction", () => {
  it.each(["providers", "session", "csrf", "signin", "signout", "callback", "verify-request", "error", "webauthn-options"])(
    "accepts %s",
    (action) => expect(isAuthAction(action)).toBe(true),
  )
  it.each(["signinn", "", "SIGNIN", "toString", "__proto__", "login"])("rejects %j", (action) => {
    expect(isAuthAction(action)).toBe(false)
  })
})

import { describe, expect, it, vi } from "vitest"
import { resolveConfig } from "../../src/core/config.js"
import { decode, encode } from "../../src/jwt/index.js"
import { raw, skipCSRFCheck } from "../../src/markers.js"
import { InvalidConfig } from "../../src/errors.js"
import type { Adapter, AuthConfig, OAuthConfig, SessionCallbackParams } from "../../src/types.js"

const secret = "resolution-secret-0123456789abcdef01234567"

describe("resolving a configuration", () => {
  it("fills every default of the Configuration, Session and JWT option tables", () => {
    const resolved = resolveConfig({ providers: [], secret }, {})
    expect(resolved).toMatchObject({
      providers: [],
      adapter: undefined,
      basePath: "/auth",
      secret: [secret],
      session: { strategy: "jwt", maxAge: 2592000, updateAge: 86400 },
      jwt: { maxAge: 2592000, encode, decode },
      events: {},
      pages: {},
      debug: false,
      theme: { colorScheme: "auto", logo: "", brandColor: "", buttonText: "" },
      trustHost: true,
      useSecureCookies: undefined,
      redirectProxyUrl: undefined,
      experimental: { enableWebAuthn: false },
      raw: false,
      skipCSRFCheck: false,
    })
    expect(resolved.session.generateSessionToken()).toMatch(/^[0-9a-f]{64}$/)
    expect(resolved.session.generateSessionToken()).not.toBe(resolved.session.generateSessionToken())
    expect(resolved.cookies.secure.sessionToken.name).toBe("__Secure-authjs.session-token")
    expect(resolved.cookies.insecure.csrfToken.name).toBe("authjs.csrf-token")
    expect(resolved.cookies.secure.csrfToken.name).toBe("__Host-authjs.csrf-token")
  })

  it("defaults to database sessions when an adapter is set, and jwt.maxAge to session.maxAge", () => {
    const adapter: Adapter = {}
    const resolved = resolveConfig({ providers: [], secret, adapter, session: { maxAge: 3600 } })
    expect(resolved.session.strategy).toBe("database")
    expect(resolved.jwt.maxAge).toBe(3600)
    expect(resolveConfig({ providers: [], secret, adapter, session: { strategy: "jwt" } }).session.strategy).toBe("jwt")
  })

  it("recognises the raw and skipCSRFCheck markers, and nothing that merely looks like them", () => {
    expect(resolveConfig({ providers: [], raw, skipCSRFCheck })).toMatchObject({ raw: true, skipCSRFCheck: true })
    const lookalike = { providers: [], raw: Symbol("gatehouse.return-type-raw") } as unknown as AuthConfig
    expect(resolveConfig(lookalike).raw).toBe(false)
    // A second copy of the package registers the same symbols.
    const fromOtherCopy = { providers: [], skipCSRFCheck: Symbol.for("gatehouse.skip-csrf-check") } as unknown as AuthConfig
    expect(resolveConfig(fromOtherCopy).skipCSRFCheck).toBe(true)
  })

  it("has default callbacks: signIn allows, jwt keeps the token, session exposes only name, email, image", async () => {
    const { callbacks } = resolveConfig({ providers: [] })
    expect(await callbacks.signIn({ user: {}, account: null })).toBe(true)
    expect(await callbacks.jwt({ token: { sub: "1", secretThing: "x" }, user: {}, account: null })).toEqual({ sub: "1", secretThing: "x" })
    const expires = new Date("2030-01-01T00:00:00Z")
    const session = await callbacks.session({
      session: { user: { id: "1", name: "A", email: "a@x.test", image: null }, expires: expires as unknown as string },
      token: { sub: "1" },
    } as SessionCallbackParams)
    expect(session).toEqual({ user: { name: "A", email: "a@x.test", image: null }, expires: "2030-01-01T00:00:00.000Z" })
    expect(await callbacks.redirect({ url: "/dashboard", baseUrl: "https://app.test" })).toBe("https://app.test/dashboard")
  })

  it("keeps the application's callbacks and merges cookie overrides one attribute at a time", () => {
    const signIn = () => false
    const resolved = resolveConfig({
      providers: [],
      callbacks: { signIn },
      cookies: { sessionToken: { name: "my-session", options: { domain: "app.test" } }, csrfToken: { options: { sameSite: "strict" } } },
    })
    expect(resolved.callbacks.signIn).toBe(signIn)
    expect(resolved.cookies.secure.sessionToken).toEqual({
      name: "my-session",
      options: { httpOnly: true, sameSite: "lax", path: "/", secure: true, domain: "app.test" },
    })
    expect(resolved.cookies.insecure.csrfToken).toEqual({
      name: "authjs.csrf-token",
      options: { httpOnly: true, sameSite: "strict", path: "/", secure: false },
    })
  })

  it("keeps theme defaults where the application leaves a value undefined", () => {
    const { theme } = resolveConfig({ providers: [], theme: { colorScheme: undefined, brandColor: "#123456" } })
    expect(theme).toEqual({ colorScheme: "auto", logo: "", brandColor: "#123456", buttonText: "" })
  })

  it("normalises a trailing slash on basePath", () => {
    expect(resolveConfig({ providers: [], basePath: "/api/auth/" }).basePath).toBe("/api/auth")
    expect(resolveConfig({ providers: [], basePath: "/" }).basePath).toBe("/")
  })

  it("returns a deeply frozen object", () => {
    const resolved = resolveConfig({ providers: [], secret })
    for (const part of [resolved, resolved.session, resolved.jwt, resolved.callbacks, resolved.cookies, resolved.cookies.secure,
      resolved.cookies.secure.sessionToken, resolved.cookies.secure.sessionToken.options, resolved.secret, resolved.theme]) {
      expect(Object.isFrozen(part)).toBe(true)
    }
  })

  it("computes once per configuration and environment object", () => {
    const config: AuthConfig = { providers: [] }
    const env = { AUTH_SECRET: "a" }
    expect(resolveConfig(config, env)).toBe(resolveConfig(config, env))
    expect(resolveConfig(config, { AUTH_SECRET: "b" }).secret).toEqual(["b"])
    expect(resolveConfig({ providers: [] }, env)).not.toBe(resolveConfig(config, env))
  })

  it("never modifies the application's configuration", () => {
    const provider: OAuthConfig = { id: "idp", name: "IdP", type: "oidc", issuer: "https://idp.test", authorization: { params: { scope: "openid" } } }
    const config: AuthConfig = {
      providers: [provider],
      cookies: { sessionToken: { options: { domain: "x.test" } } },
      session: { maxAge: 60 },
      theme: { brandColor: "#000" },
      pages: { signIn: "/login" },
    }
    const before = structuredClone(config)
    resolveConfig(config, { AUTH_SECRET: "s", AUTH_IDP_ID: "cid", AUTH_URL: "https://app.test/api/auth" })
    expect(config).toEqual(before)
    expect(Object.isFrozen(provider)).toBe(false)
    expect(Object.isFrozen(config.cookies!.sessionToken!.options)).toBe(false)
  })

  it("builds the logger from the configuration: custom levels win, built-in debug only with debug", () => {
    const error = vi.fn()
    const debugSpy = vi.spyOn(console, "debug").mockImplementation(() => {})
    try {
      const quiet = resolveConfig({ providers: [], logger: { error } })
      quiet.logger.error("SOME_CODE", "detail")
      quiet.logger.debug("NOT_SHOWN")
      expect(error).toHaveBeenCalledWith("SOME_CODE", "detail")
      expect(debugSpy).not.toHaveBeenCalled()
      resolveConfig({ providers: [], debug: true }).logger.debug("SHOWN")
      expect(debugSpy).toHaveBeenCalledWith("[auth][debug] SHOWN")
      const throwing = resolveConfig({ providers: [], logger: { warn: () => { throw new Error("broken logger") } } })
      expect(() => throwing.logger.warn("X")).not.toThrow()
    } finally {
      debugSpy.mockRestore()
    }
  })

  it("throws InvalidConfig for a configuration it cannot read", () => {
    expect(() => resolveConfig(null as unknown as AuthConfig)).toThrow(InvalidConfig)
    expect(() => resolveConfig({ providers: "github" } as unknown as AuthConfig)).toThrow(InvalidConfig)
    expect(() => resolveConfig({ providers: [{ name: "no id" }] } as unknown as AuthConfig)).toThrow(InvalidConfig)
    expect(() => resolveConfig({ providers: [() => null] } as unknown as AuthConfig)).toThrow(InvalidConfig)
  })

  it.each(["trustHost", "useSecureCookies", "debug"])("rejects a %s that is not a boolean (\"false\" would count as true)", (option) => {
    expect(() => resolveConfig({ providers: [], [option]: "false" } as unknown as AuthConfig)).toThrow(InvalidConfig)
  })

  it("passes an expires value through the default session callback when it is not a Date", async () => {
    const { callbacks } = resolveConfig({ providers: [] })
    const session = await callbacks.session({ session: { expires: "2030-01-01T00:00:00.000Z" }, token: {} } as SessionCallbackParams)
    expect(session.expires).toBe("2030-01-01T00:00:00.000Z")
  })

  it("treats a missing providers list as empty", () => {
    expect(resolveConfig({} as AuthConfig).providers).toEqual([])
  })
})

import { describe, expect, it } from "vitest"
import { assertConfig } from "../../src/core/assert-config.js"
import { resolveConfig } from "../../src/core/config.js"
import { skipCSRFCheck } from "../../src/markers.js"
import { MissingSecretError } from "../../src/errors.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import type { Adapter, AuthConfig, CredentialsConfig, EmailConfig, OAuthConfig, WebAuthnConfig } from "../../src/types.js"

const secret = "assertion-secret-0123456789abcdef0123456789"
const url = "https://app.test/auth/session"
const base = { secret, trustHost: true } satisfies Partial<AuthConfig>

function check(config: Partial<AuthConfig>, request: Parameters<typeof assertConfig>[1] = { url }) {
  return assertConfig(resolveConfig({ providers: [], ...config } as AuthConfig, {}), request)
}
function errorOf(config: Partial<AuthConfig>, request?: Parameters<typeof assertConfig>[1]) {
  const { error } = check(config, request)
  return error && { type: error.type, message: error.message }
}

const oauth = (extra: Partial<OAuthConfig> = {}): OAuthConfig => ({ id: "idp", name: "IdP", type: "oauth", ...extra })
const credentials = (extra: Partial<CredentialsConfig> = {}): CredentialsConfig => ({
  id: "credentials", name: "Credentials", type: "credentials", credentials: {}, authorize: () => null, ...extra,
})
const email: EmailConfig = { id: "email", name: "Email", type: "email", sendVerificationRequest: () => {} }
const unused = () => Promise.reject(new Error("not called"))
const simpleWebAuthn = {
  generateAuthenticationOptions: unused,
  generateRegistrationOptions: unused,
  verifyAuthenticationResponse: unused,
  verifyRegistrationResponse: unused,
}
const webauthn = (extra: Partial<WebAuthnConfig> = {}): WebAuthnConfig => ({ id: "passkey", name: "Passkey", type: "webauthn", simpleWebAuthn, ...extra })
const allMethods = (names: string[]): Adapter => Object.fromEntries(names.map((name) => [name, () => null]))
const databaseMethods = ["createUser", "getUser", "getUserByEmail", "getUserByAccount", "updateUser", "linkAccount",
  "createSession", "getSessionAndUser", "updateSession", "deleteSession"]

describe("config assertions", () => {
  it("passes a sound configuration", () => {
    expect(check(base)).toEqual({ error: undefined, warnings: [] })
  })

  it("requires a trusted host first, naming the URL without its query, and both fixes: AUTH_URL in production, AUTH_TRUST_HOST behind a proxy", () => {
    expect(errorOf({ secret, trustHost: false }, { url: `${url}?token=secret-sign-in-token` })).toEqual({
      type: "UntrustedHost",
      message:
        `Host must be trusted. URL was: ${url}. In production set AUTH_URL to the site's public URL (AUTH_URL=https://your.site); ` +
        "behind a proxy or platform you control that sets the Host or X-Forwarded-Host header, set AUTH_TRUST_HOST=true instead (or `trustHost: true` in the config)",
    })
    expect(errorOf({ trustHost: false })?.type).toBe("UntrustedHost")
  })

  it("requires a secret, with advice on making one", () => {
    expect(errorOf({ trustHost: true })?.type).toBe("MissingSecret")
    expect(errorOf({ trustHost: true })?.message).toMatch(/AUTH_SECRET/)
    // The project's own command, not a tool the reader may not have.
    expect(errorOf({ trustHost: true })?.message).toContain("npx gatehouse-auth secret")
  })

  it("reports MissingSecretError in production when neither the config nor AUTH_SECRET has a secret", () => {
    const env = { NODE_ENV: "production", AUTH_TRUST_HOST: "true" }
    const { error } = assertConfig(resolveConfig({ providers: [] }, env), { url })
    expect(error).toBeInstanceOf(MissingSecretError)
    expect(assertConfig(resolveConfig({ providers: [] }, { ...env, AUTH_SECRET: secret }), { url }).error).toBeUndefined()
  })

  it("uses the secrets left after skipping unset entries of a list", () => {
    expect(errorOf({ trustHost: true, secret: [undefined, secret] as unknown as string[] })).toBeUndefined()
    expect(errorOf({ trustHost: true, secret: [undefined, ""] as unknown as string[] })?.type).toBe("MissingSecret")
  })

  it.each(["bad name", "semi;colon", "", "é"])("rejects a cookie name override %j", (name) => {
    expect(errorOf({ ...base, cookies: { sessionToken: { name } } })?.type).toBe("InvalidConfig")
  })

  it.each(["authorization", "token", "userinfo"] as const)("needs an issuer or the %s endpoint", (missing) => {
    const endpoints = { authorization: "https://idp.test/a", token: "https://idp.test/t", userinfo: "https://idp.test/u" }
    delete (endpoints as Partial<typeof endpoints>)[missing]
    expect(errorOf({ ...base, providers: [oauth(endpoints)] })).toEqual({
      type: "InvalidEndpoints",
      message: `Provider "idp" is missing both \`issuer\` and \`${missing}\` endpoint config. At least one of them is required`,
    })
    expect(errorOf({ ...base, providers: [oauth({ ...endpoints, issuer: "https://idp.test" })] })).toBeUndefined()
  })

  it("accepts endpoints given as objects with a url", () => {
    const provider = oauth({ authorization: { url: "https://idp.test/a" }, token: { url: "https://idp.test/t" }, userinfo: { url: "https://idp.test/u" } })
    expect(errorOf({ ...base, providers: [provider] })).toBeUndefined()
    expect(errorOf({ ...base, providers: [oauth({ ...provider, userinfo: { params: {} } })] })?.type).toBe("InvalidEndpoints")
  })

  it("accepts credentials sign-in under database sessions when the adapter can look the user up", () => {
    const sessions = ["createSession", "getSessionAndUser", "updateSession", "deleteSession"]
    const withoutGetUser = { ...base, adapter: allMethods(sessions), session: { strategy: "database" as const }, providers: [credentials()] }
    expect(errorOf(withoutGetUser)).toEqual({ type: "MissingAdapterMethods", message: "Required adapter methods were missing: getUser" })
    expect(errorOf({ ...withoutGetUser, adapter: allMethods([...sessions, "getUser"]) })).toBeUndefined()
  })

  it("refuses the account routes at startup when the adapter cannot list and unlink accounts (or list session rows under database sessions), naming the methods", () => {
    // Auth.js's adapters (Drizzle, Kysely, Unstorage, pg) have none of these.
    const authjsLike = { ...base, providers: [credentials()], account: { routes: true }, adapter: allMethods(databaseMethods), session: { strategy: "jwt" as const } }
    expect(errorOf(authjsLike)).toEqual({ type: "MissingAdapterMethods", message: "Required adapter methods were missing: listAccountsByUserId, unlinkAccount" })
    expect(errorOf({ ...authjsLike, adapter: allMethods([...databaseMethods, "listAccountsByUserId", "unlinkAccount"]) })).toBeUndefined()
    const database = { ...authjsLike, session: { strategy: "database" as const }, adapter: allMethods([...databaseMethods, "listAccountsByUserId", "unlinkAccount"]) }
    expect(errorOf(database)).toEqual({ type: "MissingAdapterMethods", message: "Required adapter methods were missing: listSessionsByUserId" })
    expect(errorOf({ ...database, adapter: allMethods([...databaseMethods, "listAccountsByUserId", "unlinkAccount", "listSessionsByUserId"]) })).toBeUndefined()
    expect(errorOf({ ...authjsLike, account: { routes: false } })).toBeUndefined()
  })

  it("requires authorize on a credentials provider", () => {
    const broken = credentials({ authorize: undefined as unknown as CredentialsConfig["authorize"] })
    expect(errorOf({ ...base, providers: [broken] })?.type).toBe("MissingAuthorize")
  })

  it("requires an adapter for the account routes, which list and unlink stored accounts", () => {
    expect(errorOf({ ...base, providers: [credentials()], account: { routes: true } })).toEqual({
      type: "MissingAdapter",
      message: "The account routes (account.routes) require an adapter",
    })
    const accountMethods = ["listAccountsByUserId", "unlinkAccount", "listSessionsByUserId"]
    expect(errorOf({ ...base, providers: [credentials()], account: { routes: true }, adapter: allMethods([...databaseMethods, ...accountMethods]) })).toBeUndefined()
    expect(errorOf({ ...base, providers: [credentials()], account: { routes: false } })).toBeUndefined()
  })

  it("requires an adapter with the verification-token methods for email sign-in", () => {
    expect(errorOf({ ...base, providers: [email] })).toEqual({ type: "MissingAdapter", message: "Email login requires an adapter" })
    const adapter = allMethods(["createVerificationToken", "getUserByEmail"])
    expect(errorOf({ ...base, providers: [email], adapter, session: { strategy: "jwt" } })).toEqual({
      type: "MissingAdapterMethods",
      message: "Required adapter methods were missing: useVerificationToken, createUser, updateUser",
    })
  })

  it("requires the session methods under database sessions, even alongside email sign-in", () => {
    expect(errorOf({ ...base, session: { strategy: "database" } })?.message).toBe("Database session requires an adapter")
    const adapter = allMethods(["createVerificationToken", "useVerificationToken", "getUserByEmail", "createUser", "updateUser"])
    expect(errorOf({ ...base, providers: [email], adapter })?.message).toBe(
      "Required adapter methods were missing: createSession, getSessionAndUser, updateSession, deleteSession",
    )
  })

  it("requires the user and account methods for OAuth sign-in with an adapter", () => {
    const idp = oauth({ issuer: "https://idp.test" })
    const adapter = allMethods(["createUser", "getUser", "getUserByEmail", "linkAccount"])
    expect(errorOf({ ...base, providers: [idp], adapter, session: { strategy: "jwt" } })?.message).toBe(
      "Required adapter methods were missing: getUserByAccount",
    )
    expect(errorOf({ ...base, providers: [idp], adapter: allMethods(databaseMethods) })).toBeUndefined()
  })

  it("requires the account list and update methods to refresh access tokens under database sessions", () => {
    const idp = oauth({ issuer: "https://idp.test", refreshAccessToken: true })
    expect(errorOf({ ...base, providers: [idp], adapter: allMethods(databaseMethods) })?.message).toBe(
      "Required adapter methods were missing: listAccountsByUserId, updateAccount, getAccount",
    )
    const refreshing = allMethods([...databaseMethods, "listAccountsByUserId", "updateAccount", "getAccount"])
    expect(errorOf({ ...base, providers: [idp], adapter: refreshing })).toBeUndefined()
    // JWT sessions keep the tokens in the session token: nothing more is asked of the adapter.
    expect(errorOf({ ...base, providers: [idp], adapter: allMethods(databaseMethods), session: { strategy: "jwt" } })).toBeUndefined()
  })

  it("keeps email and database requirements apart between configurations", () => {
    // Auth.js keeps "has email" in module-level flags; a later config without email must not inherit it.
    expect(errorOf({ ...base, providers: [email] })?.type).toBe("MissingAdapter")
    expect(errorOf({ ...base, providers: [oauth({ issuer: "https://idp.test" })] })).toBeUndefined()
  })

  it("gates WebAuthn behind experimental.enableWebAuthn and an adapter with its methods", () => {
    expect(errorOf({ ...base, providers: [webauthn()] })?.type).toBe("ExperimentalFeatureNotEnabled")
    const experimental = { enableWebAuthn: true }
    expect(errorOf({ ...base, providers: [webauthn()], experimental })?.message).toBe("WebAuthn requires an adapter")
    const adapter = allMethods([...databaseMethods, "getAccount", "getAuthenticator", "createAuthenticator", "listAuthenticatorsByUserId"])
    expect(errorOf({ ...base, providers: [webauthn()], experimental, adapter })?.message).toBe(
      "Required adapter methods were missing: updateAuthenticatorCounter, unlinkAccount, deleteUser",
    )
    const webauthnMethods = ["getAccount", "getAuthenticator", "createAuthenticator", "listAuthenticatorsByUserId", "updateAuthenticatorCounter", "unlinkAccount", "deleteUser"]
    const full = allMethods([...databaseMethods, ...webauthnMethods])
    expect(check({ ...base, providers: [webauthn()], experimental, adapter: full, session: { strategy: "jwt" } })).toEqual({
      error: undefined,
      warnings: ["experimental-webauthn", "webauthn-challenges-in-memory"],
    })
    const shared = allMethods([...databaseMethods, ...webauthnMethods, "hitRateLimit"])
    expect(check({ ...base, providers: [webauthn()], experimental, adapter: shared, session: { strategy: "jwt" } })).toEqual({
      error: undefined,
      warnings: ["experimental-webauthn"],
    })
  })

  it("survives a null form field instead of throwing", () => {
    const provider = webauthn({ enableConditionalUI: true, formFields: { email: null } as unknown as WebAuthnConfig["formFields"] })
    expect(errorOf({ ...base, experimental: { enableWebAuthn: true }, providers: [provider] })?.type).toBe("MissingWebAuthnAutocomplete")
  })

  it("checks WebAuthn browser version and conditional UI", () => {
    const experimental = { enableWebAuthn: true }
    expect(errorOf({ ...base, experimental, providers: [webauthn({ simpleWebAuthnBrowserVersion: "9.0.1" })] })?.type).toBe("AuthError")
    const field = { email: { label: "Email", autocomplete: "username webauthn" } }
    expect(errorOf({ ...base, experimental, providers: [webauthn({ enableConditionalUI: true, formFields: { email: { label: "Email" } } })] })?.type).toBe(
      "MissingWebAuthnAutocomplete",
    )
    expect(
      errorOf({ ...base, experimental, providers: [webauthn({ enableConditionalUI: true, formFields: field }), webauthn({ id: "second", enableConditionalUI: true, formFields: field })] })?.type,
    ).toBe("DuplicateConditionalUI")
  })

  it.each([
    [{ session: { maxAge: -1 } }, "session.maxAge"],
    [{ session: { maxAge: Number.NaN } }, "session.maxAge"],
    [{ session: { updateAge: -5 } }, "session.updateAge"],
    [{ jwt: { maxAge: 0 } }, "jwt.maxAge"],
    [{ session: { absoluteMaxAge: 0 } }, "session.absoluteMaxAge"],
    [{ session: { absoluteMaxAge: Number.POSITIVE_INFINITY } }, "session.absoluteMaxAge"],
    [{ session: { hashTokens: "yes" } }, "session.hashTokens"],
    [{ session: { revocationCheckAge: -1 } }, "session.revocationCheckAge"],
    [{ session: { revocationCheckAge: true } }, "session.revocationCheckAge"],
    [{ secret: ["ok-secret", 42] }, "secret"],
    [{ providers: [oauth({ issuer: "https://a.test" }), oauth({ issuer: "https://b.test" })] }, "share the id"],
    [{ providers: [{ id: "x", name: "X", type: "saml" }] }, "unknown type"],
  ] as [Partial<AuthConfig>, string][])("rejects %j as InvalidConfig", (config, mention) => {
    const result = errorOf({ ...base, ...config })
    expect(result?.type).toBe("InvalidConfig")
    expect(result?.message).toContain(mention)
  })

  // Mend round of issue 39 (sessions, finding 4): without it every sign-in failed at run time instead.
  it("requires setSessionContext under database sessions with organizations or the admin API, naming it", () => {
    const full = MemoryAdapter()
    const withoutContext = Object.assign(Object.create(full) as Adapter, { setSessionContext: undefined })
    for (const feature of [{ organizations: {} }, { admin: { userIds: ["admin-1"] } }] satisfies Partial<AuthConfig>[]) {
      const config = { ...base, providers: [credentials()], ...feature }
      expect(errorOf({ ...config, adapter: withoutContext, session: { strategy: "database" } })).toEqual({
        type: "MissingAdapterMethods",
        message: expect.stringContaining("setSessionContext"),
      })
      expect(errorOf({ ...config, adapter: full, session: { strategy: "database" } })).toBeUndefined()
      // JWT sessions keep the context in the token: the method is not needed.
      expect(errorOf({ ...config, adapter: withoutContext, session: { strategy: "jwt" } })).toBeUndefined()
    }
  })

  it("rejects an unknown session strategy", () => {
    expect(errorOf({ ...base, session: { strategy: "cookie" as "jwt" } })?.type).toBe("UnsupportedStrategy")
  })

  it("warns when database sessions could never be extended (updateAge not below maxAge)", () => {
    const adapter = allMethods(databaseMethods)
    expect(check({ ...base, adapter, session: { maxAge: 3600, updateAge: 3600 } }).warnings).toEqual(["session-never-extended"])
    expect(check({ ...base, adapter, session: { maxAge: 3600, updateAge: 3599 } }).warnings).toEqual([])
    expect(check({ ...base, session: { maxAge: 3600, updateAge: 7200 } }).warnings).toEqual([])
  })

  it("warns about debug, disabled CSRF, short secrets and a redundant AUTH_URL path", () => {
    const config = { ...base, providers: [], secret: "short", debug: true, skipCSRFCheck, basePath: "/x", logger: { debug: () => {} } } as AuthConfig
    const resolved = resolveConfig(config, { AUTH_URL: "https://app.test/api/auth" })
    expect(assertConfig(resolved, { url }).warnings).toEqual(["env-url-basepath-redundant", "debug-enabled", "csrf-disabled", "secret-too-short"])
    // Once per configuration, not once per request.
    expect(assertConfig(resolved, { url }).warnings).toEqual([])
  })
})

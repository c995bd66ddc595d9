import { describe, expect, it, vi } from "vitest"
import { envDefaults, envSecrets, envTrustHost, providerEnvName, setEnvDefaults } from "../../src/env.js"
import type { AuthConfig, OAuthConfig, EmailConfig, Provider } from "../../src/types.js"

const github = (): OAuthConfig => ({
  id: "github",
  name: "GitHub",
  type: "oauth",
  authorization: "https://github.com/login/oauth/authorize",
  token: "https://github.com/login/oauth/access_token",
  userinfo: "https://api.github.com/user",
})

describe("secret inference", () => {
  it.each([
    [{}, []],
    [{ AUTH_SECRET: "s" }, ["s"]],
    [{ LEGACYAUTH_SECRET: "legacy" }, ["legacy"]],
    [{ AUTH_SECRET: "s", LEGACYAUTH_SECRET: "legacy" }, ["s"]],
    [{ AUTH_SECRET: "0", AUTH_SECRET_1: "1" }, ["1", "0"]],
    [{ AUTH_SECRET: "0", AUTH_SECRET_1: "1", AUTH_SECRET_2: "2", AUTH_SECRET_3: "3" }, ["3", "2", "1", "0"]],
    [{ AUTH_SECRET_2: "2", LEGACYAUTH_SECRET: "legacy" }, ["2", "legacy"]],
    // next-auth's own name, which a switched app's .env still has.
    [{ NEXTAUTH_SECRET: "next" }, ["next"]],
    [{ AUTH_SECRET: "s", NEXTAUTH_SECRET: "next" }, ["s"]],
    [{ AUTH_SECRET: "" }, []],
    [{ AUTH_SECRET: 123, AUTH_SECRET_1: { x: 1 } }, []],
  ] as const)("%j gives %j (newest first)", (env, expected) => {
    expect(envSecrets(env)).toEqual(expected)
  })

  it("keeps an explicit secret over the environment", () => {
    expect(envDefaults({ AUTH_SECRET: "env" }, { providers: [], secret: "explicit" }).secret).toEqual(["explicit"])
    expect(envDefaults({ AUTH_SECRET: "env" }, { providers: [], secret: ["a", "b"] }).secret).toEqual(["a", "b"])
  })

  it("skips unset entries of an explicit list", () => {
    const config = { providers: [], secret: [undefined, "old"] as unknown as string[] }
    expect(envDefaults({ AUTH_SECRET: "env" }, config).secret).toEqual(["old"])
    expect(envDefaults({ AUTH_SECRET: "env" }, { providers: [], secret: [undefined] as unknown as string[] }).secret).toEqual(["env"])
  })

  it("falls back to the environment when the explicit secret is empty", () => {
    expect(envDefaults({ AUTH_SECRET: "env" }, { providers: [], secret: "" }).secret).toEqual(["env"])
    expect(envDefaults({ AUTH_SECRET: "env" }, { providers: [], secret: [] }).secret).toEqual(["env"])
  })
})

describe("trusting the host", () => {
  it.each([
    [{ AUTH_TRUST_HOST: "true", NODE_ENV: "production" }, true],
    [{ AUTH_TRUST_HOST: "1", NODE_ENV: "production" }, true],
    [{ AUTH_TRUST_HOST: "TRUE", NODE_ENV: "production" }, true],
    [{ AUTH_TRUST_HOST: "false" }, false],
    [{ AUTH_TRUST_HOST: "0" }, false],
    [{ AUTH_TRUST_HOST: "yes", NODE_ENV: "production" }, false],
    [{ AUTH_TRUST_HOST: "false", AUTH_URL: "https://app.test" }, false],
    [{ NODE_ENV: "production" }, false],
    [{ NODE_ENV: "production", AUTH_URL: "https://app.test" }, true],
    [{ NODE_ENV: "production", LEGACYAUTH_URL: "https://app.test" }, true],
    [{ NODE_ENV: "production", NEXTAUTH_URL: "https://app.test" }, true],
    [{ NODE_ENV: "production", VERCEL: "1" }, true],
    [{ NODE_ENV: "production", CF_PAGES: "1" }, true],
    [{ NODE_ENV: "production", VERCEL: "0" }, false],
    [{ NODE_ENV: "development" }, true],
    [{}, true],
  ] as const)("%j → %s", (env, expected) => {
    expect(envTrustHost(env)).toBe(expected)
  })

  it("keeps an explicit trustHost", () => {
    expect(envDefaults({ NODE_ENV: "production" }, { providers: [], trustHost: true }).trustHost).toBe(true)
    expect(envDefaults({ AUTH_TRUST_HOST: "true" }, { providers: [], trustHost: false }).trustHost).toBe(false)
  })
})

describe("base path inference", () => {
  it.each([
    [{}, undefined, "/auth"],
    [{ AUTH_URL: "https://app.test/api/auth" }, undefined, "/api/auth"],
    [{ LEGACYAUTH_URL: "https://app.test/custom" }, undefined, "/custom"],
    [{ NEXTAUTH_URL: "https://app.test/api/auth" }, undefined, "/api/auth"],
    [{ AUTH_URL: "https://app.test/one", NEXTAUTH_URL: "https://app.test/two" }, undefined, "/one"],
    [{ AUTH_URL: "https://app.test" }, undefined, "/auth"],
    [{ AUTH_URL: "https://app.test/" }, undefined, "/auth"],
    [{ AUTH_URL: "not a url" }, undefined, "/auth"],
    [{ AUTH_URL: "https://app.test/api/auth" }, "/explicit", "/explicit"],
    [{}, "/explicit", "/explicit"],
  ] as const)("%j with basePath %s → %s", (env, basePath, expected) => {
    expect(envDefaults(env, { providers: [], basePath }).basePath).toBe(expected)
  })

  it("warns when AUTH_URL has a path and basePath is set too", () => {
    expect(envDefaults({ AUTH_URL: "https://app.test/api/auth" }, { providers: [], basePath: "/x" }).warnings).toEqual([
      "env-url-basepath-redundant",
    ])
    expect(envDefaults({ AUTH_URL: "https://app.test" }, { providers: [], basePath: "/x" }).warnings).toEqual([])
  })
})

describe("redirect proxy", () => {
  it("comes from AUTH_REDIRECT_PROXY_URL unless configured", () => {
    const env = { AUTH_REDIRECT_PROXY_URL: "https://proxy.test/api/auth" }
    expect(envDefaults(env, { providers: [] }).redirectProxyUrl).toBe("https://proxy.test/api/auth")
    expect(envDefaults(env, { providers: [], redirectProxyUrl: "https://mine.test" }).redirectProxyUrl).toBe("https://mine.test")
  })
})

describe("provider credentials from AUTH_{PROVIDER}_*", () => {
  it.each([
    ["github", "GITHUB"],
    ["microsoft-entra-id", "MICROSOFT_ENTRA_ID"],
    ["azureAd", "AZUREAD"],
    ["my.provider", "MY_PROVIDER"],
  ])("spells %s as %s", (id, name) => {
    expect(providerEnvName(id)).toBe(name)
  })

  it("fills clientId, clientSecret and issuer of an OAuth provider object", () => {
    const env = { AUTH_GITHUB_ID: "id", AUTH_GITHUB_SECRET: "secret", AUTH_GITHUB_ISSUER: "https://issuer.test" }
    const [provider] = envDefaults(env, { providers: [github()] }).providers
    expect(provider).toMatchObject({ clientId: "id", clientSecret: "secret", issuer: "https://issuer.test" })
  })

  it("keeps explicit provider options over the environment", () => {
    const env = { AUTH_GITHUB_ID: "env-id", AUTH_GITHUB_SECRET: "env-secret" }
    const [provider] = envDefaults(env, { providers: [{ ...github(), clientId: "mine" }] }).providers
    expect(provider).toMatchObject({ clientId: "mine", clientSecret: "env-secret" })
  })

  it("lays an Auth.js-style custom provider's `options` over its defaults, as Auth.js does (nested objects merged), the environment filling the rest", () => {
    // How Auth.js's own providers and its docs' custom providers are written: the user's options handed back under `options`.
    function Corp(options: Record<string, unknown>) {
      return {
        id: "corp",
        name: "Corp",
        type: "oauth" as const,
        authorization: { url: "https://corp.test/authorize", params: { scope: "read" } },
        token: "https://corp.test/token",
        userinfo: "https://corp.test/me",
        options,
      }
    }
    const env = { AUTH_CORP_SECRET: "env-secret" }
    const listed = Corp({ clientId: "corp-id", authorization: { params: { prompt: "login" } } }) as unknown as Provider
    const [provider] = envDefaults(env, { providers: [listed] }).providers
    expect(provider).toMatchObject({
      id: "corp",
      clientId: "corp-id",
      clientSecret: "env-secret",
      authorization: { url: "https://corp.test/authorize", params: { scope: "read", prompt: "login" } },
    })
    expect(provider).not.toHaveProperty("options")
    // An id given among the options renames the provider, as in Auth.js; the environment then follows the new id.
    const [renamed] = envDefaults({ AUTH_CORP_WORK_ID: "work-id" }, { providers: [Corp({ id: "corp-work" }) as unknown as Provider] }).providers
    expect(renamed).toMatchObject({ id: "corp-work", clientId: "work-id" })
  })

  it("calls provider factories with the environment's values", () => {
    const factory = vi.fn((options: { clientId?: string }) => ({ ...github(), id: "my-idp", clientId: options.clientId }))
    const [provider] = envDefaults({ AUTH_MY_IDP_ID: "from-env" }, { providers: [factory as Provider] }).providers
    expect(provider).toMatchObject({ id: "my-idp", clientId: "from-env" })
    expect(factory).toHaveBeenLastCalledWith(expect.objectContaining({ clientId: "from-env" }))
  })

  it("fills apiKey of an email provider from AUTH_{ID}_KEY, and nothing of a credentials provider", () => {
    const email: EmailConfig = { id: "resend", name: "Resend", type: "email", sendVerificationRequest: () => {} }
    const credentials = { id: "credentials", name: "C", type: "credentials" as const, credentials: {}, authorize: () => null }
    const env = { AUTH_RESEND_KEY: "re_123", AUTH_CREDENTIALS_ID: "ignored" }
    const [mail, creds] = envDefaults(env, { providers: [email, credentials] }).providers
    expect(mail).toMatchObject({ apiKey: "re_123" })
    expect(creds).not.toHaveProperty("clientId")
  })

  it("never modifies the provider objects it was given", () => {
    const provider = github()
    const before = structuredClone(provider)
    envDefaults({ AUTH_GITHUB_ID: "id" }, { providers: [provider] })
    expect(provider).toEqual(before)
  })
})

describe("setEnvDefaults", () => {
  it("fills the config in place, explicit options winning", () => {
    const config: AuthConfig = { providers: [github()], trustHost: false }
    setEnvDefaults(
      { AUTH_SECRET: "s", AUTH_URL: "https://app.test/api/auth", AUTH_GITHUB_ID: "id", AUTH_REDIRECT_PROXY_URL: "https://p.test" },
      config,
    )
    expect(config).toMatchObject({
      basePath: "/api/auth",
      secret: ["s"],
      trustHost: false,
      redirectProxyUrl: "https://p.test",
    })
    expect(config.providers[0]).toMatchObject({ clientId: "id" })
  })

  it("throws InvalidConfig without a config object", () => {
    expect(() => setEnvDefaults({}, undefined as unknown as AuthConfig)).toThrow(/needs the config object/)
  })

  it("logs the basePath warning through the config's logger", () => {
    const warn = vi.fn()
    setEnvDefaults({ AUTH_URL: "https://app.test/api/auth" }, { providers: [], basePath: "/x", logger: { warn } })
    expect(warn).toHaveBeenCalledWith("env-url-basepath-redundant", expect.stringContaining("`basePath` wins"))
  })

  it("warns once, in production only, when AUTH_TRUST_HOST is set without AUTH_URL (Host then names every URL)", () => {
    // Warnings are shown once per process and configuration (its base path and providers): each
    // case here is a configuration of its own.
    let configurations = 0
    const warnings = (env: Record<string, string>, config: Partial<AuthConfig> = {}) => {
      const warn = vi.fn()
      setEnvDefaults(env, { providers: [], basePath: `/case-${++configurations}`, logger: { warn }, ...config })
      return warn.mock.calls.map(([code]) => code)
    }
    expect(warnings({ AUTH_TRUST_HOST: "true", NODE_ENV: "production" })).toEqual(["trust-host-without-url"])
    expect(warnings({ AUTH_TRUST_HOST: "1", NODE_ENV: "production" })).toEqual(["trust-host-without-url"])
    // The same configuration again (setEnvDefaults on every request, as Auth.js's integrations call it): said once.
    expect(warnings({ AUTH_TRUST_HOST: "true", NODE_ENV: "production" }, { basePath: "/case-1" })).toEqual([])
    expect(warnings({ AUTH_TRUST_HOST: "true", NODE_ENV: "production", AUTH_URL: "https://app.test" })).toEqual([])
    expect(warnings({ AUTH_TRUST_HOST: "true", NODE_ENV: "development" })).toEqual([])
    expect(warnings({ AUTH_TRUST_HOST: "false", NODE_ENV: "production" })).toEqual([])
    expect(warnings({ AUTH_TRUST_HOST: "true", NODE_ENV: "production" }, { trustHost: true })).toEqual([])
    // resolveConfig(config, env) reports it the same way, logged on the configuration's first request.
    expect(envDefaults({ AUTH_TRUST_HOST: "true", NODE_ENV: "production" }, { providers: [] }).warnings).toEqual(["trust-host-without-url"])
  })
})

import { describe, expect, it } from "vitest"
import { WARNING_MESSAGES } from "../../src/core/logger.js"
import { appFolder, doctorJson, strongSecret, writeEnvFiles } from "./doctor-support.js"

const app = appFolder()
const secret = strongSecret()

describe("gatehouse doctor: the secret", () => {
  it("is a problem when no secret variable is set (an empty one counts as unset, as for the app)", async () => {
    const { code, of } = await doctorJson(app.dir, { AUTH_SECRET: "" })
    expect(code).toBe(1)
    expect(of("secret")).toEqual([expect.objectContaining({ level: "error", message: expect.stringMatching(/^no secret: none of AUTH_SECRET, LEGACYAUTH_SECRET, NEXTAUTH_SECRET, AUTH_SECRET_3, AUTH_SECRET_2, AUTH_SECRET_1 is set.*npx gatehouse-auth secret/) })])
  })

  it("is ok with one secret long enough, naming the variable and its file", async () => {
    writeEnvFiles(app.dir, { ".env.local": `AUTH_SECRET="${secret}"\n` })
    const { code, of } = await doctorJson(app.dir, {})
    expect(code).toBe(0)
    expect(of("secret")).toEqual([{ check: "secret", level: "ok", message: "AUTH_SECRET (from .env.local) encrypts" }])
  })

  it("warns about a short secret with the core's own secret-too-short message", async () => {
    const { code, of } = await doctorJson(app.dir, { AUTH_SECRET: secret, AUTH_SECRET_1: "x".repeat(31) })
    expect(code).toBe(0)
    expect(of("secret")).toContainEqual({ check: "secret", level: "warn", message: `AUTH_SECRET_1 (from the environment): ${WARNING_MESSAGES["secret-too-short"]}` })
    // 32 characters is long enough, as for the core.
    const { of: of32 } = await doctorJson(app.dir, { AUTH_SECRET: "x".repeat(32) })
    expect(of32("secret").map((finding) => finding.level)).toEqual(["ok"])
  })

  it("gives the rotation order the library uses: _3, _2, _1, then AUTH_SECRET; the first encrypts", async () => {
    const { of } = await doctorJson(app.dir, { AUTH_SECRET: strongSecret(), AUTH_SECRET_1: strongSecret(), AUTH_SECRET_3: strongSecret() })
    expect(of("secret")).toEqual([
      { check: "secret", level: "ok", message: "AUTH_SECRET_3 (from the environment) encrypts; AUTH_SECRET_1 (from the environment), AUTH_SECRET (from the environment) still decrypt older tokens (rotation)" },
    ])
  })

  it("reads the older names in the library's order and warns about the ones it ignores", async () => {
    const legacy = await doctorJson(app.dir, { LEGACYAUTH_SECRET: strongSecret(), NEXTAUTH_SECRET: strongSecret() })
    expect(legacy.of("secret")).toEqual([
      { check: "secret", level: "ok", message: "LEGACYAUTH_SECRET (from the environment) encrypts" },
      { check: "secret", level: "warn", message: "NEXTAUTH_SECRET (from the environment) is ignored: LEGACYAUTH_SECRET is used; remove one of them" },
    ])
    const next = await doctorJson(app.dir, { NEXTAUTH_SECRET: strongSecret() })
    expect(next.of("secret")).toEqual([{ check: "secret", level: "ok", message: "NEXTAUTH_SECRET (from the environment) encrypts" }])
  })

  it("warns about rotation variables the library never reads, and about a secret listed twice", async () => {
    const { code, of } = await doctorJson(app.dir, { AUTH_SECRET: secret, AUTH_SECRET_2: secret, AUTH_SECRET_4: strongSecret() })
    expect(code).toBe(0)
    expect(of("secret").filter((finding) => finding.level === "warn").map((finding) => finding.message)).toEqual([
      "AUTH_SECRET (from the environment) repeats an earlier secret of the list; it adds nothing to the rotation",
      "AUTH_SECRET_4 (from the environment) is not read: rotation takes AUTH_SECRET_1 to AUTH_SECRET_3",
    ])
  })
})

describe("gatehouse doctor: URL, trusted host, base path and cookies", () => {
  const messages = (findings: { message: string }[]) => findings.map((finding) => finding.message)

  it("outside production without AUTH_URL: trusts the host, default base path, cookie names by each request's protocol", async () => {
    const { code, of } = await doctorJson(app.dir, { AUTH_SECRET: secret, NODE_ENV: "development" })
    expect(code).toBe(0)
    expect(of("url").every((finding) => finding.level === "ok")).toBe(true)
    expect(messages(of("url"))).toEqual([
      'the Host header is trusted (AUTH_TRUST_HOST is unset, NODE_ENV is "development")',
      expect.stringMatching(/^no AUTH_URL: each request's own host and protocol make the URLs; base path \/auth unless the config sets `basePath`/),
      expect.stringContaining("__Secure-authjs.session-token and __Host-authjs.csrf-token on https, authjs.session-token and authjs.csrf-token on http"),
    ])
  })

  it("in production without AUTH_URL or AUTH_TRUST_HOST: warns that the host is not trusted", async () => {
    const { code, of } = await doctorJson(app.dir, { AUTH_SECRET: secret, NODE_ENV: "production" })
    expect(code).toBe(0)
    expect(of("url")[0]).toEqual({
      check: "url",
      level: "warn",
      message: 'the Host header is not trusted (AUTH_TRUST_HOST is unset, NODE_ENV is "production"): unless the config sets `trustHost: true`, auth routes answer UntrustedHost; set AUTH_URL to the public URL',
    })
  })

  it("in production trusting the host without AUTH_URL: gives the core's trust-host-without-url warning", async () => {
    const { of } = await doctorJson(app.dir, { AUTH_SECRET: secret, NODE_ENV: "production", AUTH_TRUST_HOST: "true" })
    expect(of("url")).toContainEqual({ check: "url", level: "ok", message: 'the Host header is trusted (AUTH_TRUST_HOST (from the environment) is "true")' })
    expect(of("url")).toContainEqual({ check: "url", level: "warn", message: `trust-host-without-url: ${WARNING_MESSAGES["trust-host-without-url"]}` })
  })

  it("trusts the host in production on Vercel, but not for VERCEL=0, as the library does", async () => {
    const vercel = await doctorJson(app.dir, { AUTH_SECRET: secret, NODE_ENV: "production", VERCEL: "1" })
    expect(vercel.of("url")[0]).toEqual({ check: "url", level: "ok", message: "the Host header is trusted (AUTH_TRUST_HOST is unset, VERCEL is set)" })
    const off = await doctorJson(app.dir, { AUTH_SECRET: secret, NODE_ENV: "production", VERCEL: "0" })
    expect(off.of("url")[0]).toMatchObject({ level: "warn", message: expect.stringMatching(/^the Host header is not trusted \(AUTH_TRUST_HOST is unset, NODE_ENV is "production"\)/) })
  })

  it("takes AUTH_TRUST_HOST=false as no, as the library does", async () => {
    // AUTH_URL does not make up for it: the library refuses an untrusted host whatever the URL.
    const { of } = await doctorJson(app.dir, { AUTH_SECRET: secret, AUTH_TRUST_HOST: "false", AUTH_URL: "https://app.example.com" })
    expect(of("url")[0]).toEqual({
      check: "url",
      level: "warn",
      message: 'the Host header is not trusted (AUTH_TRUST_HOST (from the environment) is "false"): unless the config sets `trustHost: true`, auth routes answer UntrustedHost; set AUTH_TRUST_HOST=true, or remove it and set AUTH_URL',
    })
  })

  it("with an https AUTH_URL: its path is the base path, and cookies are Secure with __Secure-/__Host- names", async () => {
    writeEnvFiles(app.dir, { ".env": "AUTH_URL=https://app.example.com/api/auth\n" })
    const { code, of } = await doctorJson(app.dir, { AUTH_SECRET: secret, NODE_ENV: "production" })
    expect(code).toBe(0)
    expect(of("url")).toEqual([
      { check: "url", level: "ok", message: "the Host header is trusted (AUTH_URL is set)" },
      { check: "url", level: "ok", message: "AUTH_URL (from .env): auth routes at https://app.example.com/api/auth/… (base path /api/auth, unless the config sets `basePath`)" },
      { check: "url", level: "ok", message: "cookies are Secure and prefixed: __Secure-authjs.session-token, __Host-authjs.csrf-token" },
    ])
  })

  it("with an http AUTH_URL: no prefixes; a warning in production unless it is this machine", async () => {
    const dev = await doctorJson(app.dir, { AUTH_SECRET: secret, AUTH_URL: "http://localhost:3000" })
    expect(dev.of("url").at(-1)).toEqual({ check: "url", level: "ok", message: "AUTH_URL is http: cookies are neither Secure nor prefixed (authjs.session-token, authjs.csrf-token)" })
    const production = await doctorJson(app.dir, { AUTH_SECRET: secret, AUTH_URL: "http://app.example.com", NODE_ENV: "production" })
    expect(production.of("url").at(-1)).toMatchObject({ level: "warn", message: expect.stringMatching(/^AUTH_URL is http: .*; in production, serve and set an https URL$/) })
    expect(production.code).toBe(0)
  })

  it("is a problem when AUTH_URL is not a URL the library can use, and never prints it", async () => {
    for (const url of ["https://admin:hunter2hunter2@app.example.com", "ftp://app.example.com", "not a url at all"]) {
      const { code, of, stdout } = await doctorJson(app.dir, { AUTH_SECRET: secret, AUTH_URL: url })
      expect(code).toBe(1)
      expect(of("url")).toContainEqual(expect.objectContaining({ level: "error", message: expect.stringMatching(/^AUTH_URL \(from the environment\) is not usable: /) }))
      expect(stdout).not.toContain("hunter2hunter2")
    }
  })

  it("reads NEXTAUTH_URL when AUTH_URL is unset, and warns that it is ignored when both are set", async () => {
    const next = await doctorJson(app.dir, { AUTH_SECRET: secret, NEXTAUTH_URL: "https://next.example.com" })
    expect(messages(next.of("url"))).toContain("NEXTAUTH_URL (from the environment): auth routes at https://next.example.com/auth/… (base path /auth, unless the config sets `basePath`)")
    const both = await doctorJson(app.dir, { AUTH_SECRET: secret, NEXTAUTH_URL: "https://next.example.com", AUTH_URL: "https://app.example.com" })
    expect(both.of("url")[0]).toEqual({ check: "url", level: "warn", message: "NEXTAUTH_URL (from the environment) is ignored: AUTH_URL is used; remove one of them" })
  })
})

describe("gatehouse doctor: providers", () => {
  it("says none are set when no AUTH_<PROVIDER>_* variable is", async () => {
    const { of } = await doctorJson(app.dir, { AUTH_SECRET: secret, AUTH_URL: "https://app.example.com", AUTH_TRUST_HOST: "1" })
    expect(of("providers")).toEqual([expect.objectContaining({ level: "ok", message: expect.stringMatching(/^no AUTH_<PROVIDER>_ID\/_SECRET\/_ISSUER\/_KEY variables set/) })])
  })

  it("lists each provider's variables with their sources, ids with dashes spelled as the library spells them", async () => {
    writeEnvFiles(app.dir, { ".env": "AUTH_GITHUB_ID=Iv1.abc\nAUTH_MICROSOFT_ENTRA_ID_ID=app-id\nAUTH_MICROSOFT_ENTRA_ID_ISSUER=https://login.microsoftonline.com/tenant/v2.0\n" })
    const { code, of } = await doctorJson(app.dir, { AUTH_SECRET: secret, AUTH_GITHUB_SECRET: "gh-secret-value", AUTH_MICROSOFT_ENTRA_ID_SECRET: "entra-secret-value", AUTH_RESEND_KEY: "re_key_value" })
    expect(code).toBe(0)
    expect(of("providers")).toEqual([
      { check: "providers", level: "ok", message: "github: AUTH_GITHUB_ID (from .env), AUTH_GITHUB_SECRET (from the environment)" },
      {
        check: "providers",
        level: "ok",
        message: "microsoft_entra_id: AUTH_MICROSOFT_ENTRA_ID_ID (from .env), AUTH_MICROSOFT_ENTRA_ID_SECRET (from the environment), AUTH_MICROSOFT_ENTRA_ID_ISSUER (from .env)",
      },
      { check: "providers", level: "ok", message: "resend: AUTH_RESEND_KEY (from the environment)" },
    ])
  })

  it("warns about an id without its secret (an empty secret counts as unset) and a secret without its id", async () => {
    const { code, of } = await doctorJson(app.dir, { AUTH_SECRET: secret, AUTH_GITHUB_ID: "Iv1.abc", AUTH_GITHUB_SECRET: "", AUTH_GOOGLE_SECRET: "google-secret-value" })
    expect(code).toBe(0)
    expect(of("providers")).toEqual([
      { check: "providers", level: "warn", message: "github: AUTH_GITHUB_ID (from the environment) is set without AUTH_GITHUB_SECRET" },
      { check: "providers", level: "warn", message: "google: AUTH_GOOGLE_SECRET (from the environment) is set without AUTH_GOOGLE_ID" },
    ])
  })

  it("warns about an issuer that is not an http(s) URL", async () => {
    const { of } = await doctorJson(app.dir, { AUTH_SECRET: secret, AUTH_KEYCLOAK_ID: "id", AUTH_KEYCLOAK_SECRET: "keycloak-secret", AUTH_KEYCLOAK_ISSUER: "keycloak.internal/realms/app" })
    expect(of("providers")).toEqual([{ check: "providers", level: "warn", message: "keycloak: AUTH_KEYCLOAK_ISSUER (from the environment) is not an http(s) URL" }])
  })
})

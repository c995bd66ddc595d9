/**
 * `twoFactor` in the configuration: its defaults once resolved, the values refused (each named),
 * the adapter it needs, and that a configuration without it resolves and checks as before.
 */
import { describe, expect, it } from "vitest"
import { assertConfig } from "../../src/core/assert-config.js"
import { resolveConfig } from "../../src/core/config.js"
import { InvalidConfig } from "../../src/errors.js"
import type { Adapter, AuthConfig, EmailConfig, TwoFactorOptions } from "../../src/types.js"

const secret = "two-factor-config-secret-0123456789abcdef"
const url = "https://app.test/auth/session"
const email: EmailConfig = { id: "email", name: "Email", type: "email", sendVerificationRequest: () => {} }
const emailMethods = ["createVerificationToken", "useVerificationToken", "getUserByEmail", "createUser", "updateUser"]
const twoFactorMethods = ["getUser", "getTwoFactor", "setTotpPendingSecret", "enableTotp", "useTotpStep", "updateTotpSecret",
  "replaceRecoveryCodes", "useRecoveryCode", "incrementTwoFactorTrustVersion", "deleteTwoFactor"]
const databaseMethods = ["createSession", "getSessionAndUser", "updateSession", "deleteSession", "createSessionDetails", "updateSessionAuthentication"]
const adapterWith = (names: string[]): Adapter => Object.fromEntries(names.map((name) => [name, () => null])) as Adapter
/** An adapter with every method a two-factor configuration needs under JWT sessions, and `hitRateLimit`. */
const adapter = adapterWith([...twoFactorMethods, ...emailMethods, "hitRateLimit"])

function config(twoFactor: TwoFactorOptions | undefined, extra: Partial<AuthConfig> = {}): AuthConfig {
  return { secret, trustHost: true, providers: [email], adapter, session: { strategy: "jwt" }, ...(twoFactor !== undefined && { twoFactor }), ...extra }
}
function errorOf(twoFactor: TwoFactorOptions, extra?: Partial<AuthConfig>) {
  const { error } = assertConfig(resolveConfig(config(twoFactor, extra), {}), { url })
  return error && { type: error.type, message: error.message }
}

describe("twoFactor: resolution", () => {
  it("is off when not configured", () => {
    expect(resolveConfig(config(undefined), {}).twoFactor).toBeUndefined()
  })

  it("fills in the defaults: require enrolled, 10 recovery codes, freshAge 600, passkeys count as two, no trust", () => {
    expect(resolveConfig(config({ totp: { issuer: "Acme" } }), {}).twoFactor).toEqual({
      totp: { issuer: "Acme" },
      email: undefined,
      require: "enrolled",
      recoveryCodes: 10,
      freshAge: 600,
      trustDevice: undefined,
      passkey: "two-factor",
      notify: undefined,
    })
  })

  it("reads the issue's configuration as written", () => {
    const resolved = resolveConfig(config({ totp: { issuer: "Acme" }, email: true, require: "always", recoveryCodes: 8, freshAge: 300, trustDevice: { maxAge: 30 * 24 * 60 * 60 } }), {})
    expect(resolved.twoFactor).toMatchObject({ email: { digits: 6 }, require: "always", recoveryCodes: 8, freshAge: 300, trustDevice: { maxAge: 2592000 } })
    expect(Object.isFrozen(resolved.twoFactor)).toBe(true)
    expect(assertConfig(resolved, { url }).error).toBeUndefined()
  })

  it("takes the email code's digits, and false as off", () => {
    expect(resolveConfig(config({ totp: { issuer: "A" }, email: { digits: 8 } }), {}).twoFactor?.email).toEqual({ digits: 8 })
    expect(resolveConfig(config({ totp: { issuer: "A" }, email: false, trustDevice: false }), {}).twoFactor).toMatchObject({ email: undefined, trustDevice: undefined })
  })

  it.each([
    [null, "`twoFactor` must be an object"],
    [true, "`twoFactor` must be an object"],
    [{ totp: "Acme" }, "`twoFactor.totp` must be an object"],
    [{ totp: true }, "`twoFactor.totp` must be an object"],
    [{ email: "yes" }, "`twoFactor.email` must be an object, true or false"],
    [{ trustDevice: 30 }, "`twoFactor.trustDevice` must be an object"],
  ])("refuses the unreadable %j with InvalidConfig", (twoFactor, message) => {
    expect(() => resolveConfig({ ...config(undefined), twoFactor } as unknown as AuthConfig, {})).toThrow(InvalidConfig)
    expect(() => resolveConfig({ ...config(undefined), twoFactor } as unknown as AuthConfig, {})).toThrow(message)
  })
})

describe("twoFactor: assertions", () => {
  it.each([
    [{}, "needs a second factor to offer"],
    [{ totp: false, email: false }, "needs a second factor to offer"],
    [{ totp: { issuer: "" } }, "twoFactor.totp.issuer"],
    [{ totp: { issuer: "   " } }, "twoFactor.totp.issuer"],
    [{ totp: { issuer: "x".repeat(101) } }, "twoFactor.totp.issuer"],
    [{ totp: {} }, "twoFactor.totp.issuer"],
    [{ email: { digits: 5 } }, "twoFactor.email.digits"],
    [{ email: { digits: 9 } }, "twoFactor.email.digits"],
    [{ totp: { issuer: "A" }, require: "sometimes" }, "twoFactor.require"],
    [{ totp: { issuer: "A" }, recoveryCodes: 21 }, "twoFactor.recoveryCodes"],
    [{ totp: { issuer: "A" }, recoveryCodes: -1 }, "twoFactor.recoveryCodes"],
    [{ totp: { issuer: "A" }, recoveryCodes: 2.5 }, "twoFactor.recoveryCodes"],
    [{ totp: { issuer: "A" }, freshAge: 59 }, "twoFactor.freshAge"],
    [{ totp: { issuer: "A" }, freshAge: 86401 }, "twoFactor.freshAge"],
    [{ totp: { issuer: "A" }, freshAge: "600" }, 'received "600"'],
    [{ totp: { issuer: "A" }, trustDevice: { maxAge: 401 * 24 * 60 * 60 } }, "twoFactor.trustDevice.maxAge"],
    [{ totp: { issuer: "A" }, trustDevice: { maxAge: 0 } }, "twoFactor.trustDevice.maxAge"],
    [{ totp: { issuer: "A" }, trustDevice: {} }, "twoFactor.trustDevice.maxAge"],
    [{ totp: { issuer: "A" }, passkey: "both" }, "twoFactor.passkey"],
    [{ totp: { issuer: "A" }, notify: true }, "twoFactor.notify"],
  ] as [TwoFactorOptions, string][])("refuses %j as InvalidConfig", (twoFactor, mention) => {
    const result = errorOf(twoFactor)
    expect(result?.type).toBe("InvalidConfig")
    expect(result?.message).toContain(mention)
  })

  it("refuses email codes without an email provider to send them", () => {
    const result = errorOf({ email: true }, { providers: [] })
    expect(result?.type).toBe("InvalidConfig")
    expect(result?.message).toContain("email provider")
    expect(errorOf({ email: true })).toBeUndefined()
  })

  it("accepts a require function, notify false or a function, and passkeys as one factor", () => {
    expect(errorOf({ totp: { issuer: "A" }, require: () => true, notify: false, passkey: "one-factor" })).toBeUndefined()
    expect(errorOf({ totp: { issuer: "A" }, notify: () => {} })).toBeUndefined()
  })

  it("requires an adapter", () => {
    expect(errorOf({ totp: { issuer: "A" } }, { adapter: undefined, providers: [] })).toEqual({
      type: "MissingAdapter",
      message: "Two-factor sign-in (twoFactor) requires an adapter",
    })
  })

  it("refuses an adapter without Gatehouse's two-factor methods (an Auth.js adapter), naming them", () => {
    const result = errorOf({ totp: { issuer: "A" } }, { adapter: adapterWith(emailMethods) })
    expect(result?.type).toBe("MissingAdapterMethods")
    for (const method of twoFactorMethods.filter((name) => name !== "getUser")) expect(result?.message).toContain(method)
  })

  it("under database sessions, also requires storing how a session was authenticated", () => {
    const result = errorOf({ totp: { issuer: "A" } }, { session: { strategy: "database" }, adapter: adapterWith([...twoFactorMethods, ...emailMethods, "createSession", "getSessionAndUser", "updateSession", "deleteSession"]) })
    expect(result).toEqual({ type: "MissingAdapterMethods", message: "Required adapter methods were missing: createSessionDetails, updateSessionAuthentication" })
    expect(errorOf({ totp: { issuer: "A" } }, { session: { strategy: "database" }, adapter: adapterWith([...twoFactorMethods, ...emailMethods, ...databaseMethods]) })).toBeUndefined()
  })

  it("warns when tries and finished sign-ins could only be counted per process", () => {
    const inMemory = resolveConfig(config({ totp: { issuer: "A" } }, { adapter: adapterWith([...twoFactorMethods, ...emailMethods]) }), {})
    expect(assertConfig(inMemory, { url }).warnings).toContain("two-factor-counts-in-memory")
    expect(assertConfig(resolveConfig(config({ totp: { issuer: "A" } }), {}), { url }).warnings).not.toContain("two-factor-counts-in-memory")
  })

  it("changes nothing for a configuration without it", () => {
    const { error, warnings } = assertConfig(resolveConfig(config(undefined, { adapter: adapterWith(emailMethods) }), {}), { url })
    expect(error).toBeUndefined()
    expect(warnings.filter((code) => code.startsWith("two-factor"))).toEqual([])
  })
})

/**
 * An organization's policy (issue 39): which requirements a session does not meet
 * (`unmetRequirements`: two-factor sign-in, allowed sign-in methods; failing closed when
 * two-factor is not configured or the sign-in method is unknown), and the check of a policy an
 * owner sets (`checkedPolicy`: known fields, lists of strings, domains normalised).
 */
import { describe, expect, it } from "vitest"
import type { AdapterOrganization, AdapterSessionContext, OrganizationPolicy } from "../../src/adapters/index.js"
import { resolveConfig } from "../../src/core/config.js"
import { toInternalRequest } from "../../src/core/internal-request.js"
import type { SessionFacts } from "../../src/core/organizations/active.js"
import { checkedPolicy, unmetRequirements } from "../../src/core/organizations/policy.js"
import { createRequestContext, type RequestContext } from "../../src/core/request-context.js"
import { InvalidRequest } from "../../src/errors.js"
import type { AuthConfig, SessionAuthentication } from "../../src/types.js"
import { secret } from "../flow/flow-helpers.js"

async function context(extra: Partial<AuthConfig> = {}): Promise<RequestContext> {
  const config: AuthConfig = { secret, trustHost: true, providers: [], organizations: {}, ...extra }
  return createRequestContext(resolveConfig(config), await toInternalRequest(new Request("https://app.test/auth/session"), "/auth"))
}

const withTwoFactor: Partial<AuthConfig> = { twoFactor: { totp: { issuer: "Tests" } } }

function organization(policy: OrganizationPolicy | null): AdapterOrganization {
  return { id: "org-1", name: "Acme", slug: "acme", createdAt: new Date(), policy }
}

function facts(aal: 1 | 2 | undefined, signInProvider: string | null = "github"): SessionFacts {
  const context: AdapterSessionContext = { activeOrganizationId: "org-1", impersonatorId: null, signInProvider }
  const authentication: SessionAuthentication | undefined = aal === undefined ? undefined : { aal, amr: aal === 2 ? ["pwd", "otp", "mfa"] : ["pwd"], secondFactorAt: null }
  return { userId: "user-1", context, authentication }
}

describe("unmetRequirements", () => {
  it("is empty without a policy, or with one that requires nothing", async () => {
    const ctx = await context(withTwoFactor)
    expect(unmetRequirements(ctx, organization(null), facts(1))).toEqual([])
    expect(unmetRequirements(ctx, organization({}), facts(1, null))).toEqual([])
    expect(unmetRequirements(ctx, organization({ requireTwoFactor: false, emailDomains: ["corp.test"] }), facts(1, null))).toEqual([])
  })

  it("lists two-factor for a session signed in with one factor, not for one with two", async () => {
    const ctx = await context(withTwoFactor)
    const strict = organization({ requireTwoFactor: true })
    expect(unmetRequirements(ctx, strict, facts(1))).toEqual(["two-factor"])
    expect(unmetRequirements(ctx, strict, facts(undefined))).toEqual(["two-factor"])
    expect(unmetRequirements(ctx, strict, facts(2))).toEqual([])
  })

  it("fails closed when two-factor sign-in is not configured: no session meets the requirement", async () => {
    const ctx = await context()
    expect(unmetRequirements(ctx, organization({ requireTwoFactor: true }), facts(2))).toEqual(["two-factor"])
  })

  it("lists sign-in-method unless the session's recorded provider is allowed; an unrecorded one is not", async () => {
    const ctx = await context(withTwoFactor)
    const restricted = organization({ signInMethods: ["google", "oidc"] })
    expect(unmetRequirements(ctx, restricted, facts(1, "github"))).toEqual(["sign-in-method"])
    expect(unmetRequirements(ctx, restricted, facts(1, null))).toEqual(["sign-in-method"])
    expect(unmetRequirements(ctx, restricted, facts(1, "oidc"))).toEqual([])
    expect(unmetRequirements(ctx, organization({ signInMethods: [] }), facts(1, "oidc"))).toEqual(["sign-in-method"])
  })

  it("lists both when both are unmet", async () => {
    const ctx = await context(withTwoFactor)
    expect(unmetRequirements(ctx, organization({ requireTwoFactor: true, signInMethods: ["oidc"] }), facts(1, "credentials"))).toEqual(["two-factor", "sign-in-method"])
  })
})

describe("checkedPolicy", () => {
  // What the check reads of the configuration: the providers' ids and whether two-factor is on.
  const configured = { providers: [{ id: "oidc" }, { id: "github" }], twoFactor: {} } as unknown as Parameters<typeof checkedPolicy>[1]
  const withoutTwoFactor = { ...configured, twoFactor: undefined }
  const checked = (value: unknown) => checkedPolicy(value, configured)

  it("takes null and undefined as no policy, and keeps the fields given", () => {
    expect(checked(null)).toBeNull()
    expect(checked(undefined)).toBeNull()
    expect(checked({})).toEqual({})
    expect(checked({ requireTwoFactor: true, signInMethods: ["oidc", "oidc", "github"] })).toEqual({ requireTwoFactor: true, signInMethods: ["oidc", "github"] })
  })

  it("normalises domains: lower case, no leading @, NFKC, duplicates dropped", () => {
    expect(checked({ emailDomains: ["Corp.Test", "@corp.test", " eng.corp.test ", "ｃｏｒｐ．ｔｅｓｔ".normalize("NFC")] })).toEqual({ emailDomains: ["corp.test", "eng.corp.test"] })
  })

  it("refuses a policy no session could meet: a provider that is not configured, two-factor required without twoFactor", () => {
    expect(() => checked({ signInMethods: ["oidc", "google"] })).toThrow(/signInMethods names "google", which is not a configured provider; known ids are oidc, github/)
    expect(() => checkedPolicy({ requireTwoFactor: true }, withoutTwoFactor)).toThrow(InvalidRequest)
    expect(() => checkedPolicy({ requireTwoFactor: true }, withoutTwoFactor)).toThrow(/two-factor sign-in is not configured/)
    // Not requiring it needs nothing configured.
    expect(checkedPolicy({ requireTwoFactor: false, signInMethods: ["github"] }, withoutTwoFactor)).toEqual({ requireTwoFactor: false, signInMethods: ["github"] })
  })

  const refusals: [string, unknown, RegExp][] = [
    ["a list", [], /must be an object or null/],
    ["a string", "strict", /must be an object or null/],
    ["an unknown field", { requireTwoFactor: true, allowEveryone: true }, /Unknown organization policy field "allowEveryone"/],
    ["__proto__ as a field", JSON.parse('{"__proto__": {"requireTwoFactor": true}}'), /Unknown organization policy field "__proto__"/],
    ["a non-boolean requireTwoFactor", { requireTwoFactor: "yes" }, /requireTwoFactor must be true or false/],
    ["signInMethods that is not a list", { signInMethods: "oidc" }, /signInMethods must be a list of strings/],
    ["signInMethods with a number", { signInMethods: ["oidc", 3] }, /signInMethods must be a list of strings/],
    ["an empty signInMethods", { signInMethods: [] }, /at least one provider id/],
    ["an empty provider id", { signInMethods: [""] }, /not a provider id/],
    ["emailDomains with an object", { emailDomains: [{ domain: "corp.test" }] }, /emailDomains must be a list of strings/],
    ["an address as a domain", { emailDomains: ["ada@corp.test"] }, /not a domain: "ada@corp.test"/],
    ["an empty domain", { emailDomains: [""] }, /not a domain/],
    ["a domain with a space", { emailDomains: ["corp test"] }, /not a domain/],
    ["a domain with an empty label", { emailDomains: ["corp..test"] }, /not a domain/],
    ["too many domains", { emailDomains: Array.from({ length: 101 }, (_, i) => `d${i}.test`) }, /more than 100 entries/],
  ]
  it.each(refusals)("refuses %s with InvalidRequest naming it", (_name, value, message) => {
    let thrown: unknown
    try {
      checked(value)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(InvalidRequest)
    expect((thrown as Error).message).toMatch(message)
  })
})

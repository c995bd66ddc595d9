/**
 * An organization's policy as stored (issue 39), on memory, SQLite and PostgreSQL: what
 * `checkedPolicy` makes of an owner's input is stored and read back unchanged, and the read-back
 * organization is what `unmetRequirements` and joining by domain judge sessions and users by.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { AdapterSessionContext } from "../../src/adapters/index.js"
import { resolveConfig } from "../../src/core/config.js"
import { toInternalRequest } from "../../src/core/internal-request.js"
import { checkedPolicy, unmetRequirements } from "../../src/core/organizations/policy.js"
import { createRequestContext } from "../../src/core/request-context.js"
import { joinOrganization } from "../../src/index.js"
import { storedAdapters, type OpenStore } from "../flow/stored-adapters.js"
import { appRequest, newUser, orgConfig, seed, signedIn, type FullAdapter } from "./invitation-support.js"

describe.each(storedAdapters)("policy stored on $name", (store) => {
  let opened: OpenStore
  let adapter: FullAdapter
  beforeAll(async () => {
    opened = await store.open()
    adapter = opened.adapter as unknown as FullAdapter
  }, 60_000)
  afterAll(() => opened?.close())

  it("stores the checked policy and judges sessions and users by what it reads back", async () => {
    const seeded = await seed(adapter)
    const policy = checkedPolicy({ requireTwoFactor: true, signInMethods: ["oidc"], emailDomains: ["@Corp.Test"] }, { providers: [{ id: "oidc" }], twoFactor: {} } as unknown as Parameters<typeof checkedPolicy>[1])
    const updated = await adapter.updateOrganization(seeded.organization.id, { policy })
    expect(updated).not.toBe("slug-taken")
    const read = await adapter.getOrganization({ id: seeded.organization.id })
    expect(read?.policy).toEqual({ requireTwoFactor: true, signInMethods: ["oidc"], emailDomains: ["corp.test"] })

    const config = orgConfig(adapter, { twoFactor: { totp: { issuer: "Tests" } } })
    const ctx = await createRequestContext(resolveConfig(config), await toInternalRequest(new Request("https://app.test/auth/session"), "/auth"))
    const context = (signInProvider: string | null): AdapterSessionContext => ({ activeOrganizationId: read!.id, impersonatorId: null, signInProvider })
    expect(unmetRequirements(ctx, read!, { userId: seeded.member.id, context: context("credentials"), authentication: { aal: 1, amr: ["pwd"], secondFactorAt: null } })).toEqual([
      "two-factor",
      "sign-in-method",
    ])
    expect(unmetRequirements(ctx, read!, { userId: seeded.member.id, context: context("oidc"), authentication: { aal: 2, amr: ["fed", "otp", "mfa"], secondFactorAt: new Date().toISOString() } })).toEqual([])

    const colleague = await newUser(adapter, "corp.test")
    await joinOrganization(appRequest(await signedIn(config, colleague)), config, read!.id)
    expect(await adapter.getMember(read!.id, colleague.id)).toMatchObject({ role: "member" })
  })
})

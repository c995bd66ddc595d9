/**
 * `organizations` in the configuration: what assertConfig refuses before any request is served
 * (no adapter, an adapter without the organization methods, an access not from defineAccess, an
 * invitation lifetime out of range, hooks that are not functions), and what it lets through.
 */
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { assertConfig } from "../../src/core/assert-config.js"
import { resolveConfig } from "../../src/core/config.js"
import { defineAccess } from "../../src/index.js"
import type { Adapter, AuthConfig, OrganizationsOptions } from "../../src/types.js"

const url = "https://app.test/auth/session"

function errorOf(organizations: unknown, adapter: Adapter | null = MemoryAdapter()) {
  const config: AuthConfig = { secret: "organizations-config-secret-0123456789abcdef", trustHost: true, providers: [], ...(adapter && { adapter }), session: { strategy: "jwt" }, organizations: organizations as OrganizationsOptions }
  const { error } = assertConfig(resolveConfig(config, {}), { url })
  return error && { type: error.type, message: error.message }
}

describe("organizations: configuration checks", () => {
  it("accepts the memory adapter with defaults, defineAccess, a week's invitations and hooks", () => {
    expect(errorOf({})).toBeUndefined()
    expect(errorOf({ access: defineAccess({ project: ["create"] }, { roles: {} }), routes: true, invitationMaxAge: 7 * 24 * 3600, allowCreate: () => true, loadRole: () => null })).toBeUndefined()
  })

  it("needs an adapter, and one with the organization methods (getMembership included)", () => {
    expect(errorOf({}, null)).toMatchObject({ type: "MissingAdapter" })
    const { getMembership: _dropped, ...withoutMembership } = MemoryAdapter()
    expect(errorOf({}, withoutMembership)).toMatchObject({ type: "MissingAdapterMethods", message: expect.stringContaining("getMembership") })
    const authjsLike: Adapter = { createUser: async (user) => user, getUser: async () => null }
    expect(errorOf({}, authjsLike)).toMatchObject({ type: "MissingAdapterMethods", message: expect.stringContaining("createOrganization") })
  })

  it.each([
    ["an access not from defineAccess", { access: { roles: {} } }, "organizations.access"],
    ["invitations for less than a minute", { invitationMaxAge: 10 }, "invitationMaxAge"],
    ["invitations for a year", { invitationMaxAge: 365 * 24 * 3600 }, "invitationMaxAge"],
    ["a fractional lifetime", { invitationMaxAge: 3600.5 }, "invitationMaxAge"],
    ["allowCreate as text", { allowCreate: "yes" }, "allowCreate"],
    ["loadRole as an object", { loadRole: { editor: [] } }, "loadRole"],
    ["routes as text", { routes: "true" }, "organizations.routes"],
    ["options that are no object", "on", "organizations"],
  ])("refuses %s", (_name, organizations, named) => {
    expect(errorOf(organizations)).toMatchObject({ type: "InvalidConfig", message: expect.stringContaining(named) })
  })
})

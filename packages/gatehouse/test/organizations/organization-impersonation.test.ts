/**
 * Organizations during an admin's impersonation (issue 39), on every stored adapter and both
 * session strategies: the admin reads what the user sees (organizations, members, invitations,
 * the audit log) and may switch the active organization; every other change, by server function
 * or route, is refused with `ImpersonationRefused` (403 over the routes) and changes nothing.
 */
import { beforeEach, describe, expect, it } from "vitest"
import type { AdapterUser } from "../../src/adapters/index.js"
import { impersonateUser } from "../../src/core/admin/impersonation-functions.js"
import { ImpersonationRefused } from "../../src/errors.js"
import {
  createOrganization,
  deleteOrganization,
  getOrganization,
  inviteMember,
  joinOrganization,
  leaveOrganization,
  listInvitations,
  listMembers,
  listOrganizations,
  removeMember,
  revokeInvitation,
  setActiveOrganization,
  updateMemberRole,
  updateOrganization,
} from "../../src/index.js"
import type { AuthConfig } from "../../src/types.js"
import type { Client } from "../flow/flow-helpers.js"
import { newUser, openedStore, organizationConfig, pageRequest, signedInClient, storedAdapters, type OrganizationAdapter } from "./organization-helpers.js"

describe.each(storedAdapters)("organizations during an impersonation on the $name adapter", (store) => {
  const stored = openedStore(store)

  describe.each(["jwt", "database"] as const)("%s sessions", (strategy) => {
    let adapter: OrganizationAdapter
    let config: AuthConfig
    let owner: AdapterUser
    let member: AdapterUser
    let organizationId: string
    let browser: Client

    beforeEach(async () => {
      adapter = stored()
      const admin = await newUser(adapter, "Root")
      ;[owner, member] = [await newUser(adapter, "Olive"), await newUser(adapter, "Mia")]
      config = organizationConfig(adapter, { routes: true }, { admin: { userIds: [admin.id] } }, strategy)
      organizationId = (await createOrganization(pageRequest(await signedInClient(config, owner)), config, { name: "Acme", slug: `acme-${crypto.randomUUID()}` })).id
      await adapter.addMember({ organizationId, userId: member.id, role: "member" })
      // The admin impersonates the owner in their own browser.
      browser = await signedInClient(config, admin)
      const started = await impersonateUser(pageRequest(browser), config, owner.id)
      const headers = new Headers()
      for (const line of started.setCookies) headers.append("set-cookie", line)
      browser.jar.store(new Response(null, { headers }))
    })

    it("server functions: reads and the active organization work, changes are refused", async () => {
      const request = () => pageRequest(browser)
      expect((await listOrganizations(request(), config)).map((entry) => entry.organization.id)).toEqual([organizationId])
      expect(await getOrganization(request(), config, organizationId)).toMatchObject({ id: organizationId, role: "owner" })
      expect((await listMembers(request(), config, organizationId)).members).toHaveLength(2)
      expect(await listInvitations(request(), config, organizationId)).toEqual([])
      expect((await setActiveOrganization(request(), config, organizationId)).setCookies.length).toBe(strategy === "jwt" ? 1 : 0)

      const refusals: [string, () => Promise<unknown>][] = [
        ["create", () => createOrganization(request(), config, { name: "Other", slug: `other-${crypto.randomUUID()}` })],
        ["update", () => updateOrganization(request(), config, organizationId, { name: "Renamed" })],
        ["delete", () => deleteOrganization(request(), config, organizationId)],
        ["leave", () => leaveOrganization(request(), config, organizationId)],
        ["role", () => updateMemberRole(request(), config, organizationId, member.id, "admin")],
        ["remove", () => removeMember(request(), config, organizationId, member.id)],
        ["invite", () => inviteMember(request(), config, { organizationId, email: "ada@corp.test", role: "member" })],
        ["revoke", () => revokeInvitation(request(), config, { organizationId, invitationId: "any" })],
        ["join", () => joinOrganization(request(), config, organizationId)],
      ]
      for (const [name, call] of refusals) await expect(call(), name).rejects.toThrow(ImpersonationRefused)
      expect(await adapter.getOrganization({ id: organizationId })).toMatchObject({ name: "Acme" })
      expect(await adapter.getMember(organizationId, member.id)).toMatchObject({ role: "member" })
      expect(await adapter.listInvitations(organizationId)).toEqual([])
    })

    it("routes: GETs and POST organizations/active answer, other POSTs are 403 ImpersonationRefused", async () => {
      const post = async (path: string, body: Record<string, unknown>) => browser.postJson(`organizations${path}`, { ...body, csrfToken: await browser.csrfToken() })
      expect((await browser.get("organizations")).status).toBe(200)
      expect((await browser.get(`organizations/${organizationId}/members`)).status).toBe(200)
      expect((await browser.get(`organizations/${organizationId}/invitations`)).status).toBe(200)
      expect((await post("/active", { organizationId })).status).toBe(200)
      for (const [path, body] of [
        ["", { name: "Other", slug: `other-${crypto.randomUUID()}` }],
        [`/${organizationId}`, { name: "Renamed" }],
        [`/${organizationId}/members/${member.id}`, { role: "admin" }],
        [`/${organizationId}/invitations`, { email: "ada@corp.test", role: "member" }],
      ] as const) {
        const response = await post(path, body)
        expect(response.status, path).toBe(403)
        expect(await response.json()).toMatchObject({ error: "ImpersonationRefused" })
      }
      expect(await adapter.getOrganization({ id: organizationId })).toMatchObject({ name: "Acme" })
    })
  })
})

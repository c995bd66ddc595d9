/**
 * The opt-in organization routes through `Auth()` on every stored adapter: JSON reads and
 * changes for the signed-in user, CSRF-checked POSTs, JSON refusals with their statuses (401
 * without a session, 404 for a non-member, 403 for a member's promotion, 409 for the last owner),
 * the opaque members cursor, and the active organization set over the route.
 */
import { beforeEach, describe, expect, it } from "vitest"
import type { AdapterUser } from "../../src/adapters/index.js"
import type { AuthConfig } from "../../src/types.js"
import { Client } from "../flow/flow-helpers.js"
import { newUser, openedStore, organizationConfig, signedInClient, storedAdapters, type OrganizationAdapter } from "./organization-helpers.js"

describe.each(storedAdapters)("organization routes on the $name adapter", (store) => {
  const stored = openedStore(store)
  let adapter: OrganizationAdapter
  let config: AuthConfig
  let owner: AdapterUser
  let member: AdapterUser
  let outsider: AdapterUser
  let ownerBrowser: Client
  let memberBrowser: Client
  let organizationId: string

  async function post(client: Client, path: string, body: Record<string, unknown>): Promise<Response> {
    return client.postJson(`organizations${path}`, { ...body, csrfToken: await client.csrfToken() })
  }

  beforeEach(async () => {
    adapter = stored()
    config = organizationConfig(adapter, { routes: true })
    ;[owner, member, outsider] = [await newUser(adapter, "Olive"), await newUser(adapter, "Mia"), await newUser(adapter, "Otto")]
    ownerBrowser = await signedInClient(config, owner)
    memberBrowser = await signedInClient(config, member)
    const created = await post(ownerBrowser, "", { name: "Acme", slug: `acme-${crypto.randomUUID()}` })
    expect(created.status).toBe(200)
    organizationId = ((await created.json()) as { organization: { id: string } }).organization.id
    await adapter.addMember({ organizationId, userId: member.id, role: "member" })
  })

  it("are not served without organizations.routes", async () => {
    const off = organizationConfig(adapter, {})
    const response = await (await signedInClient(off, owner)).get("organizations")
    expect(response.status).toBe(400)
  })

  it("lists the user's organizations and reads one, as JSON that is not cached", async () => {
    const listed = await ownerBrowser.get("organizations")
    expect(listed.status).toBe(200)
    expect(listed.headers.get("cache-control")).toContain("no-store")
    expect(((await listed.json()) as { organizations: { organization: { id: string }; role: string }[] }).organizations).toEqual([
      expect.objectContaining({ organization: expect.objectContaining({ id: organizationId, name: "Acme" }), role: "owner" }),
    ])
    const read = await memberBrowser.get(`organizations/${organizationId}`)
    expect(await read.json()).toMatchObject({ organization: { id: organizationId, role: "member", permissions: [], unmet: [] } })
  })

  it("need a session: 401 SessionRequired", async () => {
    const anonymous = new Client(config)
    const response = await anonymous.get("organizations")
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ error: "SessionRequired" })
    const posted = await anonymous.postJson("organizations", { name: "X", slug: "x", csrfToken: await anonymous.csrfToken() })
    expect(posted.status).toBe(401)
  })

  it("refuse a POST without the CSRF token, changing nothing", async () => {
    const forged = await memberBrowser.postJson(`organizations/${organizationId}/leave`, { csrfToken: "forged" })
    expect(forged.status).toBe(302)
    expect(forged.headers.get("location")).toContain("error=MissingCSRF")
    const bare = await ownerBrowser.postJson("organizations", { name: "Sneaky", slug: `sneaky-${crypto.randomUUID()}` }, { "X-Auth-Return-Redirect": "1" })
    expect(((await bare.json()) as { url: string }).url).toContain("error=MissingCSRF")
    expect(await adapter.getMember(organizationId, member.id)).not.toBeNull()
    expect(await adapter.listOrganizationsByUserId(owner.id)).toHaveLength(1)
  })

  it("answer a non-member 404 for the organization, its members and its audit log, as for one that does not exist", async () => {
    const stranger = await signedInClient(config, outsider)
    for (const id of [organizationId, crypto.randomUUID()]) {
      for (const path of [`organizations/${id}`, `organizations/${id}/members`, `organizations/${id}/audit`]) {
        const response = await stranger.get(path)
        expect(response.status).toBe(404)
        expect(await response.json()).toEqual({ error: "OrganizationNotFound" })
      }
      expect((await post(stranger, `/${id}`, { name: "Mine" })).status).toBe(404)
      expect((await post(stranger, `/${id}/members/${member.id}`, { role: "owner" })).status).toBe(404)
    }
  })

  it("refuse a member promoting themselves (403) and the last owner leaving (409); an owner changes a role", async () => {
    const promoted = await post(memberBrowser, `/${organizationId}/members/${member.id}`, { role: "owner" })
    expect(promoted.status).toBe(403)
    expect(await promoted.json()).toEqual({ error: "PermissionDenied" })
    const left = await post(ownerBrowser, `/${organizationId}/leave`, {})
    expect(left.status).toBe(409)
    expect(await left.json()).toEqual({ error: "LastOwner" })
    const changed = await post(ownerBrowser, `/${organizationId}/members/${encodeURIComponent(member.id)}`, { role: "admin" })
    expect(await changed.json()).toMatchObject({ member: { userId: member.id, role: "admin" } })
    const removed = await post(ownerBrowser, `/${organizationId}/members/${member.id}/remove`, {})
    expect(await removed.json()).toEqual({ removed: true })
    expect(await adapter.getMember(organizationId, member.id)).toBeNull()
  })

  it("page members by an opaque cursor and refuse one it did not give (400 InvalidRequest)", async () => {
    const first = (await (await memberBrowser.get(`organizations/${organizationId}/members?limit=1`)).json()) as { members: { userId: string }[]; nextCursor: string }
    expect(first.members).toHaveLength(1)
    expect(first.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/)
    const second = (await (await memberBrowser.get(`organizations/${organizationId}/members?limit=1&after=${first.nextCursor}`)).json()) as { members: { userId: string }[]; nextCursor: string | null }
    expect(second.members).toHaveLength(1)
    expect(second.nextCursor).toBeNull()
    expect(new Set([...first.members, ...second.members].map((row) => row.userId))).toEqual(new Set([owner.id, member.id]))
    for (const after of ["garbage", "eyJ4IjoxfQ", "%E0%A4%A"]) {
      const refused = await memberBrowser.get(`organizations/${organizationId}/members?after=${after}`)
      expect(refused.status).toBe(400)
      expect(await refused.json()).toEqual({ error: "InvalidRequest" })
    }
    expect((await memberBrowser.get(`organizations/${organizationId}/members?limit=1000`)).status).toBe(400)
  })

  it("set the active organization for a member (the session shows it) and refuse it for a non-member (404)", async () => {
    const set = await post(memberBrowser, "/active", { organizationId })
    expect(await set.json()).toEqual({ activeOrganizationId: organizationId })
    const session = (await memberBrowser.session()) as { activeOrganization: { id: string; role: string } | null }
    expect(session.activeOrganization).toMatchObject({ id: organizationId, role: "member" })
    const stranger = await signedInClient(config, outsider)
    expect((await post(stranger, "/active", { organizationId })).status).toBe(404)
    expect(((await stranger.session()) as { activeOrganization: unknown }).activeOrganization).toBeNull()
    await post(memberBrowser, "/active", { organizationId: null })
    expect(((await memberBrowser.session()) as { activeOrganization: unknown }).activeOrganization).toBeNull()
  })

  it("update, read the audit log (owners), and delete; unknown routes answer 404", async () => {
    expect(await (await post(ownerBrowser, `/${organizationId}`, { name: "Acme Inc." })).json()).toMatchObject({ organization: { name: "Acme Inc." } })
    const audit = (await (await ownerBrowser.get(`organizations/${organizationId}/audit?limit=10`)).json()) as { entries: { action: string }[] }
    expect(audit.entries.map((entry) => entry.action)).toEqual(["organization.update", "organization.create"])
    expect((await memberBrowser.get(`organizations/${organizationId}/audit`)).status).toBe(403)
    expect((await ownerBrowser.get(`organizations/${organizationId}/nothing`)).status).toBe(404)
    expect((await post(memberBrowser, `/${organizationId}/delete`, {})).status).toBe(403)
    expect(await (await post(ownerBrowser, `/${organizationId}/delete`, {})).json()).toEqual({ deleted: true })
    expect(await adapter.getOrganization({ id: organizationId })).toBeNull()
  })
})

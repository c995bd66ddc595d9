/**
 * `gatehouse-auth/client/organizations` against the real routes through `Auth()` (fetch stubbed
 * to call it with a cookie jar, as a browser would): every core route's helper, the CSRF token
 * fetched for each POST, refusals as OrganizationRouteError with the server's type, and `can` on
 * the session the route answers.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import type { AdapterUser } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import {
  can,
  createOrganization,
  deleteOrganization,
  getOrganization,
  leaveOrganization,
  listAuditLog,
  listMembers,
  listOrganizations,
  OrganizationRouteError,
  removeMember,
  setActiveOrganization,
  updateMemberRole,
  updateOrganization,
} from "../../src/client/organizations.js"
import { Auth } from "../../src/core/handler.js"
import type { AuthConfig } from "../../src/types.js"
import { CookieJar } from "../support/cookie-jar.js"
import { newUser, organizationConfig, signedInClient, type OrganizationAdapter } from "./organization-helpers.js"

const PAGE = "https://app.test/settings"

afterEach(() => {
  vi.unstubAllGlobals()
})

describe("gatehouse-auth/client/organizations against the routes", () => {
  let adapter: OrganizationAdapter
  let config: AuthConfig
  let owner: AdapterUser
  let member: AdapterUser
  let sent: { method: string; path: string; body: Record<string, unknown> | null }[]

  /** Makes the browser `user`'s: their session cookie in the jar every fetch sends. */
  async function browse(user: AdapterUser | null): Promise<void> {
    const jar = user ? (await signedInClient(config, user)).jar : new CookieJar()
    sent = []
    vi.stubGlobal("location", { href: PAGE, origin: "https://app.test" })
    vi.stubGlobal("fetch", async (input: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers)
      if (jar.header()) headers.set("cookie", jar.header())
      const url = new URL(input, PAGE)
      sent.push({ method: init.method ?? "GET", path: url.pathname + url.search, body: typeof init.body === "string" ? (JSON.parse(init.body) as Record<string, unknown>) : null })
      return jar.store(await Auth(new Request(url, { ...init, headers }), config as Omit<AuthConfig, "raw">))
    })
  }

  beforeEach(async () => {
    adapter = MemoryAdapter() as OrganizationAdapter
    config = organizationConfig(adapter, { routes: true })
    owner = await newUser(adapter, "Olive")
    member = await newUser(adapter, "Mia")
  })

  it("creates, lists, activates, reads, updates, pages members, changes a role, reads the audit log, removes, deletes", async () => {
    await browse(owner)
    const organization = await createOrganization({ name: "Acme", slug: "acme" })
    expect(organization).toMatchObject({ name: "Acme", slug: "acme", policy: null })
    expect(sent.slice(0, 2).map((request) => `${request.method} ${request.path}`)).toEqual(["GET /auth/csrf", "POST /auth/organizations"])
    expect(sent[1]!.body).toMatchObject({ name: "Acme", slug: "acme", csrfToken: expect.any(String) })
    await adapter.addMember({ organizationId: organization.id, userId: member.id, role: "member" })
    expect((await listOrganizations()).map((row) => [row.organization.slug, row.role])).toEqual([["acme", "owner"]])
    await setActiveOrganization(organization.id)
    const session = (await (await fetch("/auth/session")).json()) as Parameters<typeof can>[0]
    expect(can(session, "organization:delete")).toBe(true)
    expect((await getOrganization(organization.id)).role).toBe("owner")
    expect((await updateOrganization(organization.id, { name: "Acme Inc." })).name).toBe("Acme Inc.")
    const first = await listMembers(organization.id, { limit: 1 })
    expect(first.members).toHaveLength(1)
    const second = await listMembers(organization.id, { limit: 1, after: first.nextCursor! })
    expect(second.nextCursor).toBeNull()
    expect(sent.at(-1)!.path).toBe(`/auth/organizations/${organization.id}/members?after=${first.nextCursor}&limit=1`)
    expect(await updateMemberRole(organization.id, member.id, "admin")).toMatchObject({ userId: member.id, role: "admin" })
    const audit = await listAuditLog(organization.id, { action: "member.update-role" })
    expect(audit.entries.map((entry) => entry.action)).toEqual(["member.update-role"])
    await removeMember(organization.id, member.id)
    expect(await adapter.getMember(organization.id, member.id)).toBeNull()
    await deleteOrganization(organization.id)
    expect(await adapter.getOrganization({ id: organization.id })).toBeNull()
    await setActiveOrganization(null)
  })

  it("throws OrganizationRouteError with the server's type: signed out, a non-member, a member's promotion, the last owner", async () => {
    await browse(owner)
    const organization = await createOrganization({ name: "Acme", slug: "acme" })
    await adapter.addMember({ organizationId: organization.id, userId: member.id, role: "member" })
    await expect(leaveOrganization(organization.id)).rejects.toMatchObject({ name: "LastOwner", status: 409 })
    await browse(member)
    await expect(updateMemberRole(organization.id, member.id, "owner")).rejects.toMatchObject({ name: "PermissionDenied", status: 403 })
    await browse(await newUser(adapter, "Otto"))
    const refused = await getOrganization(organization.id).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(OrganizationRouteError)
    expect(refused).toMatchObject({ name: "OrganizationNotFound", status: 404 })
    await browse(null)
    await expect(listOrganizations()).rejects.toMatchObject({ name: "SessionRequired", status: 401 })
  })

  it("names MissingCSRF when the server refuses the token", async () => {
    await browse(owner)
    const realFetch = fetch
    // The CSRF route answers nothing usable: the POST goes without a token.
    vi.stubGlobal("fetch", async (input: string, init?: RequestInit) => (String(input).endsWith("/csrf") ? new Response("{}") : realFetch(input, init)))
    await expect(createOrganization({ name: "Acme", slug: "acme" })).rejects.toMatchObject({ name: "MissingCSRF" })
    expect(await adapter.listOrganizationsByUserId(owner.id)).toEqual([])
  })
})

/**
 * The active organization: set by `setActiveOrganization` (one membership lookup, no member
 * list), shown as `session.activeOrganization` with the role's permissions, and read again on
 * every session read, so a changed role or a removal shows on the next request; under JWT and
 * database sessions, on every stored adapter.
 */
import { beforeEach, describe, expect, it } from "vitest"
import type { AdapterOrganization, AdapterUser } from "../../src/adapters/index.js"
import { OrganizationNotFound } from "../../src/errors.js"
import { can, createOrganization, defineAccess, setActiveOrganization } from "../../src/index.js"
import type { AuthConfig, Session } from "../../src/types.js"
import type { Client } from "../flow/flow-helpers.js"
import { newUser, openedStore, organizationConfig, pageRequest, signedInClient, storedAdapters, type OrganizationAdapter } from "./organization-helpers.js"

const access = defineAccess({ project: ["create", "delete"] }, { roles: { editor: { project: ["create"] } } })

describe.each(storedAdapters)("the active organization on the $name adapter", (store) => {
  const stored = openedStore(store)

  describe.each(["jwt", "database"] as const)("%s sessions", (strategy) => {
    let adapter: OrganizationAdapter
    let config: AuthConfig
    let owner: AdapterUser
    let editor: AdapterUser
    let organization: AdapterOrganization
    let browser: Client
    let calls: string[]

    async function session(client: Client): Promise<Session | null> {
      return (await (await client.get("session")).json()) as Session | null
    }

    async function activate(client: Client, organizationId: string | null): Promise<void> {
      const { setCookies } = await setActiveOrganization(pageRequest(client), config, organizationId)
      // The browser gets what the app would send back.
      client.jar.store(new Response(null, { headers: setCookies.map((line) => ["set-cookie", line] as [string, string]) }))
    }

    beforeEach(async () => {
      const base = stored()
      calls = []
      // Counts the calls of the methods a switch must (not) make.
      adapter = new Proxy(base, {
        get(target, name, receiver) {
          const value = Reflect.get(target, name, receiver) as unknown
          if (typeof value !== "function" || !["getMembership", "getMember", "listMembers", "listOrganizationsByUserId"].includes(String(name))) return value
          return (...args: unknown[]) => {
            calls.push(String(name))
            return (value as (...a: unknown[]) => unknown)(...args)
          }
        },
      })
      config = organizationConfig(adapter, { access }, {}, strategy)
      owner = await newUser(adapter, "Olive")
      editor = await newUser(adapter, "Ed")
      const ownerRequest = pageRequest(await signedInClient(config, owner))
      organization = await createOrganization(ownerRequest, config, { name: "Acme", slug: `acme-${crypto.randomUUID()}` })
      await adapter.addMember({ organizationId: organization.id, userId: editor.id, role: "editor" })
      browser = await signedInClient(config, editor)
    })

    it("is null until set; once set, the session shows it with the role's permissions, and can() answers from them", async () => {
      expect((await session(browser))?.activeOrganization).toBeNull()
      calls.length = 0
      await activate(browser, organization.id)
      expect(calls).toEqual(["getMembership"])
      const current = await session(browser)
      expect(current?.activeOrganization).toEqual({ id: organization.id, slug: organization.slug, name: "Acme", role: "editor", permissions: ["project:create"], unmet: [] })
      expect(can(current, "project:create")).toBe(true)
      expect(access.can(current, "project:delete")).toBe(false)
      expect(can(current, "member:remove")).toBe(false)
    })

    it("is read again on each session read by one membership lookup: a changed role shows at once, a removal reads null", async () => {
      await activate(browser, organization.id)
      await adapter.updateMemberRole(organization.id, editor.id, "admin")
      calls.length = 0
      const promoted = await session(browser)
      expect(calls).toEqual(["getMembership"])
      expect(promoted?.activeOrganization?.role).toBe("admin")
      expect(can(promoted, "member:remove")).toBe(true)
      await adapter.removeMember(organization.id, editor.id)
      const removed = await session(browser)
      expect(removed?.activeOrganization).toBeNull()
      expect(can(removed, "member:remove")).toBe(false)
      expect(removed?.user?.email).toBe(editor.email)
    })

    it("reads null once the organization is deleted", async () => {
      await activate(browser, organization.id)
      await adapter.deleteOrganization(organization.id)
      expect((await session(browser))?.activeOrganization).toBeNull()
    })

    it("refuses an organization the user is no member of (OrganizationNotFound), and clears with null", async () => {
      const other = await newUser(adapter, "Otto")
      const theirs = await createOrganization(pageRequest(await signedInClient(config, other)), config, { name: "Theirs", slug: `theirs-${crypto.randomUUID()}` })
      await expect(activate(browser, theirs.id)).rejects.toThrow(OrganizationNotFound)
      await expect(activate(browser, crypto.randomUUID())).rejects.toThrow(OrganizationNotFound)
      expect((await session(browser))?.activeOrganization).toBeNull()
      await activate(browser, organization.id)
      expect((await session(browser))?.activeOrganization?.id).toBe(organization.id)
      await activate(browser, null)
      expect((await session(browser))?.activeOrganization).toBeNull()
    })
  })
})

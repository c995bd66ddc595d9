/**
 * An organization's policy as a session meets it (issue 39), end to end through `Auth()` under
 * database and JWT sessions on memory, SQLite and PostgreSQL: `session.activeOrganization.unmet`
 * names what the session lacks (a second factor, an allowed sign-in method) and its permissions
 * are then empty, so an admin signed in with one factor cannot invite. Needs the organizations
 * part (`POST organizations/active`, the active organization on the session, the permission
 * check) and the session-context part (the sign-in provider recorded at sign-in).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import type { OrganizationPolicy } from "../../src/adapters/index.js"
import { PermissionDenied } from "../../src/errors.js"
import { inviteMember } from "../../src/index.js"
import type { ActiveOrganization, AuthConfig } from "../../src/types.js"
import type { Client } from "../flow/flow-helpers.js"
import { storedAdapters, type OpenStore } from "../flow/stored-adapters.js"
import { appRequest, orgConfig, seed, signedIn, type FullAdapter, type Seeded } from "./invitation-support.js"

describe.each(storedAdapters)("policy on the session on $name", (store) => {
  let opened: OpenStore
  let adapter: FullAdapter
  beforeAll(async () => {
    opened = await store.open()
    adapter = opened.adapter as unknown as FullAdapter
  }, 60_000)
  afterAll(() => opened?.close())

  describe.each(["database", "jwt"] as const)("%s sessions", (strategy) => {
    let seeded: Seeded
    let config: AuthConfig
    beforeEach(async () => {
      seeded = await seed(adapter)
      config = orgConfig(adapter, { session: { strategy }, twoFactor: { totp: { issuer: "Tests" } } })
    })

    async function activeIn(client: Client): Promise<ActiveOrganization | null | undefined> {
      const response = await client.postJson("organizations/active", { csrfToken: await client.csrfToken(), organizationId: seeded.organization.id })
      expect(response.status).toBe(200)
      const session = (await (await client.get("session")).json()) as { activeOrganization?: ActiveOrganization | null }
      return session.activeOrganization
    }

    async function withPolicy(policy: OrganizationPolicy): Promise<void> {
      await adapter.updateOrganization(seeded.organization.id, { policy })
    }

    it("without a policy the admin acts with the role's permissions", async () => {
      const active = await activeIn(await signedIn(config, seeded.admin))
      expect(active).toMatchObject({ id: seeded.organization.id, role: "admin", unmet: [] })
      expect(active?.permissions).toContain("invitation:create")
    })

    it("requireTwoFactor: a one-factor session is told two-factor is unmet and has no permissions; the admin cannot invite", async () => {
      await withPolicy({ requireTwoFactor: true })
      const client = await signedIn(config, seeded.admin)
      const active = await activeIn(client)
      expect(active).toMatchObject({ id: seeded.organization.id, role: "admin", unmet: ["two-factor"], permissions: [] })
      await expect(inviteMember(appRequest(client), config, { organizationId: seeded.organization.id, email: seeded.invitee.email!, role: "member" })).rejects.toBeInstanceOf(
        PermissionDenied,
      )
      expect(await adapter.listInvitations(seeded.organization.id)).toEqual([])
    })

    it("signInMethods: a session from another provider is told sign-in-method is unmet; from a listed one it is not", async () => {
      await withPolicy({ signInMethods: ["oidc"] })
      expect(await activeIn(await signedIn(config, seeded.admin))).toMatchObject({ unmet: ["sign-in-method"], permissions: [] })
      await withPolicy({ signInMethods: ["credentials"] })
      const active = await activeIn(await signedIn(config, seeded.admin))
      expect(active?.unmet).toEqual([])
      expect(active?.permissions).toContain("invitation:create")
    })
  })
})

/**
 * The invitation routes (issue 39) through `Auth()`, on memory, SQLite and PostgreSQL: the
 * built-in page `GET organizations/invitation?token=` (opening it changes nothing, whoever opens
 * it and whatever the query says; signed out it links to sign-in and back; only the invited user
 * gets the Accept / Decline form), the form's CSRF-checked POST, and the JSON routes for inviting,
 * listing, revoking, answering and joining, with their refusal statuses. Needs the organizations
 * part's route dispatch (`organizations/…` → `invitationRoutes`) and permission check.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import type { AuthConfig } from "../../src/types.js"
import type { Client } from "../flow/flow-helpers.js"
import { storedAdapters, type OpenStore } from "../flow/stored-adapters.js"
import { auditActions, newUser, orgConfig, seed, signedIn, storedInvitation, type FullAdapter, type Seeded } from "./invitation-support.js"

const PAGE = "organizations/invitation"

describe.each(storedAdapters)("invitation routes on $name", (store) => {
  let opened: OpenStore
  let adapter: FullAdapter
  let config: AuthConfig
  let seeded: Seeded
  beforeAll(async () => {
    opened = await store.open()
    adapter = opened.adapter as unknown as FullAdapter
  }, 60_000)
  afterAll(() => opened?.close())
  beforeEach(async () => {
    config = orgConfig(adapter)
    seeded = await seed(adapter)
  })

  async function expectUnchanged(invitationId: string) {
    expect((await adapter.getInvitation(invitationId))?.status).toBe("pending")
    expect(await adapter.getMember(seeded.organization.id, seeded.invitee.id)).toBeNull()
    expect(await auditActions(seeded)).toEqual([])
  }

  /** The CSRF token of the page's form. */
  function formCsrf(html: string): string {
    const match = /name="csrfToken" value="([^"]+)"/.exec(html)
    if (!match) throw new Error("no CSRF field on the page")
    return match[1]!
  }

  describe("the page", () => {
    it("signed out: names the organization and role, links to sign-in and back, and changes nothing", async () => {
      const { token, invitation } = await storedInvitation(seeded, { role: "admin" })
      const client = await signedIn(config, null)
      const response = await client.get(`${PAGE}?token=${token}`)
      expect(response.status).toBe(200)
      expect(response.headers.get("cache-control")).toBe("no-store")
      expect(response.headers.get("referrer-policy")).toBe("no-referrer")
      expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'")
      const html = await response.text()
      expect(html).toContain("Join Acme Corp")
      expect(html).toContain("as admin")
      const signIn = new URL(/<a class="button" href="([^"]+)">Sign in to accept<\/a>/.exec(html)![1]!.replaceAll("&amp;", "&"))
      expect(`${signIn.origin}${signIn.pathname}`).toBe("https://app.test/auth/signin")
      expect(signIn.searchParams.get("callbackUrl")).toBe(`https://app.test/auth/${PAGE}?token=${token}`)
      expect(html).not.toContain('name="decision"')
      await expectUnchanged(invitation.id)
    })

    it("as the invitee: the Accept / Decline form; opening it (twice, with decision=accept in the query too) changes nothing", async () => {
      const { token, invitation } = await storedInvitation(seeded)
      const client = await signedIn(config, seeded.invitee)
      for (const query of [`token=${token}`, `token=${token}`, `token=${token}&decision=accept`]) {
        const response = await client.get(`${PAGE}?${query}`)
        expect(response.status).toBe(200)
        const html = await response.text()
        expect(html).toContain('action="https://app.test/auth/organizations/invitation" method="POST"')
        expect(html).toContain(`name="token" value="${token}"`)
        expect(html).toContain('name="decision" value="accept"')
        expect(html).toContain('name="decision" value="decline"')
      }
      await expectUnchanged(invitation.id)
    })

    it("as someone else: no form, says who the invitation is for", async () => {
      const { token, invitation } = await storedInvitation(seeded)
      const html = await (await (await signedIn(config, seeded.outsider)).get(`${PAGE}?token=${token}`)).text()
      expect(html).not.toContain('name="decision"')
      expect(html).not.toContain(`name="token"`)
      expect(html).toContain(`sent to ${seeded.invitee.email}`)
      await expectUnchanged(invitation.id)
    })

    it("answers 410 for an unknown, expired or used link, showing nothing of the organization", async () => {
      const expired = await storedInvitation(seeded, { expiresAt: new Date(Date.now() - 1000) })
      const used = await storedInvitation(await seed(adapter))
      await adapter.setInvitationStatus(used.invitation.id, "pending", "accepted")
      const client = await signedIn(config, seeded.invitee)
      for (const [query, words] of [
        ["token=nope", "not valid"],
        ["", "not valid"],
        [`token=${expired.token}`, "has expired"],
        [`token=${used.token}`, "already accepted, declined or revoked"],
      ] as const) {
        const response = await client.get(`${PAGE}?${query}`)
        expect(response.status).toBe(410)
        const html = await response.text()
        expect(html).toContain(words)
        expect(html).not.toContain("Acme Corp")
      }
    })
  })

  describe("answering from the page", () => {
    async function pageOf(client: Client, token: string): Promise<string> {
      return (await client.get(`${PAGE}?token=${token}`)).text()
    }

    it("Accept posts the token with the CSRF token: a member, then on to the site", async () => {
      const { token, invitation } = await storedInvitation(seeded, { role: "admin" })
      const client = await signedIn(config, seeded.invitee)
      const response = await client.postForm(PAGE, { csrfToken: formCsrf(await pageOf(client, token)), token, decision: "accept" }, { "sec-fetch-site": "same-origin" })
      expect(response.status).toBe(302)
      expect(response.headers.get("location")).toBe("https://app.test")
      expect(await adapter.getMember(seeded.organization.id, seeded.invitee.id)).toMatchObject({ role: "admin" })
      expect((await adapter.getInvitation(invitation.id))?.status).toBe("accepted")
      // The spent link's page says so, and a second post gets the refusal page.
      expect((await client.get(`${PAGE}?token=${token}`)).status).toBe(410)
      const again = await client.postForm(PAGE, { csrfToken: await client.csrfToken(), token, decision: "accept" })
      expect(again.status).toBe(410)
      expect(await again.text()).toContain("cannot be answered")
    })

    it("Decline declines", async () => {
      const { token, invitation } = await storedInvitation(seeded)
      const client = await signedIn(config, seeded.invitee)
      const response = await client.postForm(PAGE, { csrfToken: formCsrf(await pageOf(client, token)), token, decision: "decline" })
      expect(response.status).toBe(302)
      expect((await adapter.getInvitation(invitation.id))?.status).toBe("declined")
      expect(await adapter.getMember(seeded.organization.id, seeded.invitee.id)).toBeNull()
    })

    it("refuses a post without the CSRF token, a cross-site one, and one by another user, changing nothing", async () => {
      const { token, invitation } = await storedInvitation(seeded)
      const client = await signedIn(config, seeded.invitee)
      const missing = await client.postForm(PAGE, { token, decision: "accept" })
      expect(missing.status).toBe(302)
      expect(missing.headers.get("location")).toContain("error=MissingCSRF")
      const crossSite = await client.postForm(PAGE, { csrfToken: formCsrf(await pageOf(client, token)), token, decision: "accept" }, { "sec-fetch-site": "cross-site" })
      expect(crossSite.headers.get("location")).toContain("error=MissingCSRF")
      const other = await signedIn(config, seeded.outsider)
      const refused = await other.postForm(PAGE, { csrfToken: await other.csrfToken(), token, decision: "accept" })
      expect(refused.status).toBe(410)
      expect(await adapter.getMember(seeded.organization.id, seeded.outsider.id)).toBeNull()
      await expectUnchanged(invitation.id)
    })
  })

  describe("JSON routes", () => {
    const json = { accept: "application/json" }
    async function post(client: Client, path: string, body: Record<string, unknown> = {}) {
      const response = await client.postJson(path, { csrfToken: await client.csrfToken(), ...body })
      return { status: response.status, body: (await response.json()) as Record<string, unknown> }
    }

    it("invite, list and revoke, with 403 for a member and for an admin inviting an owner, 404 for a non-member, 400 for an address already invited", async () => {
      const base = `organizations/${seeded.organization.id}/invitations`
      const email = seeded.invitee.email!
      const member = await signedIn(config, seeded.member)
      expect(await post(member, base, { email, role: "member" })).toEqual({ status: 403, body: { error: "PermissionDenied", message: expect.any(String) } })
      const admin = await signedIn(config, seeded.admin)
      expect((await post(admin, base, { email, role: "owner" })).status).toBe(403)
      expect((await post(await signedIn(config, seeded.outsider), base, { email, role: "member" })).status).toBe(404)
      expect(await adapter.listInvitations(seeded.organization.id)).toEqual([])

      const made = await post(admin, base, { email, role: "admin" })
      expect(made.status).toBe(200)
      expect(made.body).toMatchObject({ emailed: false, invitation: { email, role: "admin", status: "pending" } })
      expect(made.body.url).toMatch(/^https:\/\/app\.test\/auth\/organizations\/invitation\?token=/)
      expect(made.body.invitation).not.toHaveProperty("tokenHash")
      const again = await post(admin, base, { email, role: "member" })
      expect(again.status).toBe(400)
      expect(again.body.message).toMatch(/already has a pending invitation/)

      const listed = await admin.get(base, json)
      expect(listed.status).toBe(200)
      const { invitations } = (await listed.json()) as { invitations: { id: string }[] }
      expect(invitations.map((invitation) => invitation.id)).toEqual([(made.body.invitation as { id: string }).id])
      expect((await member.get(base, json)).status).toBe(403)

      const id = (made.body.invitation as { id: string }).id
      expect((await post(member, `${base}/${id}/revoke`)).status).toBe(403)
      const revoked = await post(admin, `${base}/${id}/revoke`)
      expect(revoked).toMatchObject({ status: 200, body: { invitation: { id, status: "revoked" } } })
      expect((await post(admin, `${base}/${id}/revoke`)).status).toBe(410)
      expect(await auditActions(seeded)).toEqual(["invitation.create", "invitation.revoke"])
    })

    it("answers with a token: 410 for another address, 200 for the invitee; 401 signed out", async () => {
      const { token, invitation } = await storedInvitation(seeded)
      expect((await post(await signedIn(config, null), PAGE, { token, decision: "accept" })).status).toBe(401)
      expect(await post(await signedIn(config, seeded.outsider), PAGE, { token, decision: "accept" })).toMatchObject({ status: 410, body: { error: "InvitationInvalid" } })
      expect((await post(await signedIn(config, seeded.invitee), PAGE, { token, decision: "maybe" })).status).toBe(400)
      await expectUnchanged(invitation.id)
      const accepted = await post(await signedIn(config, seeded.invitee), PAGE, { token, decision: "accept" })
      expect(accepted).toMatchObject({ status: 200, body: { organization: { id: seeded.organization.id }, member: { userId: seeded.invitee.id, role: "member" } } })
    })

    it("joins by verified email domain (200), and answers 404 where the policy does not admit the user", async () => {
      await adapter.updateOrganization(seeded.organization.id, { policy: { emailDomains: ["corp.test"] } })
      const path = `organizations/${seeded.organization.id}/join`
      expect((await post(await signedIn(config, await newUser(adapter, "elsewhere.test")), path)).status).toBe(404)
      const colleague = await newUser(adapter, "corp.test")
      expect(await post(await signedIn(config, colleague), path)).toMatchObject({ status: 200, body: { member: { userId: colleague.id, role: "member" } } })
      expect(await auditActions(seeded)).toEqual(["member.add"])
    })

    it("answers 404 JSON UnknownAction for a path or method no invitation route serves", async () => {
      const owner = await signedIn(config, seeded.owner)
      const base = `organizations/${seeded.organization.id}/invitations`
      const unknown = { status: 404, body: { error: "UnknownAction", message: expect.stringMatching(/^Cannot handle action: /) } }
      for (const path of [`${base}/some-id/revoke`, `${base}/some-id/resend`]) {
        const response = await owner.get(path, json)
        expect({ status: response.status, body: await response.json() }).toEqual(unknown)
      }
      expect(await post(owner, `${base}/some-id/resend`)).toEqual(unknown)
    })

    it("refuses a change posted without the CSRF token", async () => {
      const client = await signedIn(config, seeded.owner)
      const response = await client.postJson(`organizations/${seeded.organization.id}/invitations`, { email: seeded.invitee.email, role: "member" })
      expect(response.status).not.toBe(200)
      expect(await adapter.listInvitations(seeded.organization.id)).toEqual([])
    })
  })
})

/**
 * Inviting (issue 39) on memory, SQLite and PostgreSQL, through the server functions: an owner's
 * invitation is stored with only the SHA-256 of its 256-bit token, expires after
 * `invitationMaxAge`, and is emailed for real over SMTP (test/support's server) with the
 * organization, the inviter, the role and the link, whose token the invitee then accepts. Without
 * an email provider the app gets the link. Refusals: a member (no `invitation:create`), an admin
 * inviting an owner, a non-member, an address already a member or already invited. Listing and
 * revoking. Needs the organizations part's permission check (`requireMemberPermission`).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { InvalidRequest, InvitationInvalid, OrganizationNotFound, PermissionDenied } from "../../src/errors.js"
import { acceptInvitation, inviteMember, listInvitations, revokeInvitation, updateMemberRole } from "../../src/index.js"
import { Nodemailer } from "../../src/providers/nodemailer.js"
import type { AuthConfig } from "../../src/types.js"
import { recordingLogger } from "../flow/flow-helpers.js"
import { storedAdapters, type OpenStore } from "../flow/stored-adapters.js"
import { startSmtpServer, type TestSmtpServer } from "../support/smtp-server.js"
import { appRequest, auditActions, credentialsFor, newUser, orgConfig, seed, signedIn, tokenHashOf, type FullAdapter, type Seeded } from "./invitation-support.js"

const DAY = 24 * 60 * 60 * 1000

let smtp: TestSmtpServer
beforeAll(async () => {
  smtp = await startSmtpServer()
})
afterAll(() => smtp?.stop())

describe.each(storedAdapters)("inviting on $name", (store) => {
  let opened: OpenStore
  let adapter: FullAdapter
  let seeded: Seeded
  beforeAll(async () => {
    opened = await store.open()
    adapter = opened.adapter as unknown as FullAdapter
  }, 60_000)
  afterAll(() => opened?.close())
  beforeEach(async () => {
    seeded = await seed(adapter)
  })

  const withEmail = (extra: Partial<AuthConfig> = {}) =>
    orgConfig(adapter, { providers: [credentialsFor(adapter), Nodemailer({ server: smtp.smtpUrl, from: "Acme Auth <auth@app.test>" })], ...extra })
  const requestAs = async (config: AuthConfig, user: Parameters<typeof signedIn>[1]) => appRequest(await signedIn(config, user))

  it("emails the invitee the organization, inviter, role and a single-use link; only the token's SHA-256 is stored", async () => {
    const config = withEmail()
    const before = Date.now()
    const made = await inviteMember(await requestAs(config, seeded.owner), config, { organizationId: seeded.organization.id, email: seeded.invitee.email!.toUpperCase(), role: "admin" })
    expect(made.emailed).toBe(true)
    expect(made.invitation).toMatchObject({ organizationId: seeded.organization.id, email: seeded.invitee.email, role: "admin", inviterId: seeded.owner.id, status: "pending" })
    expect(made.invitation).not.toHaveProperty("tokenHash")

    const link = new URL(made.url)
    expect(`${link.origin}${link.pathname}`).toBe("https://app.test/auth/organizations/invitation")
    const token = link.searchParams.get("token")!
    // 32 random bytes, base64url.
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const stored = (await adapter.getInvitation(made.invitation.id))!
    expect(stored.tokenHash).toBe(tokenHashOf(token))
    expect(JSON.stringify(stored)).not.toContain(token)
    // Default: seven days.
    expect(stored.expiresAt.getTime()).toBeGreaterThanOrEqual(before + 7 * DAY - 1000)
    expect(stored.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 7 * DAY + 1000)

    const message = await smtp.waitForMessage((candidate) => candidate.to.includes(seeded.invitee.email!))
    expect(message.from).toBe("auth@app.test")
    expect(message.subject).toBe("Invitation to join Acme Corp on app.test")
    expect(message.text).toContain(`Olive Owner (${seeded.owner.email}) invited you to join Acme Corp on app.test as admin.`)
    expect(message.text).toContain(made.url)
    expect(message.html).toContain("Acme Corp")
    expect(message.html).toContain(`href="${made.url.replaceAll("&", "&amp;")}"`)

    await acceptInvitation(await requestAs(config, seeded.invitee), config, token)
    expect(await adapter.getMember(seeded.organization.id, seeded.invitee.id)).toMatchObject({ role: "admin" })
    expect(await auditActions(seeded)).toEqual(["invitation.create", "invitation.accept"])
  })

  it("escapes what members chose in the HTML email", async () => {
    const config = withEmail()
    await adapter.updateOrganization(seeded.organization.id, { name: '<img src=x onerror="alert(1)">' })
    await inviteMember(await requestAs(config, seeded.owner), config, { organizationId: seeded.organization.id, email: seeded.invitee.email!, role: "member" })
    const message = await smtp.waitForMessage((candidate) => candidate.to.includes(seeded.invitee.email!))
    expect(message.html).not.toContain("<img src=x")
    expect(message.html).toContain("&lt;img src=x")
  })

  it("an email the server refuses: the invitation stands, emailed is false, the failure is logged", async () => {
    const { logger, lines } = recordingLogger()
    const config = withEmail({ logger })
    smtp.rejectNext("rcpt")
    const made = await inviteMember(await requestAs(config, seeded.owner), config, { organizationId: seeded.organization.id, email: seeded.invitee.email!, role: "member" })
    expect(made.emailed).toBe(false)
    expect(await adapter.getInvitation(made.invitation.id)).toMatchObject({ status: "pending" })
    expect(lines.some((line) => line.level === "error")).toBe(true)
  })

  it("expires after organizations.invitationMaxAge", async () => {
    const config = orgConfig(adapter, { organizations: { routes: true, invitationMaxAge: 3600 } })
    const made = await inviteMember(await requestAs(config, seeded.owner), config, { organizationId: seeded.organization.id, email: seeded.invitee.email!, role: "member" })
    const expires = (await adapter.getInvitation(made.invitation.id))!.expiresAt.getTime()
    expect(Math.abs(expires - (Date.now() + 3_600_000))).toBeLessThan(5000)
  })

  it("without an email provider makes the invitation all the same and gives the app the link", async () => {
    const config = orgConfig(adapter)
    const made = await inviteMember(await requestAs(config, seeded.admin), config, { organizationId: seeded.organization.id, email: seeded.invitee.email!, role: "member" })
    expect(made.emailed).toBe(false)
    expect(await adapter.getInvitation(made.invitation.id)).toMatchObject({ status: "pending" })
    await acceptInvitation(await requestAs(config, seeded.invitee), config, new URL(made.url).searchParams.get("token")!)
    expect(await adapter.getMember(seeded.organization.id, seeded.invitee.id)).toMatchObject({ role: "member" })
  })

  it("links to the app's own invitationPage when set", async () => {
    const config = orgConfig(adapter, { organizations: { invitationPage: "/team/join" } })
    const made = await inviteMember(await requestAs(config, seeded.owner), config, { organizationId: seeded.organization.id, email: seeded.invitee.email!, role: "member" })
    expect(made.url).toMatch(/^https:\/\/app\.test\/team\/join\?token=[A-Za-z0-9_-]{43}$/)
  })

  it("refuses a member (no invitation:create) and a non-member, storing nothing", async () => {
    const config = orgConfig(adapter)
    const input = { organizationId: seeded.organization.id, email: seeded.invitee.email!, role: "member" }
    await expect(inviteMember(await requestAs(config, seeded.member), config, input)).rejects.toBeInstanceOf(PermissionDenied)
    await expect(inviteMember(await requestAs(config, seeded.outsider), config, input)).rejects.toBeInstanceOf(OrganizationNotFound)
    expect(await adapter.listInvitations(seeded.organization.id)).toEqual([])
    expect(await auditActions(seeded)).toEqual([])
  })

  it("refuses an admin inviting an owner; an admin may invite an admin, an owner an owner", async () => {
    const config = orgConfig(adapter)
    const adminRequest = await requestAs(config, seeded.admin)
    await expect(inviteMember(adminRequest, config, { organizationId: seeded.organization.id, email: seeded.invitee.email!, role: "owner" })).rejects.toBeInstanceOf(PermissionDenied)
    expect(await adapter.listInvitations(seeded.organization.id)).toEqual([])
    await inviteMember(adminRequest, config, { organizationId: seeded.organization.id, email: seeded.invitee.email!, role: "admin" })
    await inviteMember(await requestAs(config, seeded.owner), config, { organizationId: seeded.organization.id, email: seeded.outsider.email!, role: "owner" })
    expect((await adapter.listInvitations(seeded.organization.id)).map((invitation) => invitation.role).sort()).toEqual(["admin", "owner"])
  })

  it("refuses an unknown role, a bad address, a member's address and an address already invited", async () => {
    const config = orgConfig(adapter)
    const request = await requestAs(config, seeded.owner)
    const organizationId = seeded.organization.id
    for (const role of ["superuser", "constructor", "__proto__", "toString", "hasOwnProperty"]) {
      await expect(inviteMember(request, config, { organizationId, email: seeded.invitee.email!, role })).rejects.toThrow(/No role .* is defined/)
    }
    await expect(inviteMember(request, config, { organizationId, email: "not an address", role: "member" })).rejects.toBeInstanceOf(InvalidRequest)
    await expect(inviteMember(request, config, { organizationId, email: "a@b.test, c@d.test", role: "member" })).rejects.toBeInstanceOf(InvalidRequest)
    await expect(inviteMember(request, config, { organizationId, email: seeded.member.email!, role: "member" })).rejects.toThrow(/already a member/)
    await inviteMember(request, config, { organizationId, email: seeded.invitee.email!, role: "member" })
    await expect(inviteMember(request, config, { organizationId, email: seeded.invitee.email!.toUpperCase(), role: "admin" })).rejects.toThrow(/already has a pending invitation/)
    expect(await adapter.listInvitations(organizationId)).toHaveLength(1)
  })

  it("lists pending invitations without their hashes, and revokes one: its link no longer works", async () => {
    const config = orgConfig(adapter)
    const ownerRequest = await requestAs(config, seeded.owner)
    const made = await inviteMember(ownerRequest, config, { organizationId: seeded.organization.id, email: seeded.invitee.email!, role: "member" })
    const listed = await listInvitations(ownerRequest, config, seeded.organization.id)
    expect(listed).toEqual([made.invitation])
    await expect(listInvitations(await requestAs(config, seeded.member), config, seeded.organization.id)).rejects.toBeInstanceOf(PermissionDenied)
    await expect(revokeInvitation(await requestAs(config, seeded.member), config, { organizationId: seeded.organization.id, invitationId: made.invitation.id })).rejects.toBeInstanceOf(PermissionDenied)

    // Another organization's admin cannot revoke it through their own organization.
    const other = await seed(adapter)
    await expect(revokeInvitation(await requestAs(config, other.owner), config, { organizationId: other.organization.id, invitationId: made.invitation.id })).rejects.toBeInstanceOf(InvitationInvalid)
    expect((await adapter.getInvitation(made.invitation.id))?.status).toBe("pending")

    const revoked = await revokeInvitation(await requestAs(config, seeded.admin), config, { organizationId: seeded.organization.id, invitationId: made.invitation.id })
    expect(revoked.status).toBe("revoked")
    expect(await listInvitations(ownerRequest, config, seeded.organization.id)).toEqual([])
    await expect(revokeInvitation(ownerRequest, config, { organizationId: seeded.organization.id, invitationId: made.invitation.id })).rejects.toBeInstanceOf(InvitationInvalid)
    await expect(acceptInvitation(await requestAs(config, seeded.invitee), config, new URL(made.url).searchParams.get("token")!)).rejects.toBeInstanceOf(InvitationInvalid)
    expect(await auditActions(seeded)).toEqual(["invitation.create", "invitation.revoke"])
    // Revoked, the address may be invited again.
    await inviteMember(ownerRequest, config, { organizationId: seeded.organization.id, email: seeded.invitee.email!, role: "member" })
  })

  it("gives an app role only to an inviter whose own role holds all of its permissions", async () => {
    // Roles the app keeps in its database.
    const roles: Record<string, string[]> = { recruiter: ["invitation:create"], editor: ["project:create"], viewer: [] }
    const config = orgConfig(adapter, { organizations: { routes: true, loadRole: (_organizationId, role) => roles[role] ?? null } })
    const recruiter = await newUser(adapter)
    await adapter.addMember({ organizationId: seeded.organization.id, userId: recruiter.id, role: "recruiter" })
    const request = await requestAs(config, recruiter)
    await inviteMember(request, config, { organizationId: seeded.organization.id, email: seeded.invitee.email!, role: "viewer" })
    await expect(inviteMember(request, config, { organizationId: seeded.organization.id, email: seeded.outsider.email!, role: "editor" })).rejects.toBeInstanceOf(PermissionDenied)
    await expect(inviteMember(request, config, { organizationId: seeded.organization.id, email: seeded.outsider.email!, role: "admin" })).rejects.toBeInstanceOf(PermissionDenied)
  })

  it("ranks roles as role changes do: a role that may invite and change roles gives `member`, never `admin` nor `owner`", async () => {
    const roles: Record<string, unknown> = { staffer: ["invitation:create", "member:update"], shapeless: { "member:update": true }, numbers: [1, 2] }
    const config = orgConfig(adapter, { organizations: { routes: true, loadRole: (_organizationId, role) => (roles[role] ?? null) as string[] | null } })
    const staffer = await newUser(adapter)
    await adapter.addMember({ organizationId: seeded.organization.id, userId: staffer.id, role: "staffer" })
    const request = await requestAs(config, staffer)
    const organizationId = seeded.organization.id
    // `member` can do nothing the staffer cannot: both the invitation and the role change give it.
    await inviteMember(request, config, { organizationId, email: seeded.invitee.email!, role: "member" })
    await adapter.addMember({ organizationId, userId: seeded.outsider.id, role: "staffer" })
    expect(await updateMemberRole(request, config, organizationId, seeded.outsider.id, "member")).toMatchObject({ role: "member" })
    for (const role of ["admin", "owner"]) {
      await expect(inviteMember(request, config, { organizationId, email: seeded.outsider.email!, role })).rejects.toBeInstanceOf(PermissionDenied)
      await expect(updateMemberRole(request, config, organizationId, seeded.member.id, role)).rejects.toBeInstanceOf(PermissionDenied)
    }
    // A loader's answer that is not a list of strings is no role (not a crash); a name over 64 characters is no role name.
    const owner = await requestAs(config, seeded.owner)
    for (const role of ["shapeless", "numbers", "r".repeat(65)]) {
      await expect(inviteMember(owner, config, { organizationId, email: seeded.outsider.email!, role })).rejects.toBeInstanceOf(InvalidRequest)
      await expect(updateMemberRole(owner, config, organizationId, seeded.member.id, role)).rejects.toBeInstanceOf(InvalidRequest)
    }
    expect((await adapter.listInvitations(organizationId)).map((invitation) => invitation.role)).toEqual(["member"])
  })
})

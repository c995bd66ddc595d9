/**
 * Answering an invitation (issue 39) on memory, SQLite and PostgreSQL, through the server
 * functions, with invitations stored through the adapter (their token's hash computed here): the
 * invited user, signed in with the invited address proven, accepts once and becomes a member with
 * the invitation's role; every other way (another address, an unproven one, a used, expired,
 * revoked or declined link, no session) changes nothing. And joining by verified email domain.
 * Stands alone: no permission check is involved (the invitee is nobody's member yet).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { InvalidRequest, InvitationInvalid, OrganizationNotFound, SessionRequired } from "../../src/errors.js"
import { acceptInvitation, declineInvitation, joinOrganization } from "../../src/index.js"
import type { AuthConfig } from "../../src/types.js"
import { storedAdapters, type OpenStore } from "../flow/stored-adapters.js"
import { appRequest, auditActions, newUser, orgConfig, seed, signedIn, storedInvitation, type FullAdapter, type Seeded } from "./invitation-support.js"

describe.each(storedAdapters)("answering invitations on $name", (store) => {
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

  const requestAs = async (user: Parameters<typeof signedIn>[1]) => appRequest(await signedIn(config, user))
  const statusOf = async (id: string) => (await adapter.getInvitation(id))?.status
  /** Nothing changed: the invitation still pending, the invitee no member, no audit row of it. */
  async function expectUnchanged(invitationId: string, userId = seeded.invitee.id) {
    expect(await statusOf(invitationId)).toBe("pending")
    expect(await adapter.getMember(seeded.organization.id, userId)).toBeNull()
    expect(await auditActions(seeded)).toEqual([])
  }

  it("accepting makes the invited user a member with the invitation's role, spends the link and records invitation.accept", async () => {
    const { token, invitation } = await storedInvitation(seeded, { role: "admin" })
    const accepted = await acceptInvitation(await requestAs(seeded.invitee), config, token)
    expect(accepted.organization).toEqual({ id: seeded.organization.id, name: "Acme Corp", slug: seeded.organization.slug })
    expect(accepted.member).toMatchObject({ organizationId: seeded.organization.id, userId: seeded.invitee.id, role: "admin" })
    expect(await adapter.getMember(seeded.organization.id, seeded.invitee.id)).toMatchObject({ role: "admin" })
    expect(await statusOf(invitation.id)).toBe("accepted")
    const [entry] = await adapter.listAuditEntries({ organizationId: seeded.organization.id, limit: 10 })
    expect(entry).toMatchObject({ action: "invitation.accept", actorId: seeded.invitee.id, targetType: "invitation", targetId: invitation.id })
  })

  it("works the same under JWT sessions: the invitee accepts, another user is refused", async () => {
    config = orgConfig(adapter, { session: { strategy: "jwt" } })
    const { token, invitation } = await storedInvitation(seeded)
    await expect(acceptInvitation(await requestAs(seeded.outsider), config, token)).rejects.toBeInstanceOf(InvitationInvalid)
    await expectUnchanged(invitation.id, seeded.outsider.id)
    await acceptInvitation(await requestAs(seeded.invitee), config, token)
    expect(await adapter.getMember(seeded.organization.id, seeded.invitee.id)).toMatchObject({ role: "member" })
  })

  it("compares the address without regard to case", async () => {
    const { token } = await storedInvitation(seeded, { email: seeded.invitee.email!.toUpperCase() })
    await acceptInvitation(await requestAs(seeded.invitee), config, token)
    expect(await adapter.getMember(seeded.organization.id, seeded.invitee.id)).toMatchObject({ role: "member" })
  })

  it("refuses an invitation sent to another address (InvitationInvalid), changing nothing", async () => {
    const { token, invitation } = await storedInvitation(seeded)
    await expect(acceptInvitation(await requestAs(seeded.outsider), config, token)).rejects.toBeInstanceOf(InvitationInvalid)
    await expect(declineInvitation(await requestAs(seeded.outsider), config, token)).rejects.toBeInstanceOf(InvitationInvalid)
    await expectUnchanged(invitation.id, seeded.outsider.id)
    // The invitee can still use it afterwards.
    await acceptInvitation(await requestAs(seeded.invitee), config, token)
    expect(await statusOf(invitation.id)).toBe("accepted")
  })

  it("refuses a user whose account has the invited address but never proved it", async () => {
    const unproven = await newUser(adapter, "app.test", false)
    const { token, invitation } = await storedInvitation(seeded, { email: unproven.email! })
    await expect(acceptInvitation(await requestAs(unproven), config, token)).rejects.toBeInstanceOf(InvitationInvalid)
    await expectUnchanged(invitation.id, unproven.id)
  })

  it("refuses a used link: the second acceptance, and one after a decline", async () => {
    const first = await storedInvitation(seeded)
    const request = await requestAs(seeded.invitee)
    await acceptInvitation(request, config, first.token)
    await expect(acceptInvitation(request, config, first.token)).rejects.toBeInstanceOf(InvitationInvalid)
    await expect(declineInvitation(request, config, first.token)).rejects.toBeInstanceOf(InvitationInvalid)

    const other = await seed(adapter)
    const second = await storedInvitation(other)
    const otherRequest = await requestAs(other.invitee)
    const declined = await declineInvitation(otherRequest, config, second.token)
    expect(declined).toMatchObject({ id: second.invitation.id, status: "declined" })
    expect(declined).not.toHaveProperty("tokenHash")
    await expect(acceptInvitation(otherRequest, config, second.token)).rejects.toBeInstanceOf(InvitationInvalid)
    expect(await adapter.getMember(other.organization.id, other.invitee.id)).toBeNull()
    expect(await auditActions(other)).toEqual(["invitation.decline"])
  })

  it("of concurrent acceptances of one link exactly one succeeds", async () => {
    const { token } = await storedInvitation(seeded)
    const request = await requestAs(seeded.invitee)
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => acceptInvitation(request, config, token)))
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1)
    for (const result of results) if (result.status === "rejected") expect(result.reason).toBeInstanceOf(InvitationInvalid)
    expect(await auditActions(seeded)).toEqual(["invitation.accept"])
  })

  it("refuses an expired link, changing nothing", async () => {
    const { token, invitation } = await storedInvitation(seeded, { expiresAt: new Date(Date.now() - 1000) })
    await expect(acceptInvitation(await requestAs(seeded.invitee), config, token)).rejects.toBeInstanceOf(InvitationInvalid)
    await expectUnchanged(invitation.id)
  })

  it("refuses a revoked link", async () => {
    const { token, invitation } = await storedInvitation(seeded)
    await adapter.setInvitationStatus(invitation.id, "pending", "revoked")
    await expect(acceptInvitation(await requestAs(seeded.invitee), config, token)).rejects.toBeInstanceOf(InvitationInvalid)
    expect(await adapter.getMember(seeded.organization.id, seeded.invitee.id)).toBeNull()
    expect(await statusOf(invitation.id)).toBe("revoked")
  })

  it("refuses unknown and malformed tokens, and a request without a session", async () => {
    const { token, invitation } = await storedInvitation(seeded)
    const request = await requestAs(seeded.invitee)
    for (const wrong of ["", "x", `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`, token + "A", 42 as unknown as string, null as unknown as string]) {
      await expect(acceptInvitation(request, config, wrong)).rejects.toBeInstanceOf(InvitationInvalid)
    }
    await expect(acceptInvitation(await requestAs(null), config, token)).rejects.toBeInstanceOf(SessionRequired)
    await expectUnchanged(invitation.id)
  })

  it("accepting when already a member spends the link and keeps the role the user has", async () => {
    const { token, invitation } = await storedInvitation(seeded, { email: seeded.member.email!, role: "admin" })
    const accepted = await acceptInvitation(await requestAs(seeded.member), config, token)
    expect(accepted.member.role).toBe("member")
    expect(await statusOf(invitation.id)).toBe("accepted")
  })
})

describe.each(storedAdapters)("joining by verified email domain on $name", (store) => {
  let opened: OpenStore
  let adapter: FullAdapter
  let config: AuthConfig
  beforeAll(async () => {
    opened = await store.open()
    adapter = opened.adapter as unknown as FullAdapter
  }, 60_000)
  afterAll(() => opened?.close())
  beforeEach(() => {
    config = orgConfig(adapter)
  })
  const requestAs = async (user: Parameters<typeof signedIn>[1]) => appRequest(await signedIn(config, user))

  it("joins a user whose proven address is at a listed domain, as member, recording member.add", async () => {
    const seeded = await seed(adapter, { emailDomains: ["corp.test"] })
    const colleague = await newUser(adapter, "corp.test")
    const member = await joinOrganization(await requestAs(colleague), config, seeded.organization.id)
    expect(member).toMatchObject({ organizationId: seeded.organization.id, userId: colleague.id, role: "member" })
    expect(await adapter.getMember(seeded.organization.id, colleague.id)).toMatchObject({ role: "member" })
    const [entry] = await adapter.listAuditEntries({ organizationId: seeded.organization.id, limit: 10 })
    expect(entry).toMatchObject({ action: "member.add", actorId: colleague.id, targetType: "member", targetId: colleague.id })
    await expect(joinOrganization(await requestAs(colleague), config, seeded.organization.id)).rejects.toBeInstanceOf(InvalidRequest)
  })

  it("refuses, as an unknown organization, an unproven address, another domain, a look-alike or a subdomain, and an organization without the policy", async () => {
    const seeded = await seed(adapter, { emailDomains: ["corp.test"] })
    const refusedUsers = [await newUser(adapter, "corp.test", false), await newUser(adapter, "evilcorp.test"), await newUser(adapter, "eng.corp.test"), await newUser(adapter, "corp.test.evil.test")]
    for (const user of refusedUsers) {
      await expect(joinOrganization(await requestAs(user), config, seeded.organization.id)).rejects.toBeInstanceOf(OrganizationNotFound)
      expect(await adapter.getMember(seeded.organization.id, user.id)).toBeNull()
    }
    const closed = await seed(adapter)
    const colleague = await newUser(adapter, "corp.test")
    await expect(joinOrganization(await requestAs(colleague), config, closed.organization.id)).rejects.toBeInstanceOf(OrganizationNotFound)
    await expect(joinOrganization(await requestAs(colleague), config, crypto.randomUUID())).rejects.toBeInstanceOf(OrganizationNotFound)
    await expect(joinOrganization(await requestAs(null), config, seeded.organization.id)).rejects.toBeInstanceOf(SessionRequired)
    expect(await auditActions(seeded)).toEqual([])
  })
})

/**
 * Invitations to an organization. A link carries a 256-bit random token; only its SHA-256 is
 * stored, so a leaked table invites nobody. The link is bound to the address it was sent to, not
 * to a browser (it is made in the inviter's browser and opened in someone else's): only a user
 * signed in with that address, proven, can accept or decline it, and only by a CSRF-checked POST
 * (opening the link, as mail scanners do, changes nothing). Single use through the store's
 * compare-and-set on the status; valid for `organizations.invitationMaxAge`.
 * @module
 */
import type { AdapterInvitation, AdapterMember, AdapterOrganization, AdapterUser } from "../../adapters/index.js"
import { encodeBase64url } from "../../encoding/base64.js"
import { sha256Hex } from "../../encoding/hex.js"
import { InvalidConfig, InvalidEmail, InvalidRequest, InvitationInvalid, OrganizationNotFound, PermissionDenied } from "../../errors.js"
import { callAdapter } from "../adapter-call.js"
import { recordAudit } from "../audit.js"
import { authUrl } from "../auth-url.js"
import { plainEmailAddress } from "../email/identifier.js"
import type { RequestContext } from "../request-context.js"
import { sendInvitationEmail } from "./invitation-email.js"
import { requireGrantable } from "./members.js"
import { requireMemberPermission } from "./permission-check.js"
import { changingActor, signedInActor } from "./signed-in-actor.js"

/** Seven days: how long an invitation link works unless `organizations.invitationMaxAge` says otherwise. */
export const DEFAULT_INVITATION_MAX_AGE = 7 * 24 * 60 * 60

/** An invitation as the server functions and routes answer it: everything stored but the token's hash. */
export interface Invitation {
  /** The invitation's id (revoke it by this). */
  id: string
  /** The organization's id. */
  organizationId: string
  /** The address invited (lower case). */
  email: string
  /** The role the invitee gets on accepting. */
  role: string
  /** Who invited. */
  inviterId: string
  /** `pending` until accepted, declined or revoked. */
  status: AdapterInvitation["status"]
  /** When the link stops working. */
  expiresAt: Date
  /** When it was made. */
  createdAt: Date
}

/** What an invitation made: `inviteMember`'s answer. */
export interface MadeInvitation {
  /** The stored invitation, without its token's hash. */
  invitation: Invitation
  /** The link to send the invitee (it holds the token: only the invited address can use it). */
  url: string
  /** Whether Gatehouse emailed the link (through the email provider's transport); otherwise send `url` yourself. */
  emailed: boolean
}

/** What accepting an invitation gave. */
export interface AcceptedInvitation {
  /** The organization joined. */
  organization: Pick<AdapterOrganization, "id" | "name" | "slug">
  /** The new membership (or the one the user already had). */
  member: AdapterMember
}

/** The invitation without its token hash. */
export function publicInvitation(stored: AdapterInvitation): Invitation {
  const { tokenHash: _hash, ...rest } = stored
  return { ...rest }
}

/** Seconds an invitation lives under `ctx`'s configuration. */
function invitationMaxAge(ctx: RequestContext): number {
  const maxAge = ctx.config.organizations?.invitationMaxAge ?? DEFAULT_INVITATION_MAX_AGE
  if (typeof maxAge !== "number" || !Number.isFinite(maxAge) || maxAge <= 0) throw new InvalidConfig("organizations.invitationMaxAge must be a positive number of seconds")
  return maxAge
}

/** The key a token is stored and looked up by. */
export function invitationTokenHash(token: string): Promise<string> {
  return sha256Hex(token)
}

/**
 * The link that opens the invitation carrying `token`: the app's `invitationPage`, else the
 * built-in page.
 */
export function invitationUrl(ctx: RequestContext, token: string): string {
  const options = ctx.config.organizations
  const page = options?.invitationPage
  let base: URL
  if (page !== undefined) {
    const parsed = typeof page === "string" && (page.startsWith("/") ? !page.startsWith("//") : /^https?:\/\//i.test(page)) ? parsedUrl(page, ctx.origin) : null
    if (!parsed) throw new InvalidConfig("organizations.invitationPage must be a path starting with / or an http(s) URL")
    base = parsed
  } else if (options?.routes === true) {
    base = new URL(authUrl(ctx.origin, ctx.config.basePath, "organizations/invitation"))
  } else {
    // Without the routes the built-in page is not served, and a link to it would lead nowhere.
    throw new InvalidConfig("Invitation links need a page: set `organizations.routes: true` (the built-in page) or `organizations.invitationPage`")
  }
  base.searchParams.set("token", token)
  return base.href
}

/** `url` read against `base`, or `null` (`URL.parse` is not in Node 20). */
function parsedUrl(url: string, base: string): URL | null {
  try {
    return new URL(url, base)
  } catch {
    return null
  }
}

/** The address `input` names, as invitations store it (lower case), or an `InvalidRequest`. */
function invitedAddress(input: unknown): string {
  if (typeof input !== "string") throw new InvalidRequest("An invitation needs the email address to invite")
  try {
    return plainEmailAddress(input)
  } catch (error) {
    if (error instanceof InvalidEmail) throw new InvalidRequest(`Cannot invite ${JSON.stringify(input.slice(0, 254))}: ${error.message}`)
    throw error
  }
}

/**
 * Invites `email` into the organization as `role`, acting as the signed-in user: a new link,
 * emailed when an email provider can send it.
 *
 * @throws {SessionRequired} without a session; `ImpersonationRefused` during an impersonation;
 *   {@link OrganizationNotFound} or {@link PermissionDenied}
 *   from the permission check (`invitation:create`) or for a role above the inviter's;
 *   {@link InvalidRequest} for a bad address, an unknown role, an address that is already a member
 *   or has a pending invitation.
 */
export async function invite(ctx: RequestContext, input: { organizationId: string; email: unknown; role: unknown }): Promise<MadeInvitation> {
  const user = await changingActor(ctx)
  const inviter = await requireMemberPermission(ctx, user.id, input.organizationId, "invitation:create")
  const { organization } = inviter
  const email = invitedAddress(input.email)
  const role = await requireGrantable(ctx, inviter, input.role)
  const adapter = ctx.config.adapter
  const existing = await callAdapter(adapter, "getUserByEmail", email)
  if (existing && (await callAdapter(adapter, "getMember", organization.id, existing.id))) {
    throw new InvalidRequest(`${email} is already a member of this organization`)
  }
  const now = Date.now()
  const pending = (await callAdapter(adapter, "listInvitations", organization.id)).find(
    (candidate) => candidate.status === "pending" && candidate.email.toLowerCase() === email && new Date(candidate.expiresAt).getTime() > now,
  )
  if (pending) throw new InvalidRequest(`${email} already has a pending invitation to this organization; revoke it to send a new one`)

  const maxAge = invitationMaxAge(ctx)
  const token = encodeBase64url(crypto.getRandomValues(new Uint8Array(32)))
  const url = invitationUrl(ctx, token)
  const stored = await callAdapter(adapter, "createInvitation", {
    organizationId: organization.id,
    email,
    role,
    inviterId: user.id,
    tokenHash: await invitationTokenHash(token),
    expiresAt: new Date(now + maxAge * 1000),
  })
  await recordAudit(ctx, user.id, { action: "invitation.create", organizationId: organization.id, targetType: "invitation", targetId: stored.id, details: { email, role } })
  const emailed = await sendInvitationEmail(ctx, { to: email, url, organization, inviter: user, role, expires: stored.expiresAt })
  return { invitation: publicInvitation(stored), url, emailed }
}

/**
 * The organization's pending invitations, newest first, for a member who may invite.
 *
 * @throws {SessionRequired}, {@link OrganizationNotFound}, {@link PermissionDenied} (`invitation:create`).
 */
export async function pendingInvitations(ctx: RequestContext, organizationId: string): Promise<Invitation[]> {
  const { user } = await signedInActor(ctx)
  const { organization } = await requireMemberPermission(ctx, user.id, organizationId, "invitation:create")
  const all = await callAdapter(ctx.config.adapter, "listInvitations", organization.id)
  return all.filter((invitation) => invitation.status === "pending").map(publicInvitation)
}

/**
 * Revokes a pending invitation of the organization: its link stops working.
 *
 * @throws {SessionRequired}, `ImpersonationRefused`, {@link OrganizationNotFound}, {@link PermissionDenied} (`invitation:revoke`);
 *   {@link InvitationInvalid} for an invitation of another organization, or one no longer pending.
 */
export async function revoke(ctx: RequestContext, organizationId: string, invitationId: string): Promise<Invitation> {
  const user = await changingActor(ctx)
  const { organization } = await requireMemberPermission(ctx, user.id, organizationId, "invitation:revoke")
  const adapter = ctx.config.adapter
  const stored = await callAdapter(adapter, "getInvitation", invitationId)
  if (!stored || stored.organizationId !== organization.id) throw new InvitationInvalid("No such invitation in this organization")
  const revoked = await callAdapter(adapter, "setInvitationStatus", stored.id, "pending", "revoked")
  if (!revoked) throw new InvitationInvalid(`The invitation is no longer pending (${stored.status})`)
  await recordAudit(ctx, user.id, { action: "invitation.revoke", organizationId: organization.id, targetType: "invitation", targetId: stored.id, details: { email: stored.email } })
  return publicInvitation(revoked)
}

/** Why an invitation read by its token cannot be answered (the page words each). */
export type InvitationUnusable = "unknown" | "expired" | "answered"

/** The invitation `token` opens, with why it cannot be answered (if so), and its organization. */
export async function invitationByToken(
  ctx: RequestContext,
  token: unknown,
): Promise<{ invitation: AdapterInvitation; organization: AdapterOrganization } | { unusable: InvitationUnusable }> {
  // A token is 43 base64url characters; anything else was never one of ours (no lookup for it).
  if (typeof token !== "string" || !/^[A-Za-z0-9_-]{43}$/.test(token)) return { unusable: "unknown" }
  const adapter = ctx.config.adapter
  const invitation = await callAdapter(adapter, "getInvitationByTokenHash", await invitationTokenHash(token))
  if (!invitation) return { unusable: "unknown" }
  if (invitation.status !== "pending") return { unusable: "answered" }
  if (!(new Date(invitation.expiresAt).getTime() > Date.now())) return { unusable: "expired" }
  const organization = await callAdapter(adapter, "getOrganization", { id: invitation.organizationId })
  if (!organization) return { unusable: "unknown" }
  return { invitation, organization }
}

/** Whether `user` is the one `invitation` was sent to: the same address, proven. */
export function isInvitee(user: AdapterUser, invitation: AdapterInvitation): boolean {
  // Proven: an address anyone can type in at sign-up must not pick up someone's invitation.
  return typeof user.email === "string" && Boolean(user.emailVerified) && user.email.toLowerCase() === invitation.email.toLowerCase()
}

/** The pending invitation `token` opens for the signed-in user, or an {@link InvitationInvalid} naming why not. */
async function ownInvitation(ctx: RequestContext, user: AdapterUser, token: unknown): Promise<{ invitation: AdapterInvitation; organization: AdapterOrganization }> {
  const found = await invitationByToken(ctx, token)
  if ("unusable" in found) throw new InvitationInvalid(`The invitation link is ${found.unusable === "unknown" ? "unknown" : found.unusable === "expired" ? "expired" : "already used or revoked"}`)
  if (!isInvitee(user, found.invitation)) throw new InvitationInvalid("The invitation was sent to another address than the signed-in user's proven one")
  return found
}

/**
 * Accepts the invitation `token` opens for the signed-in user: the invitation is spent (of two
 * concurrent acceptances, one wins) and the user becomes a member with its role.
 *
 * @throws {SessionRequired} without a session; {@link InvitationInvalid} for an unknown, expired,
 *   used or revoked link, or one sent to another address. Nothing changes then.
 */
export async function accept(ctx: RequestContext, token: unknown): Promise<AcceptedInvitation> {
  const user = await changingActor(ctx)
  const { invitation, organization } = await ownInvitation(ctx, user, token)
  const adapter = ctx.config.adapter
  const spent = await callAdapter(adapter, "setInvitationStatus", invitation.id, "pending", "accepted")
  if (!spent) throw new InvitationInvalid("The invitation was used or revoked meanwhile")
  const added = await callAdapter(adapter, "addMember", { organizationId: organization.id, userId: user.id, role: invitation.role })
  // Already a member (joined another way meanwhile): the role they have stays; the link is spent.
  const member = added === "already-member" ? await callAdapter(adapter, "getMember", organization.id, user.id) : added
  if (!member) throw new OrganizationNotFound("The organization lost the membership while it was being accepted")
  await recordAudit(ctx, user.id, {
    action: "invitation.accept",
    organizationId: organization.id,
    targetType: "invitation",
    targetId: invitation.id,
    details: { role: member.role, alreadyMember: added === "already-member" },
  })
  return { organization: { id: organization.id, name: organization.name, slug: organization.slug }, member }
}

/**
 * Declines the invitation `token` opens for the signed-in user: the link stops working.
 *
 * @throws {SessionRequired}; {@link InvitationInvalid} as for {@link accept}.
 */
export async function decline(ctx: RequestContext, token: unknown): Promise<Invitation> {
  const user = await changingActor(ctx)
  const { invitation, organization } = await ownInvitation(ctx, user, token)
  const declined = await callAdapter(ctx.config.adapter, "setInvitationStatus", invitation.id, "pending", "declined")
  if (!declined) throw new InvitationInvalid("The invitation was used or revoked meanwhile")
  await recordAudit(ctx, user.id, { action: "invitation.decline", organizationId: organization.id, targetType: "invitation", targetId: invitation.id })
  return publicInvitation(declined)
}

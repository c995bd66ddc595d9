/**
 * The invitation server functions: inviting, listing and revoking (for members whose role allows
 * it), accepting and declining (for the invited user), and joining by email domain, each acting as
 * the signed-in user of a request. Called from the application's own server code (no route, no
 * CSRF token: the application's own form handling protects its forms).
 * @module
 */
import type { AdapterMember } from "../../adapters/index.js"
import type { AuthConfig } from "../../types.js"
import type { RequestContext } from "../request-context.js"
import type { SessionRequest } from "../request-session.js"
import type { AcceptedInvitation, Invitation, MadeInvitation } from "./invitations.js"

export type { AcceptedInvitation, Invitation, MadeInvitation }

// Loaded on first use: every app imports this module with `gatehouse-auth`, few call these.
const invitations = () => import("./invitations.js")
const contextOf = async (request: SessionRequest, config: AuthConfig): Promise<RequestContext> =>
  (await import("../request-session.js")).sessionRequestContext(request, config)

/** What {@link inviteMember} takes. */
export interface InviteMemberInput {
  /** The organization to invite into. */
  organizationId: string
  /** The address to invite. */
  email: string
  /** The role the invitee gets: `member`, `admin`, `owner`, or one of the app's. */
  role: string
}

/** What {@link revokeInvitation} takes. */
export interface RevokeInvitationInput {
  /** The organization the invitation is to. */
  organizationId: string
  /** The invitation's id (from {@link listInvitations}). */
  invitationId: string
}

/**
 * Invites `email` into an organization as `role`, acting as the signed-in user, who needs the
 * `invitation:create` permission there and may not give a role above their own (an admin cannot
 * invite an owner). The link (single use, valid for `organizations.invitationMaxAge`, 7 days by
 * default) is emailed through the first email provider that can send messages of its own
 * (Nodemailer); without one, send `url` yourself (`emailed` is `false`). Only the invited address,
 * proven, can accept it.
 *
 * @throws {SessionRequired} without a session; `OrganizationNotFound` when the user is not a member;
 *   `PermissionDenied` without the permission or for a role above theirs; `InvalidRequest` for a
 *   bad address, an unknown role, or an address that is a member or has a pending invitation already.
 * @example
 * ```ts
 * import { inviteMember } from "gatehouse-auth"
 *
 * const { invitation, emailed, url } = await inviteMember(request, authConfig, { organizationId, email: "ada@corp.test", role: "member" })
 * if (!emailed) await sendMyOwnEmail(invitation.email, url)
 * ```
 */
export async function inviteMember(request: SessionRequest, config: AuthConfig, input: InviteMemberInput): Promise<MadeInvitation> {
  return (await invitations()).invite(await contextOf(request, config), { organizationId: String(input.organizationId), email: input.email, role: input.role })
}

/**
 * The pending invitations of an organization, newest first (no tokens), for a member with the
 * `invitation:create` permission.
 *
 * @throws {SessionRequired}; `OrganizationNotFound`; `PermissionDenied`.
 * @example
 * ```ts
 * import { listInvitations } from "gatehouse-auth"
 *
 * const pending = await listInvitations(request, authConfig, organizationId)
 * ```
 */
export async function listInvitations(request: SessionRequest, config: AuthConfig, organizationId: string): Promise<Invitation[]> {
  return (await invitations()).pendingInvitations(await contextOf(request, config), String(organizationId))
}

/**
 * Revokes a pending invitation (its link stops working), for a member with the
 * `invitation:revoke` permission.
 *
 * @throws {SessionRequired}; `OrganizationNotFound`; `PermissionDenied`; `InvitationInvalid` for an
 *   invitation of another organization or one no longer pending.
 * @example
 * ```ts
 * import { revokeInvitation } from "gatehouse-auth"
 *
 * await revokeInvitation(request, authConfig, { organizationId, invitationId })
 * ```
 */
export async function revokeInvitation(request: SessionRequest, config: AuthConfig, input: RevokeInvitationInput): Promise<Invitation> {
  return (await invitations()).revoke(await contextOf(request, config), String(input.organizationId), String(input.invitationId))
}

/**
 * Accepts the invitation whose link carried `token`, for the signed-in user: they must be signed
 * in with the invited address, proven (an email link or a provider that verified it). The user
 * becomes a member with the invitation's role; the link is spent. Call it from a POST (a link
 * opened by a mail scanner must change nothing).
 *
 * @throws {SessionRequired} without a session; `InvitationInvalid` for a link that is unknown,
 *   expired, used, revoked or sent to another address (nothing changes then).
 * @example
 * ```ts
 * import { acceptInvitation } from "gatehouse-auth"
 *
 * const { organization } = await acceptInvitation(request, authConfig, form.get("token"))
 * ```
 */
export async function acceptInvitation(request: SessionRequest, config: AuthConfig, token: string): Promise<AcceptedInvitation> {
  return (await invitations()).accept(await contextOf(request, config), token)
}

/**
 * Declines the invitation whose link carried `token`, for the signed-in invited user, as for
 * {@link acceptInvitation}: the link stops working.
 *
 * @throws {SessionRequired}; `InvitationInvalid` as for {@link acceptInvitation}.
 * @example
 * ```ts
 * import { declineInvitation } from "gatehouse-auth"
 *
 * await declineInvitation(request, authConfig, form.get("token"))
 * ```
 */
export async function declineInvitation(request: SessionRequest, config: AuthConfig, token: string): Promise<Invitation> {
  return (await invitations()).decline(await contextOf(request, config), token)
}

/**
 * Makes the signed-in user a `member` of an organization whose policy lists the domain of their
 * proven address (`emailDomains`, exact domains only).
 *
 * @throws {SessionRequired}; `OrganizationNotFound` for an unknown organization or one that does
 *   not admit the user (not told apart); `InvalidRequest` when they are a member already.
 * @example
 * ```ts
 * import { joinOrganization } from "gatehouse-auth"
 *
 * const member = await joinOrganization(request, authConfig, organizationId)
 * ```
 */
export async function joinOrganization(request: SessionRequest, config: AuthConfig, organizationId: string): Promise<AdapterMember> {
  return (await import("./domain-join.js")).joinByDomain(await contextOf(request, config), organizationId)
}

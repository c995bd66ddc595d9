/**
 * Organizations from your own pages, in the browser: the user's organizations, the active one,
 * members, roles, invitations and the audit log, through the opt-in `{basePath}/organizations`
 * routes (`organizations: { routes: true }` on the server), and `can` to decide what UI to show.
 * Apart from `gatehouse-auth/client` so that a page that only signs in does not carry it. The
 * server checks every action again: `can` in the browser only hides buttons.
 *
 * @example
 * ```ts
 * import { getSession } from "gatehouse-auth/client"
 * import { can, createOrganization, setActiveOrganization, listMembers } from "gatehouse-auth/client/organizations"
 *
 * const organization = await createOrganization({ name: "Acme", slug: "acme" })
 * await setActiveOrganization(organization.id)
 * const session = await getSession()
 * if (can(session, "member:remove")) showRemoveButtons()
 * const { members, nextCursor } = await listMembers(organization.id, { limit: 50 })
 * ```
 * @module gatehouse-auth/client/organizations
 */
import type { BasePathOption } from "./index.js"

/** An organization's policy, as the routes answer it. */
export interface OrganizationPolicyInfo {
  /** Members must have signed in with a second factor. */
  requireTwoFactor?: boolean
  /** The sign-in methods (provider ids) members may use. */
  signInMethods?: string[]
  /** Verified email domains whose users may join without an invitation. */
  emailDomains?: string[]
}

/** An organization, as the routes answer it (dates as ISO strings). */
export interface OrganizationInfo {
  /** Its id. */
  id: string
  /** Its display name. */
  name: string
  /** Its unique slug. */
  slug: string
  /** When it was created (ISO). */
  createdAt: string
  /** Its policy, or `null`. */
  policy: OrganizationPolicyInfo | null
}

/** An organization as a member reads it: with their role, permissions and unmet policy requirements. */
export interface OrganizationView extends OrganizationInfo {
  /** The reader's role. */
  role: string
  /** What the role lets the reader do (empty while `unmet` is not). */
  permissions: string[]
  /** Policy requirements the session does not meet (`"two-factor"`, `"sign-in-method"`). */
  unmet: string[]
}

/** One of the user's organizations. */
export interface OrganizationListing {
  /** The organization. */
  organization: OrganizationInfo
  /** The user's role in it. */
  role: string
  /** When the user joined (ISO). */
  joinedAt: string
}

/** A membership. */
export interface MemberInfo {
  /** The organization's id. */
  organizationId: string
  /** The member's user id. */
  userId: string
  /** Their role. */
  role: string
  /** When they joined (ISO). */
  createdAt: string
}

/** A member in a member list, with what the list shows of their user. */
export interface MemberListing extends MemberInfo {
  /** The member's user. */
  user: {
    /** Their email address. */
    email: string
    /** Their name, or `null`. */
    name: string | null
    /** Their image URL, or `null`. */
    image: string | null
  }
}

/** A page of members; pass `nextCursor` as `after` for the next one (`null`: the last page). */
export interface MemberPageInfo {
  /** The members, oldest first. */
  members: MemberListing[]
  /** Where the next page starts, or `null`. */
  nextCursor: string | null
}

/** What {@link listMembers} takes. */
export interface ListMembersOptions extends BasePathOption {
  /** The `nextCursor` of the previous page. */
  after?: string
  /** Members per page, 1 to 100 (default 50). */
  limit?: number
  /** Only members whose email or name starts with this. */
  search?: string
}

/** One entry of the audit log (dates as ISO strings). */
export interface AuditEntryInfo {
  /** The entry's id. */
  id: string
  /** Who acted, or `null`. */
  actorId: string | null
  /** What was done (`member.remove`, …). */
  action: string
  /** The organization, or `null`. */
  organizationId: string | null
  /** The kind of target, or `null`. */
  targetType: string | null
  /** The target's id, or `null`. */
  targetId: string | null
  /** The client's address, or `null`; left out for readers who are not Gatehouse admins. */
  ip?: string | null
  /** The client's user agent, or `null`; left out for readers who are not Gatehouse admins. */
  userAgent?: string | null
  /** When (ISO). */
  createdAt: string
  /** What else was recorded. */
  details: unknown
}

/** A page of the audit log, newest first; pass `nextCursor` as `before` for the next one. */
export interface AuditLogPageInfo {
  /** The entries. */
  entries: AuditEntryInfo[]
  /** Where the next page starts, or `null`. */
  nextCursor: string | null
}

/** What {@link listAuditLog} takes. */
export interface ListAuditLogOptions extends BasePathOption {
  /** The `nextCursor` of the previous page. */
  before?: string
  /** Entries per page, 1 to 100 (default 50). */
  limit?: number
  /** Only entries of this action. */
  action?: string
}

/** An invitation, as the routes answer it (never its token). */
export interface InvitationInfo {
  /** Its id. */
  id: string
  /** The organization's id. */
  organizationId: string
  /** The address invited. */
  email: string
  /** The role it gives. */
  role: string
  /** Who invited. */
  inviterId: string
  /** `pending`, `accepted`, `declined` or `revoked`. */
  status: string
  /** When the link stops working (ISO). */
  expiresAt: string
  /** When it was made (ISO). */
  createdAt: string
}

/** What {@link inviteMember} made. */
export interface InvitationMade {
  /** The invitation. */
  invitation: InvitationInfo
  /** Whether the server emailed the link. */
  emailed: boolean
  /** The link, when nobody emailed it (send it yourself). */
  url?: string
}

/** What {@link acceptInvitation} resolves to: the organization joined and the membership. */
export interface InvitationAccepted {
  /** The organization. */
  organization: Pick<OrganizationInfo, "id" | "name" | "slug">
  /** The new membership. */
  member: MemberInfo
}

/** What `can` reads of a session. */
export interface PermissionHolder {
  /** The session's active organization. */
  readonly activeOrganization?: {
    /** What the role lets the session do there. */
    readonly permissions: readonly string[]
    /** Policy requirements the session does not meet (none: left out or empty). */
    readonly unmet?: readonly string[]
  } | null
}

/**
 * An organization route refused: `name` is the error type the server named (`SessionRequired`,
 * `PermissionDenied`, `OrganizationNotFound`, `UserNotFound`, `SlugTaken`, `LastOwner`,
 * `InvitationInvalid`, `InvalidRequest`, `MissingCSRF`, …, or `HTTP <status>`).
 *
 * @example
 * ```ts
 * try { await leaveOrganization(id) } catch (error) {
 *   if (error instanceof OrganizationRouteError && error.name === "LastOwner") showMessage("Make someone else an owner first")
 * }
 * ```
 */
export class OrganizationRouteError extends Error {
  /** The HTTP status of the refusal. */
  readonly status: number
  constructor(type: string, message: string, status: number) {
    super(message)
    this.name = type
    this.status = status
  }
}

/**
 * Whether `session` may do `permission` in its active organization, for showing UI only (the
 * server decides). Fails closed: no session, no active organization, an unmet policy requirement
 * or a permission the role lacks is `false`. The same check as `can` of `gatehouse-auth`.
 *
 * @example
 * ```ts
 * deleteButton.hidden = !can(session, "organization:delete")
 * ```
 */
export function can(session: PermissionHolder | null | undefined, permission: string): boolean {
  const active = session?.activeOrganization
  if (active === null || typeof active !== "object") return false
  if (!Array.isArray(active.permissions) || (active.unmet !== undefined && (!Array.isArray(active.unmet) || active.unmet.length > 0))) return false
  return typeof permission === "string" && permission.includes(":") && active.permissions.includes(permission)
}

/**
 * The signed-in user's organizations with their role in each.
 *
 * @throws {OrganizationRouteError} `SessionRequired` when signed out.
 * @example
 * ```ts
 * for (const { organization, role } of await listOrganizations()) addOption(organization.name, role)
 * ```
 */
export async function listOrganizations(options: BasePathOption = {}): Promise<OrganizationListing[]> {
  return (await organizationRoute(options, "")).organizations as OrganizationListing[]
}

/**
 * Creates an organization; the signed-in user becomes its owner.
 *
 * @throws {OrganizationRouteError} `SlugTaken`, `InvalidRequest`, `PermissionDenied`.
 * @example
 * ```ts
 * const organization = await createOrganization({ name: "Acme", slug: "acme" })
 * ```
 */
export async function createOrganization(organization: { name: string; slug: string }, options: BasePathOption = {}): Promise<OrganizationInfo> {
  return (await organizationRoute(options, "", { name: organization.name, slug: organization.slug })).organization as OrganizationInfo
}

/**
 * Makes one of the user's organizations the session's active one (`null` clears it); read the
 * session again to see it.
 *
 * @throws {OrganizationRouteError} `OrganizationNotFound` for one the user is no member of.
 * @example
 * ```ts
 * await setActiveOrganization(organization.id)
 * ```
 */
export async function setActiveOrganization(organizationId: string | null, options: BasePathOption = {}): Promise<void> {
  await organizationRoute(options, "/active", { organizationId })
}

/**
 * An organization the user is a member of, with their role and permissions.
 *
 * @throws {OrganizationRouteError} `OrganizationNotFound` for a non-member.
 * @example
 * ```ts
 * const { name, role } = await getOrganization(id)
 * ```
 */
export async function getOrganization(organizationId: string, options: BasePathOption = {}): Promise<OrganizationView> {
  return (await organizationRoute(options, `/${segment(organizationId)}`)).organization as OrganizationView
}

/**
 * Changes an organization's name, slug or policy (`organization:update`).
 *
 * @throws {OrganizationRouteError} `PermissionDenied`, `SlugTaken`, `InvalidRequest`.
 * @example
 * ```ts
 * await updateOrganization(id, { name: "Acme Inc.", policy: { requireTwoFactor: true } })
 * ```
 */
export async function updateOrganization(
  organizationId: string,
  patch: { name?: string; slug?: string; policy?: OrganizationPolicyInfo | null },
  options: BasePathOption = {},
): Promise<OrganizationInfo> {
  return (await organizationRoute(options, `/${segment(organizationId)}`, { ...patch })).organization as OrganizationInfo
}

/**
 * Deletes an organization (`organization:delete`: owners).
 *
 * @throws {OrganizationRouteError} `PermissionDenied`, `OrganizationNotFound`.
 * @example
 * ```ts
 * await deleteOrganization(id)
 * ```
 */
export async function deleteOrganization(organizationId: string, options: BasePathOption = {}): Promise<void> {
  await organizationRoute(options, `/${segment(organizationId)}/delete`, {})
}

/**
 * A page of an organization's members.
 *
 * @throws {OrganizationRouteError} `OrganizationNotFound` for a non-member, `InvalidRequest` for a bad cursor.
 * @example
 * ```ts
 * const first = await listMembers(id, { limit: 50 })
 * const second = first.nextCursor ? await listMembers(id, { after: first.nextCursor }) : null
 * ```
 */
export async function listMembers(organizationId: string, options: ListMembersOptions = {}): Promise<MemberPageInfo> {
  const query = searchOf({ after: options.after, limit: options.limit, search: options.search })
  const answer = await organizationRoute(options, `/${segment(organizationId)}/members${query}`)
  return { members: answer.members as MemberListing[], nextCursor: typeof answer.nextCursor === "string" ? answer.nextCursor : null }
}

/**
 * Gives a member another role (`member:update`).
 *
 * @throws {OrganizationRouteError} `PermissionDenied` (one's own role, an owner without being
 *   one, a role above one's own), `LastOwner`, `UserNotFound`, `InvalidRequest` (an unknown role).
 * @example
 * ```ts
 * await updateMemberRole(id, member.userId, "admin")
 * ```
 */
export async function updateMemberRole(organizationId: string, userId: string, role: string, options: BasePathOption = {}): Promise<MemberInfo> {
  return (await organizationRoute(options, `/${segment(organizationId)}/members/${segment(userId)}`, { role })).member as MemberInfo
}

/**
 * Removes a member (`member:remove`).
 *
 * @throws {OrganizationRouteError} `PermissionDenied`, `LastOwner`, `UserNotFound`.
 * @example
 * ```ts
 * await removeMember(id, member.userId)
 * ```
 */
export async function removeMember(organizationId: string, userId: string, options: BasePathOption = {}): Promise<void> {
  await organizationRoute(options, `/${segment(organizationId)}/members/${segment(userId)}/remove`, {})
}

/**
 * Leaves an organization.
 *
 * @throws {OrganizationRouteError} `LastOwner` for its last owner.
 * @example
 * ```ts
 * await leaveOrganization(id)
 * ```
 */
export async function leaveOrganization(organizationId: string, options: BasePathOption = {}): Promise<void> {
  await organizationRoute(options, `/${segment(organizationId)}/leave`, {})
}

/**
 * A page of an organization's audit log (members whose role has `audit:read`: owners and admins by default).
 *
 * @throws {OrganizationRouteError} `PermissionDenied` for other members.
 * @example
 * ```ts
 * const { entries, nextCursor } = await listAuditLog(id, { action: "member.remove" })
 * ```
 */
export async function listAuditLog(organizationId: string, options: ListAuditLogOptions = {}): Promise<AuditLogPageInfo> {
  const query = searchOf({ before: options.before, limit: options.limit, action: options.action })
  const answer = await organizationRoute(options, `/${segment(organizationId)}/audit${query}`)
  return { entries: answer.entries as AuditEntryInfo[], nextCursor: typeof answer.nextCursor === "string" ? answer.nextCursor : null }
}

/**
 * The organization's pending invitations.
 *
 * @example
 * ```ts
 * const invitations = await listInvitations(id)
 * ```
 */
export async function listInvitations(organizationId: string, options: BasePathOption = {}): Promise<InvitationInfo[]> {
  return (await organizationRoute(options, `/${segment(organizationId)}/invitations`)).invitations as InvitationInfo[]
}

/**
 * Invites an address to the organization with a role; the server emails the link.
 *
 * @throws {OrganizationRouteError} `PermissionDenied` without `invitation:create`, `InvalidRequest`.
 * @example
 * ```ts
 * await inviteMember(id, { email: "grace@example.com", role: "member" })
 * ```
 */
export async function inviteMember(organizationId: string, invitation: { email: string; role: string }, options: BasePathOption = {}): Promise<InvitationMade> {
  const answer = await organizationRoute(options, `/${segment(organizationId)}/invitations`, { email: invitation.email, role: invitation.role })
  return { invitation: answer.invitation as InvitationInfo, emailed: answer.emailed === true, ...(typeof answer.url === "string" && { url: answer.url }) }
}

/**
 * Revokes a pending invitation.
 *
 * @example
 * ```ts
 * await revokeInvitation(id, invitation.id)
 * ```
 */
export async function revokeInvitation(organizationId: string, invitationId: string, options: BasePathOption = {}): Promise<InvitationInfo> {
  return (await organizationRoute(options, `/${segment(organizationId)}/invitations/${segment(invitationId)}/revoke`, {})).invitation as InvitationInfo
}

/**
 * Accepts the invitation of a link's `token` as the signed-in user (the address it was sent to).
 *
 * @throws {OrganizationRouteError} `InvitationInvalid` (unknown, expired, used, revoked, or for another address).
 * @example
 * ```ts
 * const { organization } = await acceptInvitation(new URL(location.href).searchParams.get("token") ?? "")
 * ```
 */
export async function acceptInvitation(token: string, options: BasePathOption = {}): Promise<InvitationAccepted> {
  const answer = await organizationRoute(options, "/invitation", { token, decision: "accept" })
  return { organization: answer.organization as InvitationAccepted["organization"], member: answer.member as MemberInfo }
}

/**
 * Declines the invitation of a link's `token`.
 *
 * @example
 * ```ts
 * await declineInvitation(token)
 * ```
 */
export async function declineInvitation(token: string, options: BasePathOption = {}): Promise<InvitationInfo> {
  return (await organizationRoute(options, "/invitation", { token, decision: "decline" })).invitation as InvitationInfo
}

/**
 * Joins an organization whose policy admits the user's verified email domain.
 *
 * @example
 * ```ts
 * await joinOrganization(id)
 * ```
 */
export async function joinOrganization(organizationId: string, options: BasePathOption = {}): Promise<MemberInfo> {
  return (await organizationRoute(options, `/${segment(organizationId)}/join`, {})).member as MemberInfo
}

/**
 * GET (no `fields`) or POST (JSON, with the CSRF token) `organizations{path}`; its JSON object, or
 * an {@link OrganizationRouteError}: a refusal with `{ error }`, or a redirect (asked for as
 * `{ url }`) to a page whose query names the error.
 */
async function organizationRoute(options: BasePathOption, path: string, fields?: Record<string, unknown>): Promise<Record<string, unknown>> {
  const basePath = options.basePath ?? "/auth"
  const headers: Record<string, string> = { Accept: "application/json", "X-Auth-Return-Redirect": "1" }
  const init: RequestInit = { credentials: "same-origin", headers }
  if (fields) {
    init.method = "POST"
    headers["Content-Type"] = "application/json"
    init.body = JSON.stringify({ ...fields, csrfToken: await csrfToken(basePath) })
  }
  const response = await fetch(`${basePath}/organizations${path}`, init)
  const answer = (await response.json().catch(() => null)) as Record<string, unknown> | null
  // A refusal the server answers with a redirect (a missing CSRF token) names its error in the URL.
  const named = typeof answer?.url === "string" ? new URL(answer.url, location.href).searchParams.get("error") : null
  const type = typeof answer?.error === "string" ? answer.error : named
  if (!response.ok || answer === null || typeof answer !== "object" || Array.isArray(answer) || type !== null) {
    const name = type ?? `HTTP ${response.status}`
    throw new OrganizationRouteError(name, typeof answer?.message === "string" ? answer.message : name, response.status)
  }
  return answer
}

function segment(value: string): string {
  return encodeURIComponent(String(value))
}

function searchOf(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== "") search.set(name, String(value))
  const text = search.toString()
  return text === "" ? "" : `?${text}`
}

/** The CSRF token the routes' POSTs carry (`""` when the route gave none: the POST is then refused). */
async function csrfToken(basePath: string): Promise<string> {
  const response = await fetch(`${basePath}/csrf`, { credentials: "same-origin", headers: { Accept: "application/json" } })
  const answer = (response.ok ? await response.json().catch(() => null) : null) as { csrfToken?: unknown } | null
  return typeof answer?.csrfToken === "string" ? answer.csrfToken : ""
}

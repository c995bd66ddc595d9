/**
 * The admin API's server functions, called from the application's own server code for the admin
 * signed in on a request (no route, no CSRF token: the application's own form handling protects
 * its forms). Each needs `admin` configured and a signed-in admin (`admin.userIds`, or a role in
 * `admin.roles` set with {@link setUserRole}) who is not banned; anyone else is refused with `PermissionDenied`.
 * Every call that succeeds writes one audit-log row, reads (`admin.search-users`,
 * `admin.view-user`) as well as changes.
 * @module
 */
import type { AuthConfig } from "../../types.js"
import type { RequestContext } from "../request-context.js"
import type { SessionRequest } from "../request-session.js"
import type { DeletedUser } from "./delete-user.js"
import type { BanOptions } from "./user-actions.js"
import type {
  AdminUser,
  AdminUserAccount,
  AdminUserDetails,
  AdminUserMembership,
  AdminUserPage,
  AdminUserSession,
  AdminUserStatus,
  SearchUsersQuery,
} from "./users.js"

export type { AdminUser, AdminUserAccount, AdminUserDetails, AdminUserMembership, AdminUserPage, AdminUserSession, AdminUserStatus, BanOptions, DeletedUser, SearchUsersQuery }

// Loaded on first use: every app imports this module with `gatehouse-auth`, few call these.
const users = () => import("./users.js")
const actions = () => import("./user-actions.js")
const contextOf = async (request: SessionRequest, config: AuthConfig): Promise<RequestContext> =>
  (await import("../request-session.js")).sessionRequestContext(request, config)

/**
 * A page of users, in id order, optionally only those whose email or name starts with `search`
 * (case ignored). Pass the page's `next` as `after` for the following page.
 *
 * @throws {PermissionDenied} for a non-admin; `SessionRequired` without a session;
 *   `InvalidRequest` for a limit outside 1–100.
 * @example
 * ```ts
 * import { searchUsers } from "gatehouse-auth"
 *
 * const { users, next } = await searchUsers(request, authConfig, { search: "ada", limit: 20 })
 * ```
 */
export async function searchUsers(request: SessionRequest, config: AuthConfig, query: SearchUsersQuery = {}): Promise<AdminUserPage> {
  return (await users()).searchUsersPage(await contextOf(request, config), query ?? {})
}

/**
 * One user whole: the user, their role and ban, their live database sessions, linked accounts
 * and organizations. No token of any kind is included.
 *
 * @throws {PermissionDenied} for a non-admin; `UserNotFound` for an unknown id.
 * @example
 * ```ts
 * import { getUserDetails } from "gatehouse-auth"
 *
 * const { user, status, sessions } = await getUserDetails(request, authConfig, params.id)
 * ```
 */
export async function getUserDetails(request: SessionRequest, config: AuthConfig, userId: string): Promise<AdminUserDetails> {
  return (await users()).userDetails(await contextOf(request, config), userId)
}

/**
 * Bans a user: every session of theirs ends at once on every instance (database rows deleted,
 * session version raised, shared-store copies dropped; a JWT session ends at its next version
 * check, every `session.revocationCheckAge` seconds), and sign-in is refused with `UserBanned`
 * until `expiresAt` passes or {@link unbanUser} lifts it.
 *
 * @throws {PermissionDenied} for a non-admin, oneself, or an admin listed in `admin.userIds`;
 *   `UserNotFound`; `InvalidRequest` for a reason over 500 characters or an end not in the future.
 * @example
 * ```ts
 * import { banUser } from "gatehouse-auth"
 *
 * await banUser(request, authConfig, userId, { reason: "spam", expiresAt: new Date(Date.now() + 7 * 86400_000) })
 * ```
 */
export async function banUser(request: SessionRequest, config: AuthConfig, userId: string, options: BanOptions = {}): Promise<AdminUserStatus> {
  return (await actions()).banUserAs(await contextOf(request, config), userId, options ?? {})
}

/**
 * Lifts a user's ban: they can sign in again at once.
 *
 * @throws {PermissionDenied} for a non-admin (a banned admin is none) or oneself; `UserNotFound`.
 * @example
 * ```ts
 * import { unbanUser } from "gatehouse-auth"
 *
 * await unbanUser(request, authConfig, userId)
 * ```
 */
export async function unbanUser(request: SessionRequest, config: AuthConfig, userId: string): Promise<AdminUserStatus> {
  return (await actions()).unbanUserAs(await contextOf(request, config), userId)
}

/**
 * Sets a user's role (`null` clears it); a role in `admin.roles` (default `["admin"]`) makes them
 * an admin. An admin cannot demote themselves.
 *
 * @throws {PermissionDenied} for a non-admin or one's own demotion; `UserNotFound`;
 *   `InvalidRequest` for a role that is no short word.
 * @example
 * ```ts
 * import { setUserRole } from "gatehouse-auth"
 *
 * await setUserRole(request, authConfig, userId, "admin")
 * ```
 */
export async function setUserRole(request: SessionRequest, config: AuthConfig, userId: string, role: string | null): Promise<AdminUserStatus> {
  return (await actions()).setUserRoleAs(await contextOf(request, config), userId, role)
}

/**
 * Sets a user's password through `admin.setPassword`, the app's own hashing and storage. The
 * password is neither logged nor recorded; their sessions stay (end them with {@link revokeUserSessions}).
 *
 * @throws `InvalidConfig` without `admin.setPassword`; `PermissionDenied` for a non-admin, an
 *   admin listed in `admin.userIds`, or another admin unless the caller is listed there;
 *   `UserNotFound`; `InvalidRequest` for an empty password or one over 1024 characters.
 * @example
 * ```ts
 * import { setUserPassword } from "gatehouse-auth"
 *
 * await setUserPassword(request, authConfig, userId, form.get("password"))
 * ```
 */
export async function setUserPassword(request: SessionRequest, config: AuthConfig, userId: string, password: string): Promise<void> {
  await (await actions()).setUserPasswordAs(await contextOf(request, config), userId, password)
}

/**
 * Ends every session of a user on every instance, as `signOutEverywhere` does.
 *
 * @throws {PermissionDenied} for a non-admin, an admin listed in `admin.userIds`, or another
 *   admin unless the caller is listed there; `UserNotFound`.
 * @example
 * ```ts
 * import { revokeUserSessions } from "gatehouse-auth"
 *
 * await revokeUserSessions(request, authConfig, userId)
 * ```
 */
export async function revokeUserSessions(request: SessionRequest, config: AuthConfig, userId: string): Promise<void> {
  await (await actions()).revokeUserSessionsAs(await contextOf(request, config), userId)
}

/**
 * Deletes a user with their accounts, sessions, memberships and status, and the organizations
 * where they were the only member; every session of theirs ends on every instance.
 *
 * @throws {PermissionDenied} for a non-admin, oneself, or an admin listed in `admin.userIds`;
 *   `UserNotFound`; `LastOwner` when they are the only owner of an organization with other
 *   members (nothing is deleted: make someone else its owner first).
 * @example
 * ```ts
 * import { deleteUser } from "gatehouse-auth"
 *
 * const { deletedOrganizations } = await deleteUser(request, authConfig, userId)
 * ```
 */
export async function deleteUser(request: SessionRequest, config: AuthConfig, userId: string): Promise<DeletedUser> {
  return (await import("./delete-user.js")).deleteUserAs(await contextOf(request, config), userId)
}

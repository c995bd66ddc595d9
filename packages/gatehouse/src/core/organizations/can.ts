/**
 * `can`, the permission check of a session: a leaf with no imports, the same on the server and in
 * the browser (`gatehouse-auth/client/organizations` carries a copy, as browser client modules
 * import nothing; test/organizations/access.test.ts holds the two to one behaviour).
 * @module
 */
import type { BuiltInPermission, PermissionHolder } from "../../access-types.js"

export type { PermissionHolder }

/**
 * Whether `session` may do `permission` (`"project:delete"`) in its active organization. Fails
 * closed: no session, no active organization, a policy requirement not met, or a permission the
 * role does not have is `false`. Synchronous: it reads `session.activeOrganization`, which
 * Gatehouse re-reads on every session read. In the browser it decides what UI to show, never
 * what the server allows.
 *
 * @example
 * ```ts
 * import { can } from "gatehouse-auth"
 *
 * const session = await auth()
 * if (!can(session, "member:remove")) return new Response("Forbidden", { status: 403 })
 * ```
 */
export function can(session: PermissionHolder | null | undefined, permission: BuiltInPermission | (string & {})): boolean {
  const active = session?.activeOrganization
  if (active === null || typeof active !== "object") return false
  if (!Array.isArray(active.permissions) || (active.unmet !== undefined && (!Array.isArray(active.unmet) || active.unmet.length > 0))) return false
  return typeof permission === "string" && permission.includes(":") && active.permissions.includes(permission)
}

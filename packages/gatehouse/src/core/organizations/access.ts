/**
 * Roles and permissions: the built-in statements and roles, an app's own (`defineAccess`), and
 * `can`, the check that fails closed.
 * @module
 */
import { InvalidConfig } from "../../errors.js"
import type { AccessControl, AccessPermission, AccessStatements, BuiltInStatements, RoleStatements } from "../../access-types.js"
import { can, type PermissionHolder } from "./can.js"

export { can, type PermissionHolder }
export type {
  AccessControl,
  AccessPermission,
  AccessStatements,
  BuiltInPermission,
  BuiltInStatements,
  MergedActions,
  Permission,
  RoleStatements,
} from "../../access-types.js"

const BUILT_IN_STATEMENTS: BuiltInStatements = {
  organization: ["update", "delete"],
  // Inviting is `invitation:create`: a `member:invite` nothing checks would only mislead.
  member: ["update", "remove"],
  invitation: ["create", "revoke"],
  audit: ["read"],
}

/** The roles Gatehouse defines; an app's roles may not take these names. */
export const BUILT_IN_ROLES = ["owner", "admin", "member"] as const

/** What {@link defineAccess} takes beside the statements. */
export interface DefineAccessOptions<S extends AccessStatements> {
  /** The app's roles by name (not `owner`, `admin` or `member`), each with what it may do. */
  roles: Readonly<Record<string, RoleStatements<S>>>
}

const RESERVED = new Set<string>(BUILT_IN_ROLES)
/** A resource or action name: no `:` (it separates the two), nothing blank. */
const NAME = /^[^\s:]+$/

/**
 * Declares the app's own statements and roles beside the built-in ones (`owner`: everything;
 * `admin`: everything but `organization:delete`; `member`: none of the built-in permissions), for
 * `organizations.access`. Checked at once: an unknown resource or action in a role, or a role
 * named like a built-in one, is an `InvalidConfig`.
 *
 * @throws {InvalidConfig} for a malformed statement, a role named `owner`, `admin` or `member`, or
 *   a role naming a permission no statement declares.
 * @example
 * ```ts
 * import { defineAccess } from "gatehouse-auth"
 *
 * export const access = defineAccess(
 *   { project: ["create", "delete"] },
 *   { roles: { editor: { project: ["create"] }, billing: { organization: ["update"] } } },
 * )
 * access.can(session, "project:delete") // TypeScript completes "project:create" | "project:delete" | …
 * const config = { providers, adapter, organizations: { access } }
 * ```
 */
export function defineAccess<const S extends AccessStatements>(statements: S, options: DefineAccessOptions<S>): AccessControl<S> {
  // Without a prototype: a resource or role named "__proto__" or "constructor" is a name, nothing more.
  const merged: Record<string, string[]> = Object.create(null) as Record<string, string[]>
  for (const [resource, actions] of Object.entries(BUILT_IN_STATEMENTS)) merged[resource] = [...actions]
  if (statements === null || typeof statements !== "object" || Array.isArray(statements)) {
    throw new InvalidConfig("defineAccess needs the statements as an object: { resource: [actions] }")
  }
  for (const [resource, actions] of Object.entries(statements as Record<string, unknown>)) {
    if (!NAME.test(resource)) throw new InvalidConfig(`defineAccess: the resource ${JSON.stringify(resource)} must be a name without spaces or ":"`)
    if (!Array.isArray(actions) || actions.length === 0) throw new InvalidConfig(`defineAccess: the resource "${resource}" needs a list of actions`)
    const known = (merged[resource] ??= [])
    for (const action of actions as unknown[]) {
      if (typeof action !== "string" || !NAME.test(action)) throw new InvalidConfig(`defineAccess: the action ${JSON.stringify(action)} of "${resource}" must be a name without spaces or ":"`)
      if (!known.includes(action)) known.push(action)
    }
  }
  const everything = Object.entries(merged).flatMap(([resource, actions]) => actions.map((action) => `${resource}:${action}`))
  const roles: Record<string, readonly string[]> = Object.assign(Object.create(null) as Record<string, readonly string[]>, {
    owner: Object.freeze(everything),
    admin: Object.freeze(everything.filter((permission) => permission !== "organization:delete")),
    member: Object.freeze([]),
  })
  const declared: unknown = options?.roles
  if (declared === null || typeof declared !== "object" || Array.isArray(declared)) throw new InvalidConfig("defineAccess needs { roles: { name: { resource: [actions] } } }")
  for (const [role, grants] of Object.entries(declared as Record<string, unknown>)) {
    if (RESERVED.has(role)) throw new InvalidConfig(`defineAccess: "${role}" is a built-in role; give the app's role another name`)
    if (role.trim() === "" || role.length > 64) throw new InvalidConfig(`defineAccess: the role name ${JSON.stringify(role)} must be 1 to 64 characters`)
    if (grants === null || typeof grants !== "object" || Array.isArray(grants)) throw new InvalidConfig(`defineAccess: the role "${role}" needs { resource: [actions] }`)
    const permissions: string[] = []
    for (const [resource, actions] of Object.entries(grants as Record<string, unknown>)) {
      const known = merged[resource]
      if (!known) throw new InvalidConfig(`defineAccess: the role "${role}" names the resource "${resource}", which no statement declares`)
      if (!Array.isArray(actions)) throw new InvalidConfig(`defineAccess: the role "${role}" needs a list of actions for "${resource}"`)
      for (const action of actions as unknown[]) {
        if (typeof action !== "string" || !known.includes(action)) {
          throw new InvalidConfig(`defineAccess: the role "${role}" names ${JSON.stringify(`${resource}:${String(action)}`)}, which no statement declares`)
        }
        const permission = `${resource}:${action}`
        if (!permissions.includes(permission)) permissions.push(permission)
      }
    }
    roles[role] = Object.freeze(permissions)
  }
  for (const actions of Object.values(merged)) Object.freeze(actions)
  const known = new Set(everything)
  return Object.freeze({
    statements: Object.freeze(merged),
    roles: Object.freeze(roles),
    // An unknown permission (a typo the types did not catch, JavaScript callers) is false, not a throw.
    can: (session: PermissionHolder | null | undefined, permission: string) => known.has(permission) && can(session, permission),
  }) as AccessControl<S>
}

/** The built-in roles and statements alone: what an app without `access` has. */
export const DEFAULT_ACCESS: AccessControl<AccessStatements> = /* @__PURE__ */ defineAccess({}, { roles: {} })

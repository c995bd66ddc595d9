/**
 * The types of roles and permissions (statements, permissions, `AccessControl`, what `can` reads):
 * a leaf, so that `types.ts` can name them without importing the core.
 * @module
 */

/** Resources and the actions on them: `{ project: ["create", "delete"] }`. */
export type AccessStatements = Readonly<Record<string, readonly string[]>>

/** The statements every organization has, whatever the app declares. */
export type BuiltInStatements = {
  /** Changing and deleting the organization. */
  readonly organization: readonly ["update", "delete"]
  /** Changing members' roles, removing them (inviting is `invitation:create`). */
  readonly member: readonly ["update", "remove"]
  /** Creating and revoking invitations. */
  readonly invitation: readonly ["create", "revoke"]
  /** Reading the organization's audit log. */
  readonly audit: readonly ["read"]
}

/** `"resource:action"` for every action of every resource of `S`. */
export type Permission<S extends AccessStatements> = { [R in keyof S & string]: `${R}:${S[R][number]}` }[keyof S & string]

/** A permission of the built-in statements (`"member:update"`). */
export type BuiltInPermission = Permission<BuiltInStatements>

/** The actions of each resource of `S` and of the built-in statements together (a resource in both has the actions of both). */
export type MergedActions<S extends AccessStatements> = {
  [R in (keyof S | keyof BuiltInStatements) & string]: (R extends keyof S ? S[R][number] : never) | (R extends keyof BuiltInStatements ? BuiltInStatements[R][number] : never)
}

/** `"resource:action"` for every action of the app's statements `S` and of the built-in ones. */
export type AccessPermission<S extends AccessStatements> = { [R in keyof MergedActions<S> & string]: `${R}:${MergedActions<S>[R]}` }[keyof MergedActions<S> & string]

/** What a role of the app may do, by resource: `{ project: ["create"] }`. */
export type RoleStatements<S extends AccessStatements> = { readonly [R in keyof MergedActions<S>]?: readonly MergedActions<S>[R][] }

/** The app's statements and roles, from `defineAccess`. */
export interface AccessControl<S extends AccessStatements = AccessStatements> {
  /** Every resource and its actions, the built-in ones included. */
  readonly statements: Readonly<Record<string, readonly string[]>>
  /** Every role's permissions (`"project:delete"`), the built-in ones included. */
  readonly roles: Readonly<Record<string, readonly string[]>>
  /**
   * Whether `session` may do `permission` in its active organization: `can` with the permission
   * typed from the statements (TypeScript completes them).
   */
  can(session: PermissionHolder | null | undefined, permission: AccessPermission<S>): boolean
}

/** What `can` reads of a session: its active organization's permissions and unmet policy. */
export interface PermissionHolder {
  /** The session's active organization, as Gatehouse sets it. */
  readonly activeOrganization?: {
    /** What the role lets the session do there. */
    readonly permissions: readonly string[]
    /** Policy requirements the session does not meet (none: left out or empty). */
    readonly unmet?: readonly string[]
  } | null
}

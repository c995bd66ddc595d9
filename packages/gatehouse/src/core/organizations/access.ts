/**
 * Roles and permissions: the built-in statements and roles, an app's own (`defineAccess`), and
 * `can`, the check that fails closed. (Seam: the organizations part completes it.)
 * @module
 */
import type { Session } from "../../types.js"

/** Resources and the actions on them: `{ project: ["create", "delete"] }`. */
export type AccessStatements = Readonly<Record<string, readonly string[]>>

/** The app's statements and roles, from `defineAccess`. */
export interface AccessControl {
  /** Every resource and its actions, the built-in ones included. */
  readonly statements: AccessStatements
  /** Every role's permissions (`"project:delete"`), the built-in ones included. */
  readonly roles: Readonly<Record<string, readonly string[]>>
  /** Whether `session` may do `permission` in its active organization (see `can`). */
  can(session: Pick<Session, "activeOrganization"> | null | undefined, permission: string): boolean
}

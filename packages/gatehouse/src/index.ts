/**
 * Gatehouse: sign-in, sign-out and sessions for web applications on any Web-standard runtime,
 * wire-compatible with Auth.js v5.
 *
 * @example
 * ```ts
 * import { Auth, createActionURL, setEnvDefaults } from "gatehouse-auth"
 *
 * const config = { providers: [] }
 * // `env` is your runtime's environment object (Node's, a Worker's bindings, …)
 * setEnvDefaults(env, config)
 * const sessionUrl = createActionURL("session", "https", request.headers, env, config.basePath)
 * const response = await Auth(request, config)
 * ```
 * @module gatehouse-auth
 */
export { Auth } from "./core/handler.js"
export { signOutEverywhere } from "./core/sign-out-everywhere.js"
export {
  listSessions,
  revokeSession,
  revokeOtherSessions,
  listAccounts,
  unlinkAccount,
  type AccountKey,
  type ActiveSession,
  type LinkedAccount,
  type RevokedSessions,
} from "./core/account/account-functions.js"
export { requireRecentAuth, type RecentAuth, type RecentAuthOptions } from "./core/two-factor/require-recent-auth.js"
export {
  enrollTotp,
  confirmTotp,
  disableTwoFactor,
  forgetTrustedBrowsers,
  regenerateRecoveryCodes,
  twoFactorStatus,
  type ConfirmedTotp,
  type DisableTwoFactorOptions,
  type DisabledTwoFactor,
  type RegeneratedRecoveryCodes,
  type TotpEnrolment,
  type TwoFactorStatus,
} from "./core/two-factor/functions.js"
// Organizations: server functions and access control.
export {
  createOrganization,
  updateOrganization,
  deleteOrganization,
  getOrganization,
  listOrganizations,
  listMembers,
  updateMemberRole,
  removeMember,
  leaveOrganization,
  setActiveOrganization,
  listAuditLog,
  type ActiveOrganizationSet,
  type AuditLogEntry,
  type AuditLogPage,
  type AuditLogQuery,
  type MemberPage,
  type MemberPageOptions,
  type NewOrganization,
  type OrganizationDetails,
  type OrganizationMembership,
  type OrganizationPatch,
} from "./core/organizations/functions.js"
export {
  defineAccess,
  can,
  type AccessControl,
  type AccessPermission,
  type AccessStatements,
  type BuiltInPermission,
  type BuiltInStatements,
  type DefineAccessOptions,
  type MergedActions,
  type Permission,
  type PermissionHolder,
  type RoleStatements,
} from "./core/organizations/access.js"
// Organizations: invitations.
export {
  inviteMember,
  listInvitations,
  revokeInvitation,
  acceptInvitation,
  declineInvitation,
  joinOrganization,
  type AcceptedInvitation,
  type Invitation,
  type InviteMemberInput,
  type MadeInvitation,
  type RevokeInvitationInput,
} from "./core/organizations/invitation-functions.js"
// The admin API.
export {
  searchUsers,
  getUserDetails,
  banUser,
  unbanUser,
  setUserRole,
  setUserPassword,
  revokeUserSessions,
  deleteUser,
  type AdminUser,
  type AdminUserAccount,
  type AdminUserDetails,
  type AdminUserMembership,
  type AdminUserPage,
  type AdminUserSession,
  type AdminUserStatus,
  type BanOptions,
  type DeletedUser,
  type SearchUsersQuery,
} from "./core/admin/functions.js"
// Impersonation (the admin API).
export { impersonateUser, stopImpersonating, type ImpersonationStarted, type ImpersonationStopped } from "./core/admin/impersonation-functions.js"
export type { SessionRequest } from "./core/request-session.js"
export type { ResponseInternal, Cookie } from "./core/internal-response.js"
export { createActionURL, setEnvDefaults, type EnvObject } from "./env.js"
export { isAuthAction, type AuthAction } from "./core/auth-action.js"
export { customFetch, raw, skipCSRFCheck } from "./markers.js"
export { AuthError, CredentialsSignin, type AuthErrorType } from "./errors.js"
export type { WarningCode } from "./core/logger.js"
export { jsonLogger, DEFAULT_REQUEST_ID_HEADERS, type JsonLoggerOptions, type JsonLogLevel, type JsonLogLine } from "./core/json-logger.js"
export type {
  Account,
  AccountOptions,
  AuthConfig,
  Awaitable,
  CallbacksOptions,
  DefaultSession,
  EventCallbacks,
  LoggerInstance,
  LogRequest,
  PagesOptions,
  Profile,
  Session,
  SessionOptions,
  SessionStrategy,
  Theme,
  User,
} from "./types.js"

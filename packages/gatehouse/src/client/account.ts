/**
 * The account page's side of the browser client: the signed-in user's sessions and linked
 * accounts, through the opt-in account routes (`account: { routes: true }` on the server). Apart
 * from `gatehouse-auth/client` so that a page that only signs in does not carry it.
 *
 * @example
 * ```ts
 * import { listSessions, revokeOtherSessions, listAccounts, unlinkAccount, linkAccount } from "gatehouse-auth/client/account"
 *
 * const sessions = await listSessions()   // [{ id, current, createdAt, lastSeenAt, expiresAt, userAgent }]
 * await revokeOtherSessions()             // "sign out other devices"
 * const accounts = await listAccounts()   // [{ provider, providerAccountId, type, providerName }]
 * await linkAccount("github", { redirectTo: "/account" })
 * ```
 * @module gatehouse-auth/client/account
 */
import type { BasePathOption } from "./index.js"

/**
 * One of the signed-in user's sessions, as `GET {basePath}/sessions` lists it (opt-in
 * `account.routes`): never its token.
 */
export interface SessionListing {
  /** The session's id, what {@link revokeSession} takes (`"current"` for a JWT session). */
  id: string
  /** Whether it is this browser's session. */
  current: boolean
  /** When it was signed in (ISO), `null` when unknown. */
  createdAt: string | null
  /** When it was last used (ISO, to the precision of `session.updateAge`), `null` when unknown. */
  lastSeenAt: string | null
  /** When it ends unless used again (ISO). */
  expiresAt: string
  /** The browser's `User-Agent` at sign-in, `null` when unknown. */
  userAgent: string | null
}

/** One of the signed-in user's linked accounts, as `GET {basePath}/accounts` lists it: never its tokens. */
export interface AccountListing {
  /** The provider's id. */
  provider: string
  /** The user's id at that provider. */
  providerAccountId: string
  /** `oauth`, `oidc`, `email` or `webauthn`. */
  type: string
  /** The provider's display name, `null` when it is no longer configured. */
  providerName: string | null
}

/**
 * An account route refused: `name` is the error type the server named (`SessionRequired`,
 * `UnknownSession`, `UnknownAccount`, `LastSignInMethod`, `MissingCSRF`, or `HTTP <status>`).
 *
 * @example
 * ```ts
 * try { await unlinkAccount(account) } catch (error) {
 *   if (error instanceof AccountRouteError && error.name === "LastSignInMethod") showMessage("Add another way to sign in first")
 * }
 * ```
 */
export class AccountRouteError extends Error {
  /** The HTTP status of the refusal. */
  readonly status: number
  constructor(type: string, message: string, status: number) {
    super(message)
    this.name = type
    this.status = status
  }
}

/**
 * The signed-in user's sessions, this browser's first (needs `account.routes` on the server).
 *
 * @throws {AccountRouteError} when signed out (`SessionRequired`) or refused.
 * @example
 * ```ts
 * for (const session of await listSessions()) render(session.userAgent, session.current)
 * ```
 */
export async function listSessions(options: BasePathOption = {}): Promise<SessionListing[]> {
  return ((await accountRoute(options, "sessions")) as { sessions: SessionListing[] }).sessions
}

/**
 * Ends one of the signed-in user's other sessions, by its `id` from {@link listSessions}; returns
 * the sessions left.
 *
 * @throws {AccountRouteError} `UnknownSession` for an id that is not one of the user's other sessions.
 * @example
 * ```ts
 * await revokeSession(session.id)
 * ```
 */
export async function revokeSession(id: string, options: BasePathOption = {}): Promise<SessionListing[]> {
  return ((await accountRoute(options, "sessions", { revoke: id })) as { sessions: SessionListing[] }).sessions
}

/**
 * Ends every session of the signed-in user but this browser's ("sign out other devices"); returns
 * the sessions left. Under JWT sessions the others end within `session.revocationCheckAge`.
 *
 * @example
 * ```ts
 * await revokeOtherSessions()
 * ```
 */
export async function revokeOtherSessions(options: BasePathOption = {}): Promise<SessionListing[]> {
  return ((await accountRoute(options, "sessions", { revokeOthers: "true" })) as { sessions: SessionListing[] }).sessions
}

/**
 * The signed-in user's linked accounts.
 *
 * @example
 * ```ts
 * const linked = new Set((await listAccounts()).map((account) => account.provider))
 * ```
 */
export async function listAccounts(options: BasePathOption = {}): Promise<AccountListing[]> {
  return ((await accountRoute(options, "accounts")) as { accounts: AccountListing[] }).accounts
}

/**
 * Unlinks one of the signed-in user's accounts; returns the accounts left.
 *
 * @throws {AccountRouteError} `LastSignInMethod` when it is the user's last way to sign in,
 *   `UnknownAccount` when it is not theirs.
 * @example
 * ```ts
 * await unlinkAccount({ provider: "github", providerAccountId: "12345" })
 * ```
 */
export async function unlinkAccount(
  account: Pick<AccountListing, "provider" | "providerAccountId">,
  options: BasePathOption = {},
): Promise<AccountListing[]> {
  const fields = { unlink: account.provider, providerAccountId: account.providerAccountId }
  return ((await accountRoute(options, "accounts", fields)) as { accounts: AccountListing[] }).accounts
}

/**
 * Links another OAuth/OIDC provider's account to the signed-in user: the browser goes to the
 * provider and comes back to `redirectTo` (default: this page). An account another user already
 * has is refused there (`OAuthAccountNotLinked` on the error page).
 *
 * @example
 * ```ts
 * await linkAccount("github", { redirectTo: "/account" })
 * ```
 */
export async function linkAccount(provider: string, options: BasePathOption & { redirectTo?: string } = {}): Promise<undefined> {
  const { basePath = "/auth", redirectTo = location.href } = options
  const response = await fetch(`${basePath}/link/${encodeURIComponent(provider)}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Auth-Return-Redirect": "1" },
    body: new URLSearchParams({ callbackUrl: redirectTo, csrfToken: await csrfToken(basePath) }),
  })
  const answer = (await response.json().catch(() => null)) as { url?: unknown } | null
  // Only a URL the server vouched for (the provider's, or the error page): redirectTo is unchecked input.
  location.assign(typeof answer?.url === "string" ? answer.url : location.href)
  return undefined
}

/** GET (no `fields`) or POST an account route; its JSON, or an {@link AccountRouteError}. */
async function accountRoute(options: BasePathOption, route: string, fields?: Record<string, string>): Promise<unknown> {
  const basePath = options.basePath ?? "/auth"
  const init: RequestInit = { credentials: "same-origin", headers: { Accept: "application/json" } }
  if (fields) {
    init.method = "POST"
    init.headers = { Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" }
    init.body = new URLSearchParams({ ...fields, csrfToken: await csrfToken(basePath) })
  }
  const response = await fetch(`${basePath}/${route}`, init)
  const answer = (await response.json().catch(() => null)) as { error?: unknown; message?: unknown } | null
  if (!response.ok || answer === null || typeof answer !== "object") {
    const type = typeof answer?.error === "string" ? answer.error : `HTTP ${response.status}`
    throw new AccountRouteError(type, typeof answer?.message === "string" ? answer.message : type, response.status)
  }
  return answer
}

/** The CSRF token the account routes' POSTs carry (`""` when the route gave none: the POST is then refused). */
async function csrfToken(basePath: string): Promise<string> {
  const response = await fetch(`${basePath}/csrf`, { credentials: "same-origin", headers: { Accept: "application/json" } })
  const answer = (response.ok ? await response.json().catch(() => null) : null) as { csrfToken?: unknown } | null
  return typeof answer?.csrfToken === "string" ? answer.csrfToken : ""
}

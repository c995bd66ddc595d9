/**
 * The second factor's server functions: the management routes below `two-factor`, called from the
 * application's own server code for the session a request carries (no route, no CSRF token: the
 * application's own form handling protects its forms). Each needs `twoFactor` configured and a
 * signed-in user.
 * @module
 */
import { serializeCookie } from "../../cookies/serialize.js"
import { InvalidConfig } from "../../errors.js"
import type { AuthConfig } from "../../types.js"
import type { RequestContext } from "../request-context.js"
import type { SessionRequest } from "../request-session.js"
import type { TotpEnrolment } from "./enrolment.js"
import type { TwoFactorStatus } from "./management-routes.js"

export type { TotpEnrolment, TwoFactorStatus }

// Loaded on first use: every app imports this module with `gatehouse-auth`, few call these.
const routes = () => import("./management-routes.js")

async function contextOf(request: SessionRequest, config: AuthConfig): Promise<RequestContext> {
  const ctx = await (await import("../request-session.js")).sessionRequestContext(request, config)
  if (!ctx.config.twoFactor) throw new InvalidConfig("Two-step verification is not configured (`twoFactor`)")
  return ctx
}

/** What {@link confirmTotp} did. */
export interface ConfirmedTotp {
  /** The new recovery codes: show them now, they are stored only as hashes. */
  recoveryCodes: string[]
  /** `Set-Cookie` values to send with the response (the session raised to aal 2, under JWT sessions). */
  setCookies: string[]
}

/** What {@link disableTwoFactor} accepts instead of a recent second factor. */
export interface DisableTwoFactorOptions {
  /** A current code: from the authenticator app, or a recovery code with `method: "recovery"`. */
  code?: string
  /** What `code` is: `"totp"` (the default) or `"recovery"`. */
  method?: "totp" | "recovery"
}

/** What {@link disableTwoFactor} did. */
export interface DisabledTwoFactor {
  /** `Set-Cookie` values to send with the response (this browser's trust cookie deleted, when configured). */
  setCookies: string[]
}

/** What {@link regenerateRecoveryCodes} made. */
export interface RegeneratedRecoveryCodes {
  /** The new recovery codes: show them now, they are stored only as hashes. */
  recoveryCodes: string[]
}

/**
 * Starts enrolling an authenticator app for the signed-in user: a new secret, kept pending (a
 * factor already enabled stays in force until the new one is confirmed with {@link confirmTotp}).
 * Show `qr` (SVG, `null` without `twoFactor.totp.qrCode`) and `secret` as text.
 *
 * @throws {SessionRequired} without a session; `RecentAuthRequired` when the user has a factor
 *   enabled and the session did not check it within `twoFactor.freshAge`.
 * @example
 * ```ts
 * import { enrollTotp } from "gatehouse-auth"
 *
 * const { qr, secret, uri } = await enrollTotp(request, authConfig)
 * ```
 */
export async function enrollTotp(request: SessionRequest, config: AuthConfig): Promise<TotpEnrolment> {
  const ctx = await contextOf(request, config)
  const { enrolSignedIn, signedInUser } = await routes()
  const { secret, uri, qr } = await enrolSignedIn(ctx, await signedInUser(ctx))
  return { secret, uri, qr }
}

/**
 * Enables the authenticator app being enrolled when `code` is right for it, and raises the
 * current session to aal 2 (a second factor was just shown). Fires `twoFactorEnabled`.
 *
 * @returns The recovery codes (shown once) and the `Set-Cookie` values to send.
 * @throws {SessionRequired} without a session; `RecentAuthRequired` when the user already has a
 *   factor and the session has not checked it recently (confirming replaces it); `InvalidTwoFactorCode`
 *   for a wrong code, no enrolment under way, or one started again since; `RateLimited` when too
 *   many codes were tried.
 * @example
 * ```ts
 * import { confirmTotp } from "gatehouse-auth"
 *
 * const { recoveryCodes, setCookies } = await confirmTotp(request, authConfig, form.get("code"))
 * for (const line of setCookies) response.headers.append("set-cookie", line)
 * ```
 */
export async function confirmTotp(request: SessionRequest, config: AuthConfig, code: string): Promise<ConfirmedTotp> {
  const ctx = await contextOf(request, config)
  const { confirmSignedIn, signedInUser } = await routes()
  const { recoveryCodes, cookies } = await confirmSignedIn(ctx, await signedInUser(ctx), String(code ?? ""))
  return { recoveryCodes, setCookies: cookies.map((cookie) => serializeCookie(cookie.name, cookie.value, cookie.options)) }
}

/**
 * Disables the signed-in user's second factor: secret, recovery codes and trusted browsers go.
 * Needs a second factor checked within `twoFactor.freshAge`, or a current `code`. Fires
 * `twoFactorDisabled`.
 *
 * @returns The `Set-Cookie` values to send (this browser's trust cookie deleted, when configured).
 * @throws {SessionRequired} without a session; `TwoFactorNotEnrolled` when none is enabled;
 *   `InvalidTwoFactorCode` for a wrong code; `RecentAuthRequired` without a code or a recent check.
 * @example
 * ```ts
 * import { disableTwoFactor } from "gatehouse-auth"
 *
 * await disableTwoFactor(request, authConfig, { code: form.get("code") })
 * ```
 */
export async function disableTwoFactor(request: SessionRequest, config: AuthConfig, options: DisableTwoFactorOptions = {}): Promise<DisabledTwoFactor> {
  const ctx = await contextOf(request, config)
  const { disableFactor, signedInUser } = await routes()
  const proof = typeof options.code === "string" && options.code !== "" ? { code: options.code, method: options.method } : undefined
  const cookies = await disableFactor(ctx, await signedInUser(ctx), proof)
  return { setCookies: cookies.map((cookie) => serializeCookie(cookie.name, cookie.value, cookie.options)) }
}

/**
 * New recovery codes for the signed-in user; the old set stops working, and trusted browsers
 * are asked for a second factor again.
 *
 * @throws {SessionRequired} without a session; `TwoFactorNotEnrolled` when no factor is enabled;
 *   `RecentAuthRequired` without a second factor checked within `twoFactor.freshAge`.
 * @example
 * ```ts
 * import { regenerateRecoveryCodes } from "gatehouse-auth"
 *
 * const { recoveryCodes } = await regenerateRecoveryCodes(request, authConfig)
 * ```
 */
export async function regenerateRecoveryCodes(request: SessionRequest, config: AuthConfig): Promise<RegeneratedRecoveryCodes> {
  const ctx = await contextOf(request, config)
  const { regenerateCodes, signedInUser } = await routes()
  return regenerateCodes(ctx, await signedInUser(ctx))
}

/**
 * The signed-in user's second factor: whether one is enabled, since when, and the recovery
 * codes left.
 *
 * @throws {SessionRequired} without a session.
 * @example
 * ```ts
 * import { twoFactorStatus } from "gatehouse-auth"
 *
 * const { enabled, recoveryCodesLeft } = await twoFactorStatus(request, authConfig)
 * ```
 */
export async function twoFactorStatus(request: SessionRequest, config: AuthConfig): Promise<TwoFactorStatus> {
  const ctx = await contextOf(request, config)
  const { twoFactorStatusOf, signedInUser } = await routes()
  return twoFactorStatusOf(ctx, await signedInUser(ctx))
}

/**
 * Forgets every browser the signed-in user trusted ("don't ask again on this browser"): the next
 * sign-in anywhere asks for the second factor again. Offer it beside a lost-device or "sign out
 * everywhere" action. Needs no recent second factor: it only takes trust away.
 *
 * @throws {SessionRequired} without a session.
 * @throws {TwoFactorNotEnrolled} when no second factor is enabled (nothing is trusted).
 * @example
 * ```ts
 * import { forgetTrustedBrowsers } from "gatehouse-auth"
 *
 * await forgetTrustedBrowsers(request, authConfig)
 * ```
 */
export async function forgetTrustedBrowsers(request: SessionRequest, config: AuthConfig): Promise<void> {
  const ctx = await contextOf(request, config)
  const { forgetTrusted, signedInUser } = await routes()
  await forgetTrusted(ctx, await signedInUser(ctx))
}

/**
 * Two-step verification from your own pages, in the browser: answering the second-factor
 * challenge of a sign-in (or a step-up), and setting up, reading and turning off the signed-in
 * user's authenticator app and recovery codes, through the `{basePath}/two-factor` routes
 * (`twoFactor` on the server). Apart from `gatehouse-auth/client` so that a sign-in page that does
 * not ask for codes does not carry it.
 *
 * @example
 * ```ts
 * import { signIn } from "gatehouse-auth/client"
 * import { verifyTwoFactor, TwoFactorRouteError } from "gatehouse-auth/client/two-factor"
 *
 * const result = await signIn("credentials", { email, password, redirect: false })
 * if (result?.twoFactor) {
 *   try {
 *     const done = await verifyTwoFactor({ code: form.code.value })
 *     location.assign(done.url)
 *   } catch (error) {
 *     if (error instanceof TwoFactorRouteError && error.name === "InvalidTwoFactorCode") form.showError("That code did not work")
 *   }
 * }
 * ```
 * @module gatehouse-auth/client/two-factor
 */
import type { BasePathOption } from "./index.js"

/** A way to answer the second-factor challenge. */
export type TwoFactorMethodName = "totp" | "recovery" | "email"

/** What {@link verifyTwoFactor} sends. */
export interface VerifyTwoFactorOptions extends BasePathOption {
  /** The code typed: from the authenticator app, a recovery code, or the email code. */
  code: string
  /** Which kind of code it is. Default `totp`. */
  method?: TwoFactorMethodName
  /** "Don't ask again on this browser" (honoured when the server sets `twoFactor.trustDevice`). */
  trustDevice?: boolean
  /** Step-up only: where to go once confirmed (checked by the server's redirect callback). */
  callbackUrl?: string
}

/**
 * How a session was authenticated, as the server reports it (`session.authentication`): `aal` 1
 * or 2, the RFC 8176 `amr` values, and when the second factor was last checked (ISO).
 */
export interface TwoFactorAuthentication {
  /** Authentication assurance level: `2` once a second factor passed. */
  aal: 1 | 2
  /** How the user authenticated, as RFC 8176 values (`pwd`, `otp`, `mfa`, …). */
  amr: string[]
  /** When a second factor was last checked (ISO), `null` when never. */
  secondFactorAt: string | null
}

/**
 * What a right code led to: where to go now (`url`), after a sign-in finished (the session cookie
 * is set) or a step-up of the current session, which also reports the session's raised standing
 * (`authentication`).
 */
export interface VerifyTwoFactorResult {
  /** Where to go: the finished sign-in's callback URL (or a page to see first), or the step-up's `callbackUrl` (the site's origin without one). */
  url: string
  /** A step-up only: the current session's standing after it. */
  authentication?: TwoFactorAuthentication
}

/** A new authenticator app enrolment, to show before {@link confirmTotpEnrolment}. */
export interface TotpEnrolment {
  /** The `otpauth://` URI an authenticator app adds the account from. */
  uri: string
  /** The URI as a QR code (SVG markup), or `null` when the server draws none (no `twoFactor.totp.qrCode`). */
  qr: string | null
  /** The secret in base32, for typing into an app by hand. */
  secret: string
}

/** Recovery codes, shown once: ask the user to save them. */
export interface RecoveryCodes {
  /** The codes, each `xxxx-xxxx-xxxx`, each good for one sign-in. */
  recoveryCodes: string[]
}

/** What {@link confirmTotpEnrolment} resolves to. */
export interface ConfirmedTotpEnrolment extends RecoveryCodes {
  /**
   * Set when the enrolment finished a sign-in that had to enrol first (`twoFactor.require`): where
   * that sign-in goes now (its session cookie is set). Absent for a signed-in user's enrolment.
   */
  url?: string
}

/** The signed-in user's second factor, as `GET {basePath}/two-factor/status` reports it. */
export interface TwoFactorStatus {
  /** Whether a second factor is enabled. */
  enabled: boolean
  /**
   * The enabled factors the user can answer a challenge with: `totp`, and `recovery` while codes
   * are left; empty when none is enabled. (An email code, when the server offers one, is not a
   * factor the user enables, so it is not listed.)
   */
  methods: ("totp" | "recovery")[]
  /** When the factor was enabled (ISO), `null` when it is not. */
  enabledAt: string | null
  /** Recovery codes not used yet. */
  recoveryCodesLeft: number
}

/**
 * A two-factor route refused: `name` is the error type the server named (`InvalidTwoFactorCode`,
 * `TwoFactorExpired`, `TwoFactorFailed`, `RecentAuthRequired`, `TwoFactorNotEnrolled`,
 * `RateLimited`, `MissingCSRF`, `SessionRequired`, …, or `HTTP <status>`).
 *
 * @example
 * ```ts
 * try { await regenerateRecoveryCodes() } catch (error) {
 *   if (error instanceof TwoFactorRouteError && error.name === "RecentAuthRequired") location.assign("/auth/two-factor?callbackUrl=/settings")
 * }
 * ```
 */
export class TwoFactorRouteError extends Error {
  /** The HTTP status of the refusal (`200` for a refusal sent as a redirect to an error page). */
  readonly status: number
  constructor(type: string, message: string, status: number) {
    super(message)
    this.name = type
    this.status = status
  }
}

/**
 * Sends the code of a pending sign-in (after `signIn` answered `twoFactor: true`), or confirms a
 * signed-in user for a step-up. Does not navigate: go to `url` yourself.
 *
 * @throws {TwoFactorRouteError} `InvalidTwoFactorCode` for a wrong code (try again),
 *   `TwoFactorFailed` after too many, `TwoFactorExpired` when the sign-in must start again.
 * @example
 * ```ts
 * const done = await verifyTwoFactor({ code: "123456", trustDevice: true })
 * location.assign(done.url)
 * ```
 */
export async function verifyTwoFactor(options: VerifyTwoFactorOptions): Promise<VerifyTwoFactorResult> {
  const { basePath, code, method = "totp", trustDevice, callbackUrl } = options
  const answer = await twoFactorRoute({ basePath }, "", {
    code,
    method,
    ...(trustDevice && { trustDevice: true }),
    ...(callbackUrl !== undefined && { callbackUrl }),
  })
  if (typeof answer.url === "string") {
    return { url: answer.url, ...(isObject(answer.authentication) && { authentication: answer.authentication as unknown as TwoFactorAuthentication }) }
  }
  throw new TwoFactorRouteError("HTTP 200", "The two-factor route answered neither a URL nor an authentication", 200)
}

/**
 * Emails a code for the pending sign-in to the user's verified address (`twoFactor.email` on the
 * server); then ask for it and send it with {@link verifyTwoFactor} (`method: "email"`).
 *
 * @throws {TwoFactorRouteError} e.g. `EmailRateLimited` when asked again too soon.
 * @example
 * ```ts
 * await sendTwoFactorEmailCode()
 * const done = await verifyTwoFactor({ code: typed, method: "email" })
 * ```
 */
export async function sendTwoFactorEmailCode(options: BasePathOption = {}): Promise<void> {
  await twoFactorRoute(options, "", { method: "email", action: "send" })
}

/**
 * Starts setting up an authenticator app for the signed-in user: show `qr` (or `secret`), then
 * confirm with a code from the app. An enabled factor stays until the new one is confirmed.
 *
 * @throws {TwoFactorRouteError} `RecentAuthRequired` when a factor is enabled and not checked recently.
 * @example
 * ```ts
 * const { qr, secret } = await startTotpEnrolment()
 * qrBox.innerHTML = qr ?? ""; secretText.textContent = secret
 * ```
 */
export async function startTotpEnrolment(options: BasePathOption = {}): Promise<TotpEnrolment> {
  const answer = await twoFactorRoute(options, "/totp", {})
  return { uri: String(answer.uri), qr: typeof answer.qr === "string" ? answer.qr : null, secret: String(answer.secret) }
}

/**
 * Enables the authenticator app being set up, with a code it shows; resolves to the recovery
 * codes, shown this once, and, when the enrolment finished a sign-in, where it goes (`url`).
 *
 * @throws {TwoFactorRouteError} `InvalidTwoFactorCode` for a wrong code, `RecentAuthRequired`
 *   when a factor is enabled and not checked recently.
 * @example
 * ```ts
 * const { recoveryCodes, url } = await confirmTotpEnrolment("123456")
 * showOnce(recoveryCodes, { then: url })
 * ```
 */
export async function confirmTotpEnrolment(code: string, options: BasePathOption = {}): Promise<ConfirmedTotpEnrolment> {
  const answer = await twoFactorRoute(options, "/totp/confirm", { code })
  return { recoveryCodes: stringsOf(answer.recoveryCodes), ...(typeof answer.url === "string" && { url: answer.url }) }
}

/**
 * Replaces the signed-in user's recovery codes (the old ones stop working); resolves to the new
 * ones, shown this once.
 *
 * @throws {TwoFactorRouteError} `RecentAuthRequired` without a recent second-factor check.
 * @example
 * ```ts
 * const { recoveryCodes } = await regenerateRecoveryCodes()
 * ```
 */
export async function regenerateRecoveryCodes(options: BasePathOption = {}): Promise<RecoveryCodes> {
  return { recoveryCodes: stringsOf((await twoFactorRoute(options, "/recovery-codes", {})).recoveryCodes) }
}

/** What {@link disableTwoFactor} sends. */
export interface DisableTwoFactorOptions extends BasePathOption {
  /** A current code, standing in for a recent second-factor check. */
  code?: string
  /** Which kind `code` is: `totp` (the default, from the authenticator app) or `recovery` (a recovery code). */
  method?: "totp" | "recovery"
}

/** What {@link disableTwoFactor} resolves to. */
export interface TwoFactorDisabled {
  /** Always `true`: a refusal throws instead. */
  disabled: true
}

/**
 * Turns the signed-in user's second factor off (its recovery codes and trusted browsers too).
 * `code`, a current code (a recovery code with `method: "recovery"`), stands in for a recent check.
 *
 * @throws {TwoFactorRouteError} `RecentAuthRequired` without a recent check or a right `code`.
 * @example
 * ```ts
 * await disableTwoFactor({ code: "123456" })
 * await disableTwoFactor({ code: "abcd-efgh-jkmn", method: "recovery" })
 * ```
 */
export async function disableTwoFactor(options: DisableTwoFactorOptions = {}): Promise<TwoFactorDisabled> {
  const { code, method, ...rest } = options
  await twoFactorRoute(rest, "/disable", code === undefined ? {} : { code, ...(method !== undefined && { method }) })
  return { disabled: true }
}

/**
 * The signed-in user's second factor: enabled or not, the ways to answer, recovery codes left.
 *
 * @throws {TwoFactorRouteError} `SessionRequired` when signed out.
 * @example
 * ```ts
 * const { enabled, recoveryCodesLeft } = await twoFactorStatus()
 * ```
 */
export async function twoFactorStatus(options: BasePathOption = {}): Promise<TwoFactorStatus> {
  const answer = await twoFactorRoute(options, "/status")
  return {
    enabled: answer.enabled === true,
    methods: stringsOf(answer.methods).filter((method): method is "totp" | "recovery" => method === "totp" || method === "recovery"),
    enabledAt: typeof answer.enabledAt === "string" ? answer.enabledAt : null,
    recoveryCodesLeft: typeof answer.recoveryCodesLeft === "number" ? answer.recoveryCodesLeft : 0,
  }
}

/**
 * GET (no `fields`) or POST (JSON, with the CSRF token) `two-factor{path}`; its JSON object, or a
 * {@link TwoFactorRouteError}: a refusal with `{ error }`, or a redirect (asked for as `{ url }`)
 * to a page whose query names the error.
 */
async function twoFactorRoute(options: BasePathOption, path: string, fields?: Record<string, unknown>): Promise<Record<string, unknown>> {
  const basePath = options.basePath ?? "/auth"
  // Asked as JSON, and failures the server would redirect for come back as `{ url }` too.
  const headers: Record<string, string> = { Accept: "application/json", "X-Auth-Return-Redirect": "1" }
  const init: RequestInit = { credentials: "same-origin", headers }
  if (fields) {
    init.method = "POST"
    headers["Content-Type"] = "application/json"
    init.body = JSON.stringify({ ...fields, csrfToken: await csrfToken(basePath) })
  }
  const response = await fetch(`${basePath}/two-factor${path}`, init)
  const answer = (await response.json().catch(() => null)) as Record<string, unknown> | null
  const named = typeof answer?.url === "string" ? new URL(answer.url, location.href).searchParams.get("error") : null
  const type = typeof answer?.error === "string" ? answer.error : named
  if (!response.ok || !isObject(answer) || type !== null) {
    const name = type ?? `HTTP ${response.status}`
    throw new TwoFactorRouteError(name, typeof answer?.message === "string" ? answer.message : name, response.status)
  }
  return answer
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : []
}

/** The CSRF token the routes' POSTs carry (`""` when the route gave none: the POST is then refused). */
async function csrfToken(basePath: string): Promise<string> {
  const response = await fetch(`${basePath}/csrf`, { credentials: "same-origin", headers: { Accept: "application/json" } })
  const answer = (response.ok ? await response.json().catch(() => null) : null) as { csrfToken?: unknown } | null
  return typeof answer?.csrfToken === "string" ? answer.csrfToken : ""
}

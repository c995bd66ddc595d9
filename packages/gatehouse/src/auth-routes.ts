/**
 * What the auth routes speak, as types: the actions they answer, the core's response before it
 * becomes a Web `Response`, and a provider as the providers route lists it. A leaf, so that
 * `types.ts` can name them without importing the core.
 * @module
 */
import type { Cookie } from "./cookies/defaults.js"

/** Every action the auth routes serve. */
export type AuthAction =
  | "accounts"
  | "admin"
  | "backchannel-logout"
  | "callback"
  | "csrf"
  | "error"
  | "link"
  | "organizations"
  | "providers"
  | "session"
  | "sessions"
  | "signin"
  | "signout"
  | "two-factor"
  | "verify-request"
  | "webauthn-options"

/**
 * The routes below `two-factor` (served with `twoFactor` configured): `POST two-factor/totp` starts
 * an authenticator enrolment, `two-factor/totp/confirm` enables it, `two-factor/recovery-codes`
 * regenerates the codes, `two-factor/disable` turns the second factor off, `GET two-factor/status`
 * says what is enabled.
 */
export type TwoFactorSubPath = "totp" | "totp/confirm" | "recovery-codes" | "disable" | "status"

/**
 * What an action answers: a redirect (`302` with `Location`), or a status, headers and body.
 * Cookies are listed in the order they are sent.
 */
export interface ResponseInternal<Body = unknown> {
  /** The HTTP status; default 200 (302 with `redirect`). */
  status?: number
  /** Response headers, except `Set-Cookie` (see `cookies`). */
  headers?: Record<string, string>
  /** Serialised as JSON when `Content-Type` is `application/json`; otherwise sent as it is (an HTML page). */
  body?: Body
  /** Absolute, or relative when it points at a configured custom page. */
  redirect?: string
  /** The cookies to set or clear. */
  cookies?: Cookie[]
}

/** What the providers route tells a client about one provider. */
export interface PublicProvider {
  /** The provider's id. */
  id: string
  /** The name sign-in buttons show. */
  name: string
  /** `oauth`, `oidc`, `email`, `credentials` or `webauthn`. */
  type: string
  /** The absolute URL a sign-in with it is posted to. */
  signinUrl: string
  /** The absolute URL of its callback route. */
  callbackUrl: string
}

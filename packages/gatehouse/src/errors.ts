/**
 * Every error Gatehouse throws or logs. Each class carries a stable `type` string (the Auth.js
 * name, so log queries and `?error=` values carry over), a `kind` that says which page a failure
 * lands on, a `clientSafe` flag: only client-safe types ever reach a URL or a response body;
 * everything else is reported to the client as `Configuration`; and a `clientCaused` flag: what a
 * client's request or an ordinary sign-in failure causes is logged as one `warn` line, everything
 * else (a server fault) at the error level: the error itself to a custom `logger.error`, one line
 * with its cause summarised from the built-in logger (whole, with its stack, under `debug: true`).
 *
 * @example
 * ```ts
 * import { CredentialsSignin } from "gatehouse-auth/errors"
 *
 * class InvalidLogin extends CredentialsSignin {
 *   code = "invalid_login"
 * }
 * ```
 * @module gatehouse-auth/errors
 */

/**
 * Which built-in page an error sends the user to: the sign-in page, the error page, or the
 * second-factor page (`twoFactor`: a wrong code, asked again while the pending sign-in lasts).
 */
export type ErrorKind = "signIn" | "error" | "twoFactor"

/** Upstream detail attached to an error; `err` holds the original exception, if any. */
export type ErrorCause = Record<string, unknown> & {
  /** The exception this error wraps. */
  err?: Error
}

/**
 * Base class of every Gatehouse error.
 *
 * @param message - A message, an `Error` to wrap (it becomes `cause.err`), or `ErrorOptions`.
 * @param errorOptions - `ErrorOptions`; its `cause` becomes {@link AuthError.cause}.
 * @example
 * ```ts
 * import { AuthError } from "gatehouse-auth/errors"
 *
 * try {
 *   await signIn("github")
 * } catch (error) {
 *   if (error instanceof AuthError) console.log(error.type)
 * }
 * ```
 */
export class AuthError extends Error {
  /** Stable identifier of the error, used in logs and in `?error=` query values. */
  static readonly type: AuthErrorType = "AuthError"
  /** The page an error of this class leads to. */
  static readonly kind: ErrorKind = "error"
  /** Whether the `type` may be shown to the client as is. */
  static readonly clientSafe: boolean = false
  /**
   * Whether errors of this class are caused by the client (a malformed or stale request, a wrong
   * password, a refused token) rather than by the server. Such errors are logged through
   * `logger.warn(type, message)` on one line, without stack or cause, since anyone can cause them as
   * often as they like; the rest through `logger.error(type, error)`. Not the same as `clientSafe`:
   * an email that could not be sent is named to the client but is the server's fault.
   */
  static readonly clientCaused: boolean = false

  /** Upstream detail: `err` is the wrapped exception, if any. Logged; never sent to the client. */
  declare cause?: ErrorCause
  /** The class's stable `type` (as {@link AuthError.type}); also the error's `name`. */
  readonly type: AuthErrorType
  /** The class's {@link ErrorKind}: the page this error leads to. */
  readonly kind: ErrorKind
  /** The class's `clientSafe`: whether `type` may reach a URL or a response body. */
  readonly clientSafe: boolean
  /** The class's `clientCaused`: whether it is logged as one warning line rather than as a fault. */
  readonly clientCaused: boolean

  constructor(message?: string | Error | ErrorOptions, errorOptions?: ErrorOptions) {
    if (message instanceof Error) {
      super(message.message, { cause: { err: message, ...toCauseRecord(errorOptions?.cause) } })
    } else if (typeof message === "string") {
      super(message, causeOptions(errorOptions))
    } else {
      super(undefined, causeOptions(message as ErrorOptions | undefined))
    }
    const ctor = new.target as typeof AuthError
    this.type = ctor.type
    this.kind = ctor.kind
    this.clientSafe = ctor.clientSafe
    this.clientCaused = ctor.clientCaused
    // Class names are mangled by minifiers; the type string is not.
    this.name = ctor.type
  }
}

function causeOptions(options: ErrorOptions | null | undefined): ErrorOptions | undefined {
  // Only a real options object counts; JavaScript callers may pass anything.
  if (options === null || typeof options !== "object" || !("cause" in options)) return undefined
  return { cause: toCauseRecord(options.cause) }
}

function toCauseRecord(cause: unknown): ErrorCause {
  if (cause instanceof Error) return { err: cause }
  if (cause !== null && typeof cause === "object") return cause as ErrorCause
  return cause === undefined ? {} : { value: cause }
}

/**
 * Base of the errors that send the user back to the sign-in page.
 *
 * @example
 * ```ts
 * if (error instanceof SignInError) redirectTo("/login")
 * ```
 */
export class SignInError extends AuthError {
  static override readonly kind: ErrorKind = "signIn"
}

/**
 * An adapter method threw; the original exception is in `cause.err`. Logged, never shown.
 *
 * @example
 * ```ts
 * if (error instanceof AdapterError) console.error(error.cause?.err)
 * ```
 */
export class AdapterError extends AuthError {
  static override readonly type = "AdapterError"
}

/**
 * A shared store (`sharedStore`, e.g. Redis) did not answer in time or failed. Gatehouse catches
 * it where the store is used and falls back or refuses (see the README's "Running many
 * instances"); a store implementation throws it for a command that failed or timed out.
 *
 * @example
 * ```ts
 * if (error instanceof SharedStoreError) console.error("Redis:", error.cause?.err)
 * ```
 */
export class SharedStoreError extends AuthError {
  static override readonly type = "SharedStoreError"
}

/**
 * The `signIn` callback returned `false` or threw.
 *
 * @example
 * ```ts
 * callbacks: { signIn: ({ user }) => allowList.has(user.email ?? "") } // false → AccessDenied
 * ```
 */
export class AccessDenied extends AuthError {
  static override readonly type = "AccessDenied"
  static override readonly clientSafe = true
  /** The app refused who signs in (its `signIn` callback): an ordinary outcome, logged as one line. */
  static override readonly clientCaused: boolean = true
}

/**
 * Something other than an `AuthError` was thrown while handling a callback route.
 *
 * @example
 * ```ts
 * if (error instanceof CallbackRouteError) console.error(error.cause?.err)
 * ```
 */
export class CallbackRouteError extends AuthError {
  static override readonly type = "CallbackRouteError"
}

/**
 * A custom error page redirected back to itself. Logged only.
 *
 * @example
 * ```ts
 * if (error instanceof ErrorPageLoop) console.error("pages.error redirects to itself")
 * ```
 */
export class ErrorPageLoop extends AuthError {
  static override readonly type = "ErrorPageLoop"
}

/**
 * An event handler threw. Logged and swallowed: events never change a response.
 *
 * @example
 * ```ts
 * if (error instanceof EventError) console.error(error.cause?.err)
 * ```
 */
export class EventError extends AuthError {
  static override readonly type = "EventError"
}

/**
 * The `redirect` callback returned something other than a URL string. (A `callbackUrl` parameter
 * or cookie that is not an http(s) URL is skipped, not thrown.)
 *
 * @example
 * ```ts
 * if (error instanceof InvalidCallbackUrl) console.error(error.message)
 * ```
 */
export class InvalidCallbackUrl extends AuthError {
  static override readonly type = "InvalidCallbackUrl"
}

/**
 * Throw from a credentials provider's `authorize` to reject a sign-in. The `code` ends up in the
 * redirect URL (`?error=CredentialsSignin&code=…`), so it must not say which field was wrong.
 *
 * @example
 * ```ts
 * class InvalidLogin extends CredentialsSignin {
 *   code = "invalid_login"
 * }
 * ```
 */
export class CredentialsSignin extends SignInError {
  static override readonly type = "CredentialsSignin"
  static override readonly clientSafe = true
  static override readonly clientCaused: boolean = true
  /** Put in the redirect URL as `code`; override it in a subclass. */
  code = "credentials"
}

/**
 * An OAuth provider has neither an `issuer` nor the endpoint it needs.
 *
 * @example
 * ```ts
 * if (error instanceof InvalidEndpoints) console.error(error.message)
 * ```
 */
export class InvalidEndpoints extends AuthError {
  static override readonly type = "InvalidEndpoints"
}

/**
 * A PKCE, state, nonce or WebAuthn challenge value was missing, unreadable or for another provider.
 *
 * @example
 * ```ts
 * if (error instanceof InvalidCheck) console.error(error.message)
 * ```
 */
export class InvalidCheck extends AuthError {
  static override readonly type = "InvalidCheck"
  /** The browser's own doing (cookies lost, a stale or forged callback), not the server's: named, unlike in Auth.js. */
  static override readonly clientSafe = true
  static override readonly clientCaused: boolean = true
}

/**
 * A JWT could not be decrypted or verified (tampered, expired, wrong secret or salt). Logged as one
 * warning line when it is a request's session cookie: the browser's (or a visitor's) doing.
 *
 * @example
 * ```ts
 * const claims = await decode({ token, secret, salt }).catch(() => null) // rejects with JWTSessionError
 * ```
 */
export class JWTSessionError extends AuthError {
  static override readonly type = "JWTSessionError"
  /** A cookie that does not decode is what the browser (or anyone) sent; faults reading a session are SessionTokenError. */
  static override readonly clientCaused: boolean = true
}

/**
 * The configuration needs an adapter (database sessions, email, WebAuthn) and has none.
 *
 * @example
 * ```ts
 * if (error instanceof MissingAdapter) console.error(error.message)
 * ```
 */
export class MissingAdapter extends AuthError {
  static override readonly type = "MissingAdapter"
}

/**
 * The adapter lacks methods the configuration or an operation needs; the message names them.
 *
 * @example
 * ```ts
 * if (error instanceof MissingAdapterMethods) console.error(error.message) // names the methods
 * ```
 */
export class MissingAdapterMethods extends AuthError {
  static override readonly type = "MissingAdapterMethods"
}

/**
 * A credentials provider has no `authorize` function.
 *
 * @example
 * ```ts
 * if (error instanceof MissingAuthorize) console.error(error.message)
 * ```
 */
export class MissingAuthorize extends AuthError {
  static override readonly type = "MissingAuthorize"
}

/**
 * No secret was configured (`secret` option, `AUTH_SECRET`, `LEGACYAUTH_SECRET` or next-auth's `NEXTAUTH_SECRET`).
 *
 * @example
 * ```ts
 * if (error instanceof MissingSecret) console.error("set AUTH_SECRET")
 * ```
 */
export class MissingSecret extends AuthError {
  static override readonly type = "MissingSecret"
}

/**
 * An OAuth account belongs to another user, or its email is taken by an unlinked user.
 *
 * @example
 * ```ts
 * if (error instanceof OAuthAccountNotLinked) redirectTo("/link-accounts")
 * ```
 */
export class OAuthAccountNotLinked extends SignInError {
  static override readonly type = "OAuthAccountNotLinked"
  static override readonly clientSafe = true
  static override readonly clientCaused: boolean = true
}

/**
 * The OAuth provider answered the callback with an `error` parameter.
 *
 * @example
 * ```ts
 * if (error instanceof OAuthCallbackError) console.error(error.cause)
 * ```
 */
export class OAuthCallbackError extends SignInError {
  static override readonly type = "OAuthCallbackError"
  static override readonly clientSafe = true
  static override readonly clientCaused: boolean = true
}

/**
 * A provider's `profile` function threw. Logged only.
 *
 * @example
 * ```ts
 * if (error instanceof OAuthProfileParseError) console.error(error.cause?.err)
 * ```
 */
export class OAuthProfileParseError extends AuthError {
  static override readonly type = "OAuthProfileParseError"
}

/**
 * A session could not be read for a reason on the server's side: the adapter failed (a database
 * session, a JWT session's revocation check), or a `jwt` or `session` callback threw. Logged only.
 *
 * @example
 * ```ts
 * if (error instanceof SessionTokenError) console.error(error.cause?.err)
 * ```
 */
export class SessionTokenError extends AuthError {
  static override readonly type = "SessionTokenError"
}

/**
 * Starting an OAuth sign-in failed.
 *
 * @example
 * ```ts
 * if (error instanceof OAuthSignInError) console.error(error.message)
 * ```
 */
export class OAuthSignInError extends SignInError {
  static override readonly type = "OAuthSignInError"
}

/**
 * Sending a sign-in email failed.
 *
 * @example
 * ```ts
 * if (error instanceof EmailSignInError) console.error(error.message)
 * ```
 */
export class EmailSignInError extends SignInError {
  static override readonly type = "EmailSignInError"
  // Unlike Auth.js (which shows Configuration): the user can act on "the e-mail could not be sent".
  // Not clientCaused: the mail service failed, a fault logged with its stack and cause.
  static override readonly clientSafe: boolean = true
}

/**
 * What was typed as the email address is not one (empty, no or several `@`, quotes, commas,
 * spaces), or the provider's `normalizeIdentifier` refused it. The sign-in page says so.
 *
 * @example
 * ```ts
 * if (error instanceof InvalidEmail) console.error(error.message)
 * ```
 */
export class InvalidEmail extends SignInError {
  static override readonly type = "InvalidEmail"
  static override readonly clientSafe: boolean = true
  static override readonly clientCaused: boolean = true
}

/** Options of the errors that say when to try again ({@link RateLimited}, {@link ServerBusy}). */
export interface RetryAfterOptions extends ErrorOptions {
  /** Seconds until trying again makes sense; rounded up to a whole second, at least 1. */
  retryAfter?: number
}

/** `retryAfter` as whole seconds (at least 1); `fallback` when absent or not a usable number. */
function retrySeconds(message: unknown, options: RetryAfterOptions | undefined, fallback: number): number {
  const given = message !== null && typeof message === "object" && !(message instanceof Error) ? (message as RetryAfterOptions).retryAfter : options?.retryAfter
  return typeof given === "number" && Number.isFinite(given) && given > 0 ? Math.ceil(given) : fallback
}

/**
 * Base of the sign-in throttling errors ({@link EmailRateLimited}, {@link CredentialsRateLimited}):
 * too many attempts for one address or identifier, or from one client, within a provider's
 * `rateLimit` window. Answered with `429 Too Many Requests` and a `Retry-After` header, the same
 * way whether or not the address or identifier belongs to a user. `retryAfter` says when the
 * window that refused ends (the whole window when the adapter's `hitRateLimit` keeps the counts,
 * as it does not say when a window started). Throw one yourself (from `authorize`, say) to get
 * the same answer; without `retryAfter` it is 60 seconds.
 *
 * @example
 * ```ts
 * import { RateLimited } from "gatehouse-auth/errors"
 *
 * if (error instanceof RateLimited) response.headers.set("Retry-After", String(error.retryAfter))
 * ```
 */
export class RateLimited extends SignInError {
  static override readonly type: AuthErrorType = "RateLimited"
  static override readonly clientSafe: boolean = true
  static override readonly clientCaused: boolean = true
  /** Seconds until the window that refused ends: a whole number, at least 1. */
  readonly retryAfter: number

  constructor(message?: string | Error | RetryAfterOptions, options?: RetryAfterOptions) {
    super(message, options)
    this.retryAfter = retrySeconds(message, options, 60)
  }
}

/**
 * Too many sign-in emails were asked for one address, or from one client, within the email
 * provider's `rateLimit` window (a {@link RateLimited}: `429` with `Retry-After`).
 *
 * @example
 * ```ts
 * if (error instanceof EmailRateLimited) console.warn(error.message, error.retryAfter)
 * ```
 */
export class EmailRateLimited extends RateLimited {
  static override readonly type = "EmailRateLimited"
}

/**
 * Too many credentials sign-in attempts for one identifier, or from one client, within the
 * credentials provider's `rateLimit` window (a {@link RateLimited}: `429` with `Retry-After`).
 * Checked before `authorize` runs, so a refused attempt costs no password hash.
 *
 * @example
 * ```ts
 * if (error instanceof CredentialsRateLimited) console.warn(error.message, error.retryAfter)
 * ```
 */
export class CredentialsRateLimited extends RateLimited {
  static override readonly type = "CredentialsRateLimited"
}

/**
 * The server will not start the work a sign-in needs now: too many password checks are waiting
 * already (a `busy` {@link PasswordHashError} from `gatehouse-auth/password` inside `authorize`).
 * Answered with `503 Service Unavailable` and a `Retry-After` header (5 seconds unless given).
 *
 * @example
 * ```ts
 * if (error instanceof ServerBusy) console.warn("password checks queued to the limit")
 * ```
 */
export class ServerBusy extends SignInError {
  static override readonly type = "ServerBusy"
  static override readonly clientSafe = true
  /** A refusal for now under load, not a fault: one line per refused attempt, not a stack each. */
  static override readonly clientCaused: boolean = true
  /** Seconds to wait before trying again: a whole number, at least 1. */
  readonly retryAfter: number

  constructor(message?: string | Error | RetryAfterOptions, options?: RetryAfterOptions) {
    super(message, options)
    this.retryAfter = retrySeconds(message, options, 5)
  }
}

/**
 * Ending a session failed. Logged only; the cookie is cleared regardless.
 *
 * @example
 * ```ts
 * if (error instanceof SignOutError) console.error(error.cause?.err)
 * ```
 */
export class SignOutError extends AuthError {
  static override readonly type = "SignOutError"
}

/**
 * The request named an action or used a method that does not exist.
 *
 * @example
 * ```ts
 * if (error instanceof UnknownAction) console.error(error.message)
 * ```
 */
export class UnknownAction extends AuthError {
  static override readonly type = "UnknownAction"
  /** A request for a route or method that does not exist: named, unlike in Auth.js. */
  static override readonly clientSafe = true
  static override readonly clientCaused: boolean = true
}

/**
 * The session strategy cannot work with this configuration.
 *
 * @example
 * ```ts
 * if (error instanceof UnsupportedStrategy) console.error(error.message)
 * ```
 */
export class UnsupportedStrategy extends AuthError {
  static override readonly type = "UnsupportedStrategy"
}

/**
 * The route named no provider, or one that cannot handle it.
 *
 * @example
 * ```ts
 * if (error instanceof InvalidProvider) console.error(error.message)
 * ```
 */
export class InvalidProvider extends AuthError {
  static override readonly type = "InvalidProvider"
  /** A request naming a provider that does not exist or cannot serve it: named, unlike in Auth.js. */
  static override readonly clientSafe = true
  static override readonly clientCaused: boolean = true
}

/**
 * `trustHost` is off, so the Host header of the request cannot be relied on.
 *
 * @example
 * ```ts
 * if (error instanceof UntrustedHost) console.error("set trustHost or AUTH_TRUST_HOST=true")
 * ```
 */
export class UntrustedHost extends AuthError {
  static override readonly type = "UntrustedHost"
}

/**
 * An email sign-in link was invalid, used already, or expired.
 *
 * @example
 * ```ts
 * if (error instanceof Verification) console.error("sign-in link used or expired")
 * ```
 */
export class Verification extends AuthError {
  static override readonly type = "Verification"
  static override readonly clientSafe = true
  static override readonly clientCaused: boolean = true
}

/**
 * The `csrfToken` body field was missing or did not match the CSRF cookie.
 *
 * @example
 * ```ts
 * if (error instanceof MissingCSRF) console.error("form posted without csrfToken")
 * ```
 */
export class MissingCSRF extends SignInError {
  static override readonly type = "MissingCSRF"
  static override readonly clientSafe = true
  static override readonly clientCaused: boolean = true
}

/**
 * A passkey's email belongs to a user who has not linked that passkey.
 *
 * @example
 * ```ts
 * if (error instanceof AccountNotLinked) console.error(error.message)
 * ```
 */
export class AccountNotLinked extends SignInError {
  static override readonly type = "AccountNotLinked"
  static override readonly clientSafe = true
  static override readonly clientCaused: boolean = true
}

/**
 * Two WebAuthn providers enable conditional UI; only one may.
 *
 * @example
 * ```ts
 * if (error instanceof DuplicateConditionalUI) console.error(error.message)
 * ```
 */
export class DuplicateConditionalUI extends AuthError {
  static override readonly type = "DuplicateConditionalUI"
}

/**
 * Conditional UI is on but no form field has `webauthn` in its `autocomplete`.
 *
 * @example
 * ```ts
 * if (error instanceof MissingWebAuthnAutocomplete) console.error(error.message)
 * ```
 */
export class MissingWebAuthnAutocomplete extends AuthError {
  static override readonly type = "MissingWebAuthnAutocomplete"
}

/**
 * A WebAuthn registration or authentication response failed verification.
 *
 * @example
 * ```ts
 * if (error instanceof WebAuthnVerificationError) console.error(error.cause?.err)
 * ```
 */
export class WebAuthnVerificationError extends AuthError {
  static override readonly type = "WebAuthnVerificationError"
  static override readonly clientSafe = true
  static override readonly clientCaused: boolean = true
}

/**
 * A feature behind `experimental` is used without being enabled.
 *
 * @example
 * ```ts
 * const config = { providers: [Passkey], experimental: { enableWebAuthn: true } }
 * ```
 */
export class ExperimentalFeatureNotEnabled extends AuthError {
  static override readonly type = "ExperimentalFeatureNotEnabled"
}

/**
 * A configuration option has a value Gatehouse cannot use (a negative `maxAge`, a `basePath`
 * without a leading slash, two providers with one id …). Gatehouse-only: Auth.js lets these
 * fail later in stranger ways.
 *
 * @example
 * ```ts
 * if (error instanceof InvalidConfig) console.error(error.message)
 * ```
 */
export class InvalidConfig extends AuthError {
  static override readonly type = "InvalidConfig"
}

/**
 * The request could not be read: a body that is not valid JSON or not a JSON object, a body over
 * the size limit, or a path segment with broken percent-encoding. Answered with 400 and logged as
 * one warning line.
 *
 * @example
 * ```ts
 * if (error instanceof InvalidRequest) console.error(error.message)
 * ```
 */
export class InvalidRequest extends AuthError {
  static override readonly type = "InvalidRequest"
  static override readonly clientCaused: boolean = true
}

/**
 * A provider refused to refresh an access token (the refresh token was revoked, expired or
 * already used), or there was none to refresh it with. Logged; the session then carries
 * `error: "RefreshAccessTokenError"` until the user signs in again. Also logged, without that
 * mark, when the provider could not be reached (the next session read tries again).
 *
 * @example
 * ```ts
 * const session = await auth()
 * if (session?.error === "RefreshAccessTokenError") await signIn("google")
 * ```
 */
export class RefreshAccessTokenError extends AuthError {
  static override readonly type = "RefreshAccessTokenError"
}

/**
 * Alias of {@link MissingSecret}, the name the interface specification uses.
 *
 * @example
 * ```ts
 * if (error instanceof MissingSecretError) console.error("set AUTH_SECRET")
 * ```
 */
export const MissingSecretError = MissingSecret
/** Alias of {@link MissingSecret}, the name the interface specification uses. */
export type MissingSecretError = MissingSecret

/** Why a stored password hash string was refused (see {@link PasswordHashError}). */
export type PasswordHashProblem =
  /** Not a PHC string of a supported shape: wrong segments, bad base64, bad number, unknown parameter. */
  | "malformed"
  /** A well-formed PHC string of an algorithm `gatehouse-auth/password` does not implement (bcrypt, argon2…), or an unknown `algorithm` option. */
  | "unknown-algorithm"
  /** Parameters outside the accepted bounds: too much memory or work, too short a salt or key. */
  | "parameters-out-of-range"
  /** A scrypt hash (or `algorithm: "scrypt"`) where only Web Crypto exists; scrypt needs Node's `node:crypto`. */
  | "needs-node"
  /**
   * Too many hashes or verifications are waiting for the concurrency limit already
   * (`setPasswordHashingConcurrency`); nothing was derived. A load problem: try again later.
   */
  | "busy"

/**
 * A stored password hash string `gatehouse-auth/password` will not use. It signals a data or
 * configuration problem (a corrupted row, a hash from another tool, a hostile database write),
 * never a wrong password, so it is thrown rather than reported as `false`. The message never
 * holds the salt or the key. The one exception is `busy`: too many hashes were waiting for the
 * concurrency limit, and nothing was checked; thrown from a credentials provider's `authorize`,
 * it becomes a {@link ServerBusy} answer (`503`), not a failed sign-in.
 *
 * @example
 * ```ts
 * try {
 *   ok = await verifyPassword(password, row.passwordHash)
 * } catch (error) {
 *   if (error instanceof PasswordHashError) logger.error(error.reason, row.id)
 * }
 * ```
 */
export class PasswordHashError extends AuthError {
  static override readonly type = "PasswordHashError"
  /** What is wrong with the stored string, or `busy`. */
  readonly reason: PasswordHashProblem

  constructor(reason: PasswordHashProblem, message: string) {
    super(message)
    this.reason = reason
  }
}

/** Why `hashPassword` refused a password (see {@link PasswordInputError}). */
export type PasswordInputProblem = "not-a-string" | "empty" | "too-long" | "ill-formed-unicode"

/**
 * A password `hashPassword` will not hash: not a string, empty, longer than
 * `MAX_PASSWORD_LENGTH` once normalized, or holding a lone UTF-16 surrogate (which UTF-8 cannot
 * carry, so two different such passwords would hash alike).
 *
 * @example
 * ```ts
 * if (error instanceof PasswordInputError && error.reason === "too-long") showError("Use at most 1024 characters")
 * ```
 */
export class PasswordInputError extends AuthError {
  static override readonly type = "PasswordInputError"
  /** What is wrong with the password. */
  readonly reason: PasswordInputProblem

  constructor(reason: PasswordInputProblem, message: string) {
    super(message)
    this.reason = reason
  }
}

/**
 * An account route or function (sessions, linked accounts, linking) was asked without a session:
 * they act for the signed-in user only. Answered with 401.
 *
 * @example
 * ```ts
 * if (error instanceof SessionRequired) return redirect("/login")
 * ```
 */
export class SessionRequired extends AuthError {
  static override readonly type = "SessionRequired"
  static override readonly clientSafe = true
  static override readonly clientCaused: boolean = true
}

/**
 * The session to revoke is not one of the signed-in user's (another user's, an ended one, or a
 * made-up id), or is the current one (which signing out ends). Nothing was changed. Answered with 404.
 *
 * @example
 * ```ts
 * if (error instanceof UnknownSession) console.error(error.message)
 * ```
 */
export class UnknownSession extends AuthError {
  static override readonly type = "UnknownSession"
  static override readonly clientSafe = true
  static override readonly clientCaused: boolean = true
}

/**
 * The account to unlink is not one of the signed-in user's. Nothing was changed. Answered with 404.
 *
 * @example
 * ```ts
 * if (error instanceof UnknownAccount) console.error(error.message)
 * ```
 */
export class UnknownAccount extends AuthError {
  static override readonly type = "UnknownAccount"
  static override readonly clientSafe = true
  static override readonly clientCaused: boolean = true
}

/**
 * Unlinking the account would leave the user no way to sign in (no other account of a configured
 * provider, no email sign-in for their address, no credentials as `account.canUseCredentials` says).
 * Nothing was changed. Answered with 409.
 *
 * @example
 * ```ts
 * if (error instanceof LastSignInMethod) showMessage("Add another way to sign in first")
 * ```
 */
export class LastSignInMethod extends AuthError {
  static override readonly type = "LastSignInMethod"
  static override readonly clientSafe = true
  static override readonly clientCaused: boolean = true
}

/**
 * A back-channel `logout_token` was refused: not a JWT signed by the provider's keys, another
 * issuer or audience, too old or from the future, without the logout event, without `sid` and
 * `sub`, with a `nonce`, or a `jti` seen before. Nothing was ended; answered with 400 and logged
 * as one warning line (anyone can post to the receiver).
 *
 * @example
 * ```ts
 * logger: { warn: (code, message) => code === "InvalidLogoutToken" && alerts.notify(code, message) }
 * ```
 */
export class InvalidLogoutToken extends AuthError {
  static override readonly type = "InvalidLogoutToken"
  static override readonly clientCaused: boolean = true
}

/**
 * A provider's server did not give what a request needed from it: its discovery document or its
 * key set (JWKS) could not be fetched, answered an error, or was not what was asked for. A server
 * fault, logged with its cause; the back-channel logout receiver answers 503, so the provider
 * tries again later.
 *
 * @example
 * ```ts
 * if (error instanceof ProviderUnavailable) console.error(error.message, error.cause?.err)
 * ```
 */
export class ProviderUnavailable extends AuthError {
  static override readonly type = "ProviderUnavailable"
}

/**
 * A second-factor code was wrong: not the authenticator's code for now (or one already used),
 * not the email code sent, or not an unused recovery code. The user is asked again on the
 * second-factor page (`?error=InvalidTwoFactorCode`) while the pending sign-in lasts and has tries left.
 *
 * @example
 * ```ts
 * if (searchParams.get("error") === "InvalidTwoFactorCode") showMessage("That code did not work")
 * ```
 */
export class InvalidTwoFactorCode extends AuthError {
  static override readonly type = "InvalidTwoFactorCode"
  static override readonly kind: ErrorKind = "twoFactor"
  static override readonly clientSafe = true
  static override readonly clientCaused: boolean = true
}

/**
 * There is no sign-in waiting for a second factor: it took longer than 5 minutes, was finished
 * already (a replayed or double-submitted form), or its cookie is missing or unreadable. No
 * session was made; the user signs in again (`?error=TwoFactorExpired` on the sign-in page).
 *
 * @example
 * ```ts
 * if (searchParams.get("error") === "TwoFactorExpired") showMessage("That took too long; please sign in again")
 * ```
 */
export class TwoFactorExpired extends SignInError {
  static override readonly type = "TwoFactorExpired"
  static override readonly clientSafe = true
  static override readonly clientCaused: boolean = true
}

/**
 * The second factor failed for good: too many wrong codes for one pending sign-in, or the user
 * must enrol and cannot. No session was made; the pending sign-in is void and the user starts
 * again (`?error=TwoFactorFailed` on the sign-in page).
 *
 * @example
 * ```ts
 * if (searchParams.get("error") === "TwoFactorFailed") showMessage("Too many wrong codes; sign in again")
 * ```
 */
export class TwoFactorFailed extends SignInError {
  static override readonly type = "TwoFactorFailed"
  static override readonly clientSafe = true
  static override readonly clientCaused: boolean = true
}

/**
 * The sign-in needs a second factor and this account has none it could use here: two-factor is
 * required, no authenticator app is enabled, authenticator apps are off (`twoFactor.totp` unset),
 * and the email code cannot serve (it is off, the address is not verified, or the first factor was
 * the mailbox itself, which a code to the same mailbox would only repeat). No session was made
 * (`?error=TwoFactorUnavailable` on the sign-in page). A configuration gap, logged as an error:
 * turn on `twoFactor.totp`, or sign in another way first.
 *
 * @example
 * ```ts
 * if (searchParams.get("error") === "TwoFactorUnavailable") showMessage("Sign in with your password, then verify by email")
 * ```
 */
export class TwoFactorUnavailable extends SignInError {
  static override readonly type = "TwoFactorUnavailable"
  static override readonly clientSafe = true
}

/**
 * The action needs a recent second factor (`twoFactor.freshAge`, or the `maxAge`/`aal` asked of
 * `requireRecentAuth`) and the session has none: enrolling again, regenerating recovery codes,
 * disabling, and the account routes of an enrolled user. Nothing was changed. Answered with 403;
 * verify a second factor (step-up) and try again.
 *
 * @example
 * ```ts
 * if (error instanceof RecentAuthRequired) redirect("/auth/two-factor?callbackUrl=/settings")
 * ```
 */
export class RecentAuthRequired extends AuthError {
  static override readonly type = "RecentAuthRequired"
  static override readonly clientSafe = true
  static override readonly clientCaused: boolean = true
}

/**
 * The user has no second factor enabled, and the action needs one (disabling it, regenerating
 * recovery codes, a step-up check). Nothing was changed. Answered with 409.
 *
 * @example
 * ```ts
 * if (error instanceof TwoFactorNotEnrolled) redirect("/settings/two-factor/enrol")
 * ```
 */
export class TwoFactorNotEnrolled extends AuthError {
  static override readonly type = "TwoFactorNotEnrolled"
  static override readonly clientSafe = true
  static override readonly clientCaused: boolean = true
}

/**
 * The signed-in user's role does not allow this organization or admin action (a member promoting
 * themselves, an admin changing an owner, a non-admin calling the admin API). Nothing was changed.
 * Answered with 403.
 *
 * @example
 * ```ts
 * if (error instanceof PermissionDenied) return new Response("Forbidden", { status: 403 })
 * ```
 */
export class PermissionDenied extends AuthError {
  static override readonly type = "PermissionDenied"
  static override readonly clientSafe = true
  static override readonly clientCaused: boolean = true
}

/**
 * No organization by that id or slug, or the signed-in user is not a member of it (the two are not
 * told apart, so nobody learns which organizations exist). Answered with 404.
 *
 * @example
 * ```ts
 * if (error instanceof OrganizationNotFound) notFound()
 * ```
 */
export class OrganizationNotFound extends AuthError {
  static override readonly type = "OrganizationNotFound"
  static override readonly clientSafe = true
  static override readonly clientCaused: boolean = true
}

/**
 * Another organization already has that slug. Nothing was changed. Answered with 409.
 *
 * @example
 * ```ts
 * if (error instanceof SlugTaken) form.errors.slug = "Taken"
 * ```
 */
export class SlugTaken extends AuthError {
  static override readonly type = "SlugTaken"
  static override readonly clientSafe = true
  static override readonly clientCaused: boolean = true
}

/**
 * The change would leave an organization without an owner (removing, demoting or the leaving of
 * its last owner; deleting a user who is one). Nothing was changed. Answered with 409.
 *
 * @example
 * ```ts
 * if (error instanceof LastOwner) return "Make someone else an owner first"
 * ```
 */
export class LastOwner extends AuthError {
  static override readonly type = "LastOwner"
  static override readonly clientSafe = true
  static override readonly clientCaused: boolean = true
}

/**
 * The invitation is unknown, expired, already answered, revoked, or sent to another address than
 * the signed-in user's. Answered with 410.
 *
 * @example
 * ```ts
 * if (error instanceof InvitationInvalid) return "This invitation is no longer valid"
 * ```
 */
export class InvitationInvalid extends AuthError {
  static override readonly type = "InvitationInvalid"
  static override readonly clientSafe = true
  static override readonly clientCaused: boolean = true
}

/**
 * The user is banned: sign-in is refused until the ban ends or is lifted. Lands on the error page.
 *
 * @example
 * ```ts
 * if (error instanceof UserBanned) console.log("banned")
 * ```
 */
export class UserBanned extends AuthError {
  static override readonly type = "UserBanned"
  static override readonly clientSafe = true
  static override readonly clientCaused: boolean = true
}

/**
 * The admin API was asked about a user that does not exist. Answered with 404.
 *
 * @example
 * ```ts
 * if (error instanceof UserNotFound) notFound()
 * ```
 */
export class UserNotFound extends AuthError {
  static override readonly type = "UserNotFound"
  static override readonly clientSafe = true
  static override readonly clientCaused: boolean = true
}

/**
 * An impersonation that may not happen: of an admin, of oneself, while already impersonating, or
 * stopping one that is not under way; or ending the user's sessions from inside one. Nothing was
 * changed. Answered with 403.
 *
 * @example
 * ```ts
 * if (error instanceof ImpersonationRefused) return "Not allowed"
 * ```
 */
export class ImpersonationRefused extends AuthError {
  static override readonly type = "ImpersonationRefused"
  static override readonly clientSafe = true
  static override readonly clientCaused: boolean = true
}

/** Every stable `type` string an {@link AuthError} can carry. */
export type AuthErrorType =
  | "AuthError"
  | "AdapterError"
  | "SharedStoreError"
  | "AccessDenied"
  | "CallbackRouteError"
  | "ErrorPageLoop"
  | "EventError"
  | "InvalidCallbackUrl"
  | "CredentialsSignin"
  | "InvalidEndpoints"
  | "InvalidCheck"
  | "JWTSessionError"
  | "MissingAdapter"
  | "MissingAdapterMethods"
  | "MissingAuthorize"
  | "MissingSecret"
  | "OAuthAccountNotLinked"
  | "OAuthCallbackError"
  | "OAuthProfileParseError"
  | "SessionTokenError"
  | "OAuthSignInError"
  | "EmailSignInError"
  | "InvalidEmail"
  | "RateLimited"
  | "EmailRateLimited"
  | "CredentialsRateLimited"
  | "ServerBusy"
  | "SignOutError"
  | "UnknownAction"
  | "UnsupportedStrategy"
  | "InvalidProvider"
  | "UntrustedHost"
  | "Verification"
  | "MissingCSRF"
  | "AccountNotLinked"
  | "DuplicateConditionalUI"
  | "MissingWebAuthnAutocomplete"
  | "WebAuthnVerificationError"
  | "ExperimentalFeatureNotEnabled"
  | "InvalidConfig"
  | "InvalidRequest"
  | "RefreshAccessTokenError"
  | "PasswordHashError"
  | "PasswordInputError"
  | "SessionRequired"
  | "UnknownSession"
  | "UnknownAccount"
  | "LastSignInMethod"
  | "InvalidLogoutToken"
  | "ProviderUnavailable"
  | "InvalidTwoFactorCode"
  | "TwoFactorExpired"
  | "TwoFactorFailed"
  | "TwoFactorUnavailable"
  | "RecentAuthRequired"
  | "TwoFactorNotEnrolled"
  | "PermissionDenied"
  | "OrganizationNotFound"
  | "SlugTaken"
  | "LastOwner"
  | "InvitationInvalid"
  | "UserBanned"
  | "UserNotFound"
  | "ImpersonationRefused"

/**
 * Whether an error may be named to the client (in `?error=` or a JSON body).
 *
 * @example
 * ```ts
 * const shown = isClientError(error) ? error.type : "Configuration"
 * ```
 */
export function isClientError(error: unknown): error is AuthError {
  return error instanceof AuthError && error.clientSafe
}

/**
 * The names and attributes of every cookie Gatehouse sets, identical to Auth.js v5 so a switch
 * between the two keeps users signed in.
 * @module
 */

/** Attributes of one cookie. */
export interface CookieAttributes {
  /** Hidden from page scripts. On for every Gatehouse cookie. */
  httpOnly?: boolean
  /**
   * When the browser sends the cookie with cross-site requests. Default `lax`. As in Auth.js (and
   * jshttp/cookie), `true` means `strict` and `false` leaves the attribute out.
   */
  sameSite?: boolean | "lax" | "strict" | "none"
  /** The path the cookie is sent for. Default `/`. */
  path?: string
  /** Sent over https only. Default: on exactly for https requests (see `useSecureCookies`). */
  secure?: boolean
  /** The domain the cookie is sent to, subdomains included; unset means this host only. */
  domain?: string
  /** Seconds until the browser drops the cookie. */
  maxAge?: number
  /** When the browser drops the cookie. */
  expires?: Date
  /** CHIPS: kept per top-level site, for use in cross-site iframes. */
  partitioned?: boolean
  /** Chrome's `Priority` attribute: which cookies go last when a site has too many. */
  priority?: "low" | "medium" | "high"
}

/** A cookie's name and attributes. */
export interface CookieOption {
  /** The cookie's name. */
  name: string
  /** Its attributes. */
  options: CookieAttributes
}

/** A cookie to set (or, with `maxAge: 0`, to delete). */
export interface Cookie {
  /** The cookie's name. */
  name: string
  /** The value, before encoding (`Set-Cookie` carries it URI-encoded). */
  value: string
  /** Its attributes. */
  options: CookieAttributes
}

/** Every cookie Gatehouse uses, by role. */
export interface CookiesOptions {
  /** The session: the encrypted JWT, or a database session's token. `authjs.session-token`. */
  sessionToken: CookieOption
  /** Where to go after signing in. `authjs.callback-url`. */
  callbackUrl: CookieOption
  /** The double-submit CSRF token. `authjs.csrf-token` (`__Host-` on https). */
  csrfToken: CookieOption
  /** The OAuth PKCE code verifier, for 15 minutes. `authjs.pkce.code_verifier`. */
  pkceCodeVerifier: CookieOption
  /** The OAuth `state` check, for 15 minutes. `authjs.state`. */
  state: CookieOption
  /** The OIDC `nonce` check. `authjs.nonce`. */
  nonce: CookieOption
  /** A passkey ceremony's challenge, for 15 minutes. `authjs.challenge`. */
  webauthnChallenge: CookieOption
  /**
   * Gatehouse's addition: ties a sign-in link to the browser that asked for it (a keyed hash of
   * the link's token), so a link opened anywhere else asks before signing in. Lives as long as the link.
   */
  emailLinkBinding: CookieOption
  /**
   * Gatehouse's addition: a sign-in waiting for its second factor (encrypted; the user, how the
   * first factor went, where to go next), for 5 minutes at most. No session exists meanwhile.
   * `authjs.two-factor`.
   */
  twoFactor: CookieOption
  /**
   * Gatehouse's addition: "don't ask again on this browser" after a second factor (encrypted;
   * void once the user's factors change). Lives `twoFactor.trustDevice.maxAge`. `authjs.two-factor-trust`.
   */
  twoFactorTrust: CookieOption
  /**
   * Gatehouse's addition: the address or user name typed on the built-in sign-in page's
   * credentials form, kept for that page after a wrong password (instead of in the URL, where it
   * reaches access logs and `Referer`). Path: the base path; one minute, and deleted when shown.
   * `authjs.sign-in-identifier`.
   */
  signInIdentifier: CookieOption
  /**
   * Gatehouse's addition: while an admin impersonates a user, the admin's own session (encrypted),
   * put back by `stopImpersonating`. Lives as long as the impersonation (one hour at most).
   * `authjs.impersonator`.
   */
  impersonator: CookieOption
}

/** A partial override of one cookie: a new name, new attributes, or both. */
export interface CookieOverride {
  /** A new name. */
  name?: string
  /** Attributes laid over the defaults, one at a time. */
  options?: CookieAttributes
}

/** Seconds the OAuth check and WebAuthn challenge cookies live. */
export const CHECK_COOKIE_MAX_AGE = 15 * 60

/** Seconds a sign-in waits for its second factor at most (the `twoFactor` cookie's life). */
export const TWO_FACTOR_COOKIE_MAX_AGE = 5 * 60

/** Seconds the identifier typed before a failed sign-in waits for the page that shows it again. */
const SIGN_IN_IDENTIFIER_MAX_AGE = 60

/**
 * The session cookie's name: `__Secure-authjs.session-token` on secure origins,
 * `authjs.session-token` otherwise.
 */
export function sessionCookieName(secure: boolean): string {
  return `${secure ? "__Secure-" : ""}authjs.session-token`
}

/**
 * The default cookies, `__Secure-`-prefixed and `Secure` when `secure` (the CSRF cookie takes
 * `__Host-`, which also pins it to this host and path `/`). All have path `/` but the sign-in
 * identifier's, which only the sign-in page under `basePath` reads.
 */
export function defaultCookies(secure: boolean, basePath = "/"): CookiesOptions {
  const prefix = secure ? "__Secure-" : ""
  const base = (): CookieAttributes => ({ httpOnly: true, sameSite: "lax", path: "/", secure })
  return {
    sessionToken: { name: sessionCookieName(secure), options: base() },
    callbackUrl: { name: `${prefix}authjs.callback-url`, options: base() },
    csrfToken: { name: `${secure ? "__Host-" : ""}authjs.csrf-token`, options: base() },
    pkceCodeVerifier: {
      name: `${prefix}authjs.pkce.code_verifier`,
      options: { ...base(), maxAge: CHECK_COOKIE_MAX_AGE },
    },
    state: { name: `${prefix}authjs.state`, options: { ...base(), maxAge: CHECK_COOKIE_MAX_AGE } },
    // Auth.js gives the nonce cookie only an Expires date; kept so the Set-Cookie lines match.
    nonce: { name: `${prefix}authjs.nonce`, options: base() },
    webauthnChallenge: {
      name: `${prefix}authjs.challenge`,
      options: { ...base(), maxAge: CHECK_COOKIE_MAX_AGE },
    },
    emailLinkBinding: { name: `${prefix}authjs.email-link`, options: base() },
    twoFactor: { name: `${prefix}authjs.two-factor`, options: { ...base(), maxAge: TWO_FACTOR_COOKIE_MAX_AGE } },
    twoFactorTrust: { name: `${prefix}authjs.two-factor-trust`, options: base() },
    signInIdentifier: { name: `${prefix}authjs.sign-in-identifier`, options: { ...base(), path: basePath, maxAge: SIGN_IN_IDENTIFIER_MAX_AGE } },
    impersonator: { name: `${prefix}authjs.impersonator`, options: base() },
  }
}

/**
 * The default cookies with the application's overrides laid over them, one cookie and one
 * attribute at a time; a new object, the defaults and overrides untouched.
 */
export function mergeCookies(
  defaults: CookiesOptions,
  overrides: Partial<Record<keyof CookiesOptions, CookieOverride>> | undefined,
): CookiesOptions {
  const merged = { ...defaults }
  if (!overrides) return merged
  for (const key of Object.keys(defaults) as (keyof CookiesOptions)[]) {
    const override = overrides[key]
    if (!override) continue
    merged[key] = {
      name: override.name ?? defaults[key].name,
      options: { ...defaults[key].options, ...override.options },
    }
  }
  return merged
}

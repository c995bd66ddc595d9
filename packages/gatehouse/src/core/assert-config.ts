/**
 * Checks a resolved configuration before a request is served, in Auth.js's order, so the first
 * problem reported is the one Auth.js would report. The checks depend only on the configuration,
 * so they run once per configuration.
 *
 * Unlike Auth.js, an invalid `callbackUrl` parameter or cookie is not a configuration error here:
 * it is client input, so the request falls back to the next source (see `core/callback-url.ts`)
 * instead of answering 500 until the cookie is cleared.
 * @module
 */
import type { Adapter } from "../adapters/index.js"
import { ORGANIZATION_METHODS } from "../adapters/organization-fields.js"
import {
  AuthError,
  DuplicateConditionalUI,
  ExperimentalFeatureNotEnabled,
  InvalidConfig,
  InvalidEndpoints,
  MissingAdapter,
  MissingAdapterMethods,
  MissingAuthorize,
  MissingSecret,
  MissingWebAuthnAutocomplete,
  UnsupportedStrategy,
  UntrustedHost,
} from "../errors.js"
import type { EmailConfig, EndpointConfig, ProviderConfig, RateLimit, WebAuthnConfig } from "../providers/types.js"
import { isCookieName } from "../cookies/serialize.js"
import type { ResolvedConfig } from "./config.js"
import type { WarningCode } from "./logger.js"
import { claimBlocker } from "./unproven-account.js"
import { hasSimpleWebAuthn } from "./webauthn/simple-webauthn-functions.js"

/** What a request contributes to the checks. */
export interface AssertedRequest {
  /** The request URL, named in the UntrustedHost message. */
  url: string | URL
}

/** The outcome: the first problem found, if any, and the warnings to log. */
export interface ConfigCheck {
  error: AuthError | undefined
  warnings: readonly WarningCode[]
}

/** Adapter methods each feature needs; a method missing at run time is still reported by name. */
const DATABASE_SESSION_METHODS = ["createSession", "getSessionAndUser", "updateSession", "deleteSession"] as const
const OAUTH_METHODS = ["createUser", "getUser", "getUserByEmail", "getUserByAccount", "linkAccount"] as const
/** Refreshing access tokens under database sessions reads and rewrites the account rows. */
const TOKEN_REFRESH_METHODS = ["listAccountsByUserId", "updateAccount", "getAccount"] as const
const EMAIL_METHODS = ["createVerificationToken", "useVerificationToken", "getUserByEmail", "createUser", "updateUser"] as const
/** The account routes list and unlink the user's accounts (GET and POST accounts). */
const ACCOUNT_ROUTE_METHODS = ["listAccountsByUserId", "unlinkAccount"] as const
const WEBAUTHN_METHODS = [
  "createUser",
  "getUser",
  "getUserByEmail",
  "getUserByAccount",
  "linkAccount",
  "getAccount",
  "getAuthenticator",
  "createAuthenticator",
  "listAuthenticatorsByUserId",
  "updateAuthenticatorCounter",
  // A new passkey is stored with its account and user all or nothing: these take them back.
  "unlinkAccount",
  "deleteUser",
] as const

/**
 * Gatehouse's two-factor additions to the adapter contract (see `adapters/index.ts`), named as
 * strings: an Auth.js adapter has none of them, and `twoFactor` with one is refused up front.
 */
export const TWO_FACTOR_METHODS = [
  "getTwoFactor",
  "setTotpPendingSecret",
  "enableTotp",
  "useTotpStep",
  "updateTotpSecret",
  "replaceRecoveryCodes",
  "useRecoveryCode",
  "incrementTwoFactorTrustVersion",
  "deleteTwoFactor",
] as const
/** Database sessions keep how they were authenticated beside the row. */
const TWO_FACTOR_DATABASE_METHODS = ["createSessionDetails", "updateSessionAuthentication"] as const
/** Bounds of the two-factor options, in their units. */
const MAX_ISSUER_LENGTH = 100
const MAX_RECOVERY_CODES = 20
const FRESH_AGE_RANGE = [60, 24 * 60 * 60] as const
const TRUST_DEVICE_RANGE = [60, 400 * 24 * 60 * 60] as const

// Shortest secret that still carries 256 bits when random base64 (what `openssl rand -base64 32` makes).
const MIN_SECRET_LENGTH = 32

/**
 * Whether `secret` is short enough to raise `secret-too-short`: the one rule, which
 * `gatehouse doctor` applies to the environment's secrets too.
 */
export function isSecretTooShort(secret: string): boolean {
  return secret.length < MIN_SECRET_LENGTH
}

interface StaticCheck {
  /** Untrusted host is reported with the request URL, so it is kept apart. */
  untrustedHost: boolean
  /** The first request-independent problem after the host and secret checks. */
  error: AuthError | undefined
  missingSecret: boolean
  warnings: readonly WarningCode[]
}

const staticChecks = new WeakMap<ResolvedConfig, StaticCheck>()

/**
 * What to do about an untrusted host, in the error itself: the person reading the log is the one
 * deploying, and the two fixes suit different deployments.
 */
const UNTRUSTED_HOST_FIX =
  "In production set AUTH_URL to the site's public URL (AUTH_URL=https://your.site); " +
  "behind a proxy or platform you control that sets the Host or X-Forwarded-Host header, set AUTH_TRUST_HOST=true instead " +
  "(or `trustHost: true` in the config)"

/**
 * The first problem with `config` for this request, and the warnings the configuration raises
 * (reported on the first check of each configuration only, so they are logged once).
 *
 * @example
 * ```ts
 * const { error, warnings } = assertConfig(resolveConfig(config, env), { url: request.url })
 * if (error) return configurationErrorResponse(error)
 * ```
 */
export function assertConfig(config: ResolvedConfig, request?: AssertedRequest): ConfigCheck {
  let check = staticChecks.get(config)
  // Warnings describe the configuration, not the request: report them on its first check only.
  const warnings = check ? [] : undefined
  if (!check) staticChecks.set(config, (check = checkConfig(config)))
  const result = (error: AuthError | undefined): ConfigCheck => ({ error, warnings: warnings ?? check.warnings })
  if (check.untrustedHost) {
    return result(new UntrustedHost(`Host must be trusted. URL was: ${withoutQuery(request?.url)}. ${UNTRUSTED_HOST_FIX}`))
  }
  if (check.missingSecret) {
    return result(
      new MissingSecret(
        "Please define a `secret`: set AUTH_SECRET to a random string of at least 32 characters; `npx gatehouse-auth secret` writes one to .env.local",
      ),
    )
  }
  return result(check.error)
}

/** Per configuration: why its passkey library cannot run ceremonies (or `undefined`), or the question under way. */
const libraryRefusals = new WeakMap<ResolvedConfig, AuthError | undefined | Promise<AuthError | undefined>>()

/**
 * What only a call can tell of a configuration that {@link assertConfig} passed: whether each
 * passkey provider's `@simplewebauthn/server` is a version Gatehouse supports (see
 * ./webauthn/library-versions.ts). Asked once per configuration, the answer kept, so that from the
 * second request on it is one lookup and no `await`. The auth routes ask it before serving
 * anything, so no browser starts a ceremony that cannot finish; a session read starts none, and
 * does not ask.
 */
export function passkeyLibraryRefusal(config: ResolvedConfig): AuthError | undefined | Promise<AuthError | undefined> {
  if (libraryRefusals.has(config)) return libraryRefusals.get(config)
  const passkeys = config.providers.filter((provider): provider is WebAuthnConfig => provider.type === "webauthn")
  if (passkeys.length === 0) {
    libraryRefusals.set(config, undefined)
    return undefined
  }
  const asking = (async () => {
    // Loaded only by configurations with passkeys: a process without them never loads it.
    const { simpleWebAuthnRefusal } = await import("./webauthn/library-versions.js")
    for (const provider of passkeys) {
      // assertConfig passed, so each has its four functions.
      const refusal = await simpleWebAuthnRefusal(provider.simpleWebAuthn!)
      if (refusal) return refusal
    }
    return undefined
  })()
  libraryRefusals.set(config, asking)
  asking.then(
    (refusal) => libraryRefusals.set(config, refusal),
    () => libraryRefusals.delete(config),
  )
  return asking
}

/** Origin and path only: a query may carry a sign-in token, which must not reach a log line. */
function withoutQuery(url: string | URL | undefined): string {
  try {
    const parsed = new URL(String(url))
    return parsed.origin + parsed.pathname
  } catch {
    return ""
  }
}

function checkConfig(config: ResolvedConfig): StaticCheck {
  const warnings: WarningCode[] = [...config.envWarnings]
  if (config.debug) warnings.push("debug-enabled")
  if (config.skipCSRFCheck && !config.originChecked) warnings.push("csrf-disabled")
  if (config.secret.some(isSecretTooShort)) warnings.push("secret-too-short")
  const { session } = config
  // Valid (Auth.js accepts it), but an active user is then signed out maxAge after signing in.
  if (session.strategy === "database" && session.updateAge >= session.maxAge) warnings.push("session-never-extended")
  if (session.cacheMaxAge > 0 && (!config.sharedStore || session.strategy !== "database")) warnings.push("session-cache-unused")
  const hasWebAuthn = config.providers.some((provider) => provider.type === "webauthn")
  if (hasWebAuthn && config.experimental.enableWebAuthn) {
    warnings.push("experimental-webauthn")
    // Spent challenges are then remembered per process: a replay on another instance is not caught.
    if (config.adapter && typeof config.adapter.hitRateLimit !== "function" && !config.sharedStore) warnings.push("webauthn-challenges-in-memory")
  }
  // Tries and finished pending sign-ins are counted durably in the adapter, else in the store.
  if (config.twoFactor && config.adapter && typeof config.adapter.hitRateLimit !== "function" && !config.sharedStore) warnings.push("two-factor-counts-in-memory")
  if (claimsAccounts(config)) {
    if (claimBlocker(config)) warnings.push("unproven-accounts-unclaimable")
    if (config.providers.some((provider) => provider.type === "credentials" && !provider.revokeCredentials)) warnings.push("credentials-not-revoked")
  }
  return {
    untrustedHost: !config.trustHost,
    missingSecret: config.secret.length === 0,
    error: firstProblem(config),
    warnings: Object.freeze(warnings),
  }
}

/**
 * Whether a sign-in here can prove the address of a stored account nobody proved it for (an email
 * link, or an OAuth or OIDC provider that vouches for the address), which claims the account (see
 * ../core/unproven-account.ts).
 */
function claimsAccounts(config: ResolvedConfig): boolean {
  if (!config.adapter) return false
  return config.providers.some((provider) => provider.type === "email" || provider.type === "oauth" || provider.type === "oidc")
}

function firstProblem(config: ResolvedConfig): AuthError | undefined {
  const invalid = invalidOption(config)
  if (invalid) return invalid

  const { providers, adapter, session } = config
  let conditionalUI: WebAuthnConfig | undefined
  for (const provider of providers) {
    if (provider.type === "oauth" || provider.type === "oidc") {
      if (!provider.issuer) {
        for (const key of ["authorization", "token", "userinfo"] as const) {
          if (!hasUrl(provider[key])) {
            return new InvalidEndpoints(
              `Provider "${provider.id}" is missing both \`issuer\` and \`${key}\` endpoint config. At least one of them is required`,
            )
          }
        }
      }
    } else if (provider.type === "webauthn") {
      if (!hasSimpleWebAuthn(provider)) {
        return new InvalidConfig(
          `WebAuthn provider "${provider.id}" has no simpleWebAuthn functions; create it with gatehouse-auth/providers/passkey or gatehouse-auth/providers/webauthn`,
        )
      }
      const badOrigin = originsOf(provider).find((origin) => !isHttpOrigin(origin))
      if (badOrigin !== undefined) {
        return new InvalidConfig(`WebAuthn provider "${provider.id}" has relyingParty.origin ${JSON.stringify(badOrigin)}, which is not an http(s) origin`)
      }
      const version = provider.simpleWebAuthnBrowserVersion
      if (typeof version === "string" && !/^v\d+(?:\.\d+){0,2}$/.test(version)) {
        return new AuthError(
          `Invalid provider config for "${provider.id}": simpleWebAuthnBrowserVersion "${version}" must look like "v9.0.1"`,
        )
      }
      if (provider.enableConditionalUI) {
        if (conditionalUI) {
          return new DuplicateConditionalUI(
            `Multiple providers have 'enableConditionalUI' set to true: "${conditionalUI.id}" and "${provider.id}"; only one may`,
          )
        }
        conditionalUI = provider
        const fields = Object.values(provider.formFields ?? {})
        if (!fields.some((field) => typeof field?.autocomplete === "string" && field.autocomplete.includes("webauthn"))) {
          return new MissingWebAuthnAutocomplete(
            `Provider "${provider.id}" has 'enableConditionalUI' set to true, but none of its formFields have 'webauthn' in their autocomplete param`,
          )
        }
      }
    }
  }

  const credentials = providers.filter((provider) => provider.type === "credentials")
  const withoutAuthorize = credentials.find((provider) => typeof provider.authorize !== "function")
  if (withoutAuthorize) return new MissingAuthorize(`Provider "${withoutAuthorize.id}" needs an \`authorize\` function`)

  // Linked accounts and the end of other sessions are stored by the adapter; without one only this
  // browser's JWT would be listed, and every other route would answer as if nobody were signed in.
  if (config.account.routes && !adapter) return new MissingAdapter("The account routes (account.routes) require an adapter")

  const required = new Set<keyof Adapter>()
  if (providers.some((provider) => provider.type === "email")) {
    if (!adapter) return new MissingAdapter("Email login requires an adapter")
    EMAIL_METHODS.forEach((method) => required.add(method))
  }
  // Auth.js skips these when an email provider is present; a database session needs them regardless.
  if (session.strategy === "database") {
    if (!adapter) return new MissingAdapter("Database session requires an adapter")
    DATABASE_SESSION_METHODS.forEach((method) => required.add(method))
    // Credentials sign-in issues a session row for the stored user `authorize` names.
    if (credentials.length > 0) required.add("getUser")
    if (providers.some((provider) => "refreshAccessToken" in provider && provider.refreshAccessToken === true)) {
      TOKEN_REFRESH_METHODS.forEach((method) => required.add(method))
    }
  }
  // Checked here rather than on each account request, which would otherwise fail one by one
  // (Auth.js's adapters have none of these). Under database sessions the routes list the rows too.
  if (config.account.routes) {
    ACCOUNT_ROUTE_METHODS.forEach((method) => required.add(method))
    if (session.strategy === "database") required.add("listSessionsByUserId")
  }
  if (adapter && providers.some((provider) => provider.type === "oauth" || provider.type === "oidc")) {
    OAUTH_METHODS.forEach((method) => required.add(method))
  }
  if (providers.some((provider) => provider.type === "webauthn")) {
    if (!config.experimental.enableWebAuthn) {
      return new ExperimentalFeatureNotEnabled("WebAuthn is an experimental feature; set experimental.enableWebAuthn")
    }
    if (!adapter) return new MissingAdapter("WebAuthn requires an adapter")
    WEBAUTHN_METHODS.forEach((method) => required.add(method))
  }
  const twoFactorRequired: string[] = []
  if (config.twoFactor) {
    if (!adapter) return new MissingAdapter("Two-factor sign-in (twoFactor) requires an adapter")
    twoFactorRequired.push("getUser", ...TWO_FACTOR_METHODS)
    if (session.strategy === "database") twoFactorRequired.push(...TWO_FACTOR_DATABASE_METHODS)
  }
  if (adapter) {
    const methods = adapter as unknown as Record<string, unknown>
    const missing = [...new Set<string>([...required, ...twoFactorRequired])].filter((method) => typeof methods[method] !== "function")
    if (missing.length > 0) {
      return new MissingAdapterMethods(`Required adapter methods were missing: ${missing.join(", ")}`)
    }
  }
  return undefined
}

/** An HTTP field name (RFC 9110, 5.1): a token. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

/** What a `sharedStore` must have (the contract in stores/index.ts). */
const STORE_METHODS = ["increment", "setIfAbsent", "get", "set", "delete"] as const

/** Option values no request could be served with. */
function invalidOption(config: ResolvedConfig): AuthError | undefined {
  const { session, jwt, providers } = config
  if (config.secret.some((secret) => typeof secret !== "string" || secret === "")) {
    return new InvalidConfig("`secret` must be a non-empty string or an array of non-empty strings")
  }
  if (session.strategy !== "jwt" && session.strategy !== "database") {
    return new UnsupportedStrategy(`Unknown session strategy ${JSON.stringify(session.strategy)}: use "jwt" or "database"`)
  }
  for (const [name, value, min] of [
    ["session.maxAge", session.maxAge, 1],
    ["session.updateAge", session.updateAge, 0],
    ["session.cacheMaxAge", session.cacheMaxAge, 0],
    ["jwt.maxAge", jwt.maxAge, 1],
  ] as const) {
    if (typeof value !== "number" || !Number.isFinite(value) || value < min) {
      // A string is quoted: "30" is the mistake to see, not 30.
      return new InvalidConfig(`\`${name}\` must be a number of seconds of at least ${min}; received ${typeof value === "string" ? JSON.stringify(value) : String(value)}`)
    }
  }
  for (const [role, cookie] of Object.entries(config.cookies.secure)) {
    if (!isCookieName(cookie.name) || !isCookieName(config.cookies.insecure[role as keyof typeof config.cookies.insecure].name)) {
      return new InvalidConfig(`\`cookies.${role}.name\` must be a valid cookie name; received ${JSON.stringify(cookie.name)}`)
    }
  }
  if (typeof session.generateSessionToken !== "function") {
    return new InvalidConfig("`session.generateSessionToken` must be a function")
  }
  for (const [page, path] of Object.entries(config.pages)) {
    // A page ends up in a Location header: only a path or URL string may go there.
    if (path !== undefined && (typeof path !== "string" || path === "")) {
      return new InvalidConfig(`\`pages.${page}\` must be a path or URL string; received ${typeof path}`)
    }
  }
  if (session.absoluteMaxAge !== undefined && !(typeof session.absoluteMaxAge === "number" && session.absoluteMaxAge >= 1 && Number.isFinite(session.absoluteMaxAge))) {
    return new InvalidConfig(`\`session.absoluteMaxAge\` must be a number of seconds of at least 1; received ${String(session.absoluteMaxAge)}`)
  }
  if (typeof session.hashTokens !== "boolean") {
    return new InvalidConfig(`\`session.hashTokens\` must be true or false; received ${JSON.stringify(session.hashTokens)}`)
  }
  const store: unknown = config.sharedStore
  if (store !== undefined) {
    // A Redis client given as is is the likely mistake: it has get and set, but not this contract.
    const hint = "(a Redis client goes through redisStore({ client }) from gatehouse-auth/stores/redis)"
    if (typeof store !== "object" || store === null) {
      return new InvalidConfig(`\`sharedStore\` must be a shared store object ${hint}; received ${store === null ? "null" : typeof store}`)
    }
    const missing = STORE_METHODS.filter((method) => typeof (store as Record<string, unknown>)[method] !== "function")
    if (missing.length > 0) return new InvalidConfig(`\`sharedStore\` must be a shared store ${hint}; it lacks the methods ${missing.join(", ")}`)
  }
  const ipHeader: unknown = config.trustedIpHeader
  if (ipHeader !== undefined) {
    if (typeof ipHeader !== "string" || !HEADER_NAME.test(ipHeader)) {
      return new InvalidConfig(`\`trustedIpHeader\` must be a header name, like "cf-connecting-ip"; received ${JSON.stringify(ipHeader)}`)
    }
    // Their first value is whatever the client sent: naming them would hand the client its bucket.
    if (/^(x-forwarded-for|forwarded)$/i.test(ipHeader)) {
      return new InvalidConfig(
        `\`trustedIpHeader\` cannot be ${ipHeader}, whose first entry the client writes; leave it unset to read the last X-Forwarded-For hop (with trustHost)`,
      )
    }
  }
  const checkAge = session.revocationCheckAge
  if (checkAge !== false && !(typeof checkAge === "number" && checkAge >= 0 && Number.isFinite(checkAge))) {
    return new InvalidConfig(`\`session.revocationCheckAge\` must be a number of seconds (0 or more) or false; received ${String(checkAge)}`)
  }
  const twoFactor = invalidTwoFactor(config)
  if (twoFactor) return twoFactor
  const organizations = invalidOrganizations(config)
  if (organizations) return organizations
  const admin = invalidAdmin(config)
  if (admin) return admin
  const seen = new Set<string>()
  for (const provider of providers) {
    if (!KNOWN_TYPES.has(provider.type)) {
      return new InvalidConfig(`Provider "${provider.id}" has unknown type ${JSON.stringify(provider.type)}`)
    }
    if (seen.has(provider.id)) return new InvalidConfig(`Two providers share the id "${provider.id}"; ids must be unique`)
    seen.add(provider.id)
    if (provider.type === "email") {
      const invalid = invalidRateLimit(provider.id, provider.rateLimit, ["perEmail", "perIp"], ["clientIp"])
      if (invalid) return invalid
      const { maxAttempts } = provider
      if (maxAttempts !== undefined && maxAttempts !== false && !(Number.isInteger(maxAttempts) && maxAttempts >= 1)) {
        return new InvalidConfig(`\`maxAttempts\` of provider "${provider.id}" must be a whole number of at least 1, or false`)
      }
      const invalidCode = invalidSignInCode(provider)
      if (invalidCode) return invalidCode
    }
    if (provider.type === "credentials") {
      const invalid = invalidRateLimit(provider.id, provider.rateLimit, ["perIdentifier", "perIp"], ["identifier", "clientIp"])
      if (invalid) return invalid
    }
  }
  return undefined
}

/**
 * An email provider's `code` (sign-in with a code instead of a link) that cannot be used: not
 * `true` or `{ digits: 6 | 7 | 8 }`, or a `maxAge` above 10 minutes (a 6-digit code must not stay
 * guessable for long).
 */
function invalidSignInCode(provider: EmailConfig): AuthError | undefined {
  const { code } = provider
  if (code === undefined || code === true) return checkCodeAge(provider)
  if (code === null || typeof code !== "object" || Array.isArray(code)) {
    return new InvalidConfig(`\`code\` of provider "${provider.id}" must be true or { digits }; received ${describe(code)}`)
  }
  const { digits } = code
  if (digits !== undefined && !(digits === 6 || digits === 7 || digits === 8)) {
    return new InvalidConfig(`\`code.digits\` of provider "${provider.id}" must be 6, 7 or 8; received ${describe(digits)}`)
  }
  return checkCodeAge(provider)
}

function checkCodeAge(provider: EmailConfig): AuthError | undefined {
  if (provider.code === undefined) return undefined
  const { maxAge } = provider
  if (maxAge !== undefined && !(typeof maxAge === "number" && maxAge > 0 && maxAge <= 600)) {
    return new InvalidConfig(`\`maxAge\` of provider "${provider.id}" must be at most 600 seconds with \`code\` (a sign-in code lives 10 minutes at most); received ${describe(maxAge)}`)
  }
  return undefined
}

// The admin API.
/**
 * What the admin API needs of the adapter: the user status and search methods, the users they
 * name (and delete), and the audit log every admin action writes to and reads.
 */
const ADMIN_ADAPTER_METHODS = ["getUser", "getUserStatus", "setUserRole", "banUser", "unbanUser", "searchUsers", "appendAuditEntry", "deleteUser", "listAuditEntries"] as const
/** How a ban, a revocation or a delete ends the user's sessions, by strategy (as `sessionRevoker` chooses). */
const ADMIN_REVOCATION_METHODS = { jwt: ["getSessionVersion", "incrementSessionVersion"], database: ["deleteSessionsByUserId"] } as const
const IMPERSONATION_MAX_AGE_RANGE = [60, 3600] as const

/** An `admin` option the admin API could not run with, named with what was received. */
function invalidAdmin(config: ResolvedConfig): AuthError | undefined {
  const admin: unknown = config.admin
  if (admin === undefined) return undefined
  if (admin === null || typeof admin !== "object" || Array.isArray(admin)) return new InvalidConfig(`\`admin\` must be an object; received ${describe(admin)}`)
  const { userIds, roles, routes, impersonationMaxAge, setPassword } = admin as Record<string, unknown>
  for (const [name, list] of [["userIds", userIds], ["roles", roles]] as const) {
    if (list !== undefined && !(Array.isArray(list) && list.every((item) => typeof item === "string" && item !== ""))) {
      return new InvalidConfig(`\`admin.${name}\` must be an array of non-empty strings; received ${describe(list)}`)
    }
  }
  if (routes !== undefined && typeof routes !== "boolean") return new InvalidConfig(`\`admin.routes\` must be true or false; received ${describe(routes)}`)
  const [minAge, maxAge] = IMPERSONATION_MAX_AGE_RANGE
  if (impersonationMaxAge !== undefined && !(typeof impersonationMaxAge === "number" && Number.isInteger(impersonationMaxAge) && impersonationMaxAge >= minAge && impersonationMaxAge <= maxAge)) {
    return new InvalidConfig(`\`admin.impersonationMaxAge\` must be a whole number of seconds from ${minAge} to ${maxAge}; received ${describe(impersonationMaxAge)}`)
  }
  if (setPassword !== undefined && typeof setPassword !== "function") {
    return new InvalidConfig(`\`admin.setPassword\` must be a function of the user and the new password; received ${describe(setPassword)}`)
  }
  if (!config.adapter) return new MissingAdapter("The admin API (admin) requires an adapter")
  const methods = config.adapter as unknown as Record<string, unknown>
  const missing = [...ADMIN_ADAPTER_METHODS, ...ADMIN_REVOCATION_METHODS[config.session.strategy]].filter((method) => typeof methods[method] !== "function")
  if (missing.length > 0) return new MissingAdapterMethods(`The admin API (admin) needs the adapter methods ${missing.join(", ")}`)
  if (lacksSessionContext(config)) return new MissingAdapterMethods("The admin API (admin) with database sessions needs the adapter method setSessionContext (impersonation marks its session with it)")
  // A ban ends the user's sessions through the session version under JWT sessions: never checked, it would end none.
  if (config.session.strategy === "jwt" && config.session.revocationCheckAge === false) {
    return new InvalidConfig("The admin API (admin) ends a banned user's JWT sessions through their session version, which `session.revocationCheckAge: false` never checks")
  }
  return undefined
}

// Organizations.

/** Invitations last at least a minute and at most 30 days. */
const INVITATION_MAX_AGE_RANGE = [60, 30 * 24 * 60 * 60] as const

/**
 * `organizations` that cannot be served: no adapter, or one without the organization methods (an
 * Auth.js adapter has none of them), an `access` not made by `defineAccess`, an invitation
 * lifetime out of range, or hooks that are not functions.
 */
function invalidOrganizations(config: ResolvedConfig): AuthError | undefined {
  const options: unknown = config.organizations
  if (options === undefined) return undefined
  if (options === null || typeof options !== "object") return new InvalidConfig(`\`organizations\` must be an object of options; received ${describe(options)}`)
  const { access, routes, invitationMaxAge, allowCreate, loadRole } = options as Record<string, unknown>
  if (!config.adapter) return new MissingAdapter("Organizations (`organizations`) need an adapter")
  const methods = config.adapter as unknown as Record<string, unknown>
  const missing = ORGANIZATION_METHODS.filter((method) => typeof methods[method] !== "function")
  if (missing.length > 0) return new MissingAdapterMethods(`Organizations need the adapter methods ${missing.join(", ")}, which the adapter lacks`)
  if (lacksSessionContext(config)) return new MissingAdapterMethods("Organizations with database sessions need the adapter method setSessionContext (every sign-in records its provider with it)")
  if (access !== undefined) {
    const made = access as { roles?: unknown; statements?: unknown; can?: unknown } | null
    if (made === null || typeof made !== "object" || typeof made.can !== "function" || typeof made.roles !== "object" || made.roles === null || typeof made.statements !== "object") {
      return new InvalidConfig(`\`organizations.access\` must be what defineAccess returns; received ${describe(access)}`)
    }
  }
  if (routes !== undefined && typeof routes !== "boolean") return new InvalidConfig(`\`organizations.routes\` must be true or false; received ${describe(routes)}`)
  if (invitationMaxAge !== undefined) {
    const [min, max] = INVITATION_MAX_AGE_RANGE
    if (!(typeof invitationMaxAge === "number" && Number.isInteger(invitationMaxAge) && invitationMaxAge >= min && invitationMaxAge <= max)) {
      return new InvalidConfig(`\`organizations.invitationMaxAge\` must be a whole number of seconds from ${min} to ${max} (30 days); received ${describe(invitationMaxAge)}`)
    }
  }
  if (allowCreate !== undefined && typeof allowCreate !== "boolean" && typeof allowCreate !== "function") {
    return new InvalidConfig(`\`organizations.allowCreate\` must be true, false or a function of the user; received ${describe(allowCreate)}`)
  }
  if (loadRole !== undefined && typeof loadRole !== "function") {
    return new InvalidConfig(`\`organizations.loadRole\` must be a function (organizationId, role) answering the role's permissions or null; received ${describe(loadRole)}`)
  }
  return undefined
}

/** A `twoFactor` option no sign-in could run with, named with what was received. */
function invalidTwoFactor(config: ResolvedConfig): AuthError | undefined {
  const options = config.twoFactor
  if (!options) return undefined
  const { totp, email, trustDevice } = options
  if (!totp && !email) return new InvalidConfig("`twoFactor` needs a second factor to offer: `totp`, `email`, or both")
  if (totp) {
    const issuer: unknown = totp.issuer
    if (typeof issuer !== "string" || issuer.trim() === "" || issuer.length > MAX_ISSUER_LENGTH) {
      return new InvalidConfig(`\`twoFactor.totp.issuer\` must be the name authenticator apps show, 1 to ${MAX_ISSUER_LENGTH} characters; received ${describe(issuer)}`)
    }
    const qrCode: unknown = totp.qrCode
    if (qrCode !== undefined && typeof qrCode !== "function") {
      return new InvalidConfig(`\`twoFactor.totp.qrCode\` must be a function of the otpauth URI answering SVG markup (e.g. renderSVG from uqr); received ${describe(qrCode)}`)
    }
  }
  if (email) {
    if (!(Number.isInteger(email.digits) && email.digits >= 6 && email.digits <= 8)) {
      return new InvalidConfig(`\`twoFactor.email.digits\` must be 6, 7 or 8; received ${describe(email.digits)}`)
    }
    if (!config.providers.some((provider) => provider.type === "email")) {
      return new InvalidConfig("`twoFactor.email` sends its codes through an email provider; configure one (Nodemailer, Resend, …) or turn `twoFactor.email` off")
    }
  }
  const require: unknown = options.require
  if (require !== "enrolled" && require !== "always" && typeof require !== "function") {
    return new InvalidConfig(`\`twoFactor.require\` must be "enrolled", "always" or a function of the user; received ${describe(require)}`)
  }
  if (!(Number.isInteger(options.recoveryCodes) && options.recoveryCodes >= 0 && options.recoveryCodes <= MAX_RECOVERY_CODES)) {
    return new InvalidConfig(`\`twoFactor.recoveryCodes\` must be a whole number from 0 to ${MAX_RECOVERY_CODES}; received ${describe(options.recoveryCodes)}`)
  }
  const [minFresh, maxFresh] = FRESH_AGE_RANGE
  if (!(typeof options.freshAge === "number" && Number.isFinite(options.freshAge) && options.freshAge >= minFresh && options.freshAge <= maxFresh)) {
    return new InvalidConfig(`\`twoFactor.freshAge\` must be a number of seconds from ${minFresh} to ${maxFresh}; received ${describe(options.freshAge)}`)
  }
  if (trustDevice) {
    const [minTrust, maxTrust] = TRUST_DEVICE_RANGE
    const maxAge: unknown = trustDevice.maxAge
    if (!(typeof maxAge === "number" && Number.isInteger(maxAge) && maxAge >= minTrust && maxAge <= maxTrust)) {
      return new InvalidConfig(`\`twoFactor.trustDevice.maxAge\` must be a whole number of seconds from ${minTrust} to ${maxTrust} (400 days); received ${describe(maxAge)}`)
    }
  }
  const passkey: unknown = options.passkey
  if (passkey !== "two-factor" && passkey !== "one-factor") {
    return new InvalidConfig(`\`twoFactor.passkey\` must be "two-factor" or "one-factor"; received ${describe(passkey)}`)
  }
  const notify: unknown = options.notify
  if (notify !== undefined && notify !== false && typeof notify !== "function") {
    return new InvalidConfig(`\`twoFactor.notify\` must be a function or false; received ${describe(notify)}`)
  }
  return undefined
}

/** A received value for a message: strings quoted ("600" is the mistake to see), numbers as they are. */
function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.slice(0, 120))
  if (typeof value === "number" || typeof value === "boolean" || value === null || value === undefined) return String(value)
  return typeof value
}

/**
 * A provider's `rateLimit` that could not limit anything (a `max` of NaN never trips), or whose
 * hooks are not functions. `limits` and `hooks` name the fields of that provider type's shape.
 */
function invalidRateLimit(providerId: string, rateLimit: unknown, limits: readonly string[], hooks: readonly string[]): AuthError | undefined {
  if (rateLimit === undefined || rateLimit === false) return undefined
  if (typeof rateLimit !== "object" || rateLimit === null) {
    return new InvalidConfig(`\`rateLimit\` of provider "${providerId}" must be an object or false`)
  }
  const fields = rateLimit as Record<string, unknown>
  for (const name of limits) {
    const limit = fields[name] as Partial<RateLimit> | false | undefined | null
    if (limit === undefined || limit === false) continue
    const valid =
      typeof limit === "object" && limit !== null &&
      Number.isInteger(limit.max) && (limit.max ?? 0) >= 1 &&
      typeof limit.windowSeconds === "number" && Number.isFinite(limit.windowSeconds) && limit.windowSeconds > 0
    if (!valid) {
      return new InvalidConfig(
        `\`rateLimit.${name}\` of provider "${providerId}" must be { max: a whole number of at least 1, windowSeconds: a positive number } or false`,
      )
    }
  }
  for (const name of hooks) {
    if (fields[name] !== undefined && typeof fields[name] !== "function") {
      return new InvalidConfig(`\`rateLimit.${name}\` of provider "${providerId}" must be a function`)
    }
  }
  return undefined
}

const KNOWN_TYPES: ReadonlySet<string> = new Set<ProviderConfig["type"]>([
  "oauth",
  "oidc",
  "email",
  "credentials",
  "webauthn",
])

function hasUrl(endpoint: EndpointConfig | undefined): boolean {
  if (typeof endpoint === "string") return endpoint !== ""
  return typeof endpoint?.url === "string" && endpoint.url !== ""
}

/** The origins a WebAuthn provider configures (either spelling of `relyingParty`). */
function originsOf(provider: WebAuthnConfig): string[] {
  const origin: unknown = (provider.relyingParty ?? provider.relayingParty)?.origin
  if (origin === undefined) return []
  return (Array.isArray(origin) ? origin : [origin]).map((item: unknown) => (typeof item === "string" ? item : String(item)))
}

/** Whether `value` is exactly an http(s) origin, as a browser reports it in `clientDataJSON`. */
function isHttpOrigin(value: string): boolean {
  try {
    const url = new URL(value)
    return (url.protocol === "https:" || url.protocol === "http:") && url.origin === value
  } catch {
    return false
  }
}

// Sessions mender (issue 39): database sessions keep organizations' and impersonation's context beside the row.
/** Whether database sessions lack the adapter's `setSessionContext`, without which a sign-in or impersonation storing context fails. */
function lacksSessionContext(config: ResolvedConfig): boolean {
  return config.session.strategy === "database" && typeof config.adapter?.setSessionContext !== "function"
}

/**
 * Turning what the application passed into the configuration the core runs on: every default
 * filled in, the environment applied, frozen, and computed once per configuration object.
 * @module
 */
import type { Adapter } from "../adapters/index.js"
import { defaultCookies, mergeCookies, type CookiesOptions } from "../cookies/defaults.js"
import { InvalidConfig } from "../errors.js"
import { DEFAULT_MAX_AGE, decode, encode, type JWTOptions } from "../jwt/index.js"
import type { ProviderConfig } from "../providers/types.js"
import type { SharedStore } from "../stores/index.js"
import type {
  AccountOptions,
  AuthConfig,
  CallbacksOptions,
  EventCallbacks,
  LoggerInstance,
  PagesOptions,
  SessionOptions,
  Theme,
  TwoFactorOptions,
  TwoFactorRequire,
  AdminOptions,
  OrganizationsOptions,
} from "../types.js"
import { sameOriginRedirect } from "./callback-url.js"
import { randomHex } from "./crypto.js"
import { envDefaults, type EnvObject } from "./env-defaults.js"
import { createLogger, type WarningCode } from "./logger.js"
import { isOriginChecked } from "./origin-checked.js"
import { raw as rawMarker, skipCSRFCheck as skipCSRFCheckMarker } from "../markers.js"
import { withoutUndefined } from "./defined-fields.js"
import { withSessionCache } from "./sessions/session-cache.js"

/** The configuration with every default applied. Frozen; never the application's own object. */
export interface ResolvedConfig {
  readonly providers: readonly ProviderConfig[]
  readonly adapter: Adapter | undefined
  /** The store every instance shares, if configured (see ./shared-store.ts). */
  readonly sharedStore: SharedStore | undefined
  /** Starts with `/`, no trailing slash (except the root itself). */
  readonly basePath: string
  /** Newest first; the first encrypts. Empty when no secret is configured. */
  readonly secret: readonly string[]
  readonly session: Readonly<SessionOptions>
  readonly jwt: Readonly<JWTOptions>
  readonly callbacks: Readonly<CallbacksOptions>
  /** Neither a `jwt` nor a `session` callback was configured: the defaults change no claim of a token. */
  readonly defaultTokenCallbacks: boolean
  readonly events: Readonly<Partial<EventCallbacks>>
  /** The cookies for secure (https) and plain http requests, overrides applied. */
  readonly cookies: { readonly secure: Readonly<CookiesOptions>; readonly insecure: Readonly<CookiesOptions> }
  readonly pages: Readonly<Partial<PagesOptions>>
  readonly debug: boolean
  readonly logger: LoggerInstance
  readonly theme: Readonly<Required<Theme>>
  readonly trustHost: boolean
  /** The header the client's address is read from (see `AuthConfig.trustedIpHeader`), or `undefined`. */
  readonly trustedIpHeader: string | undefined
  /** `undefined` means: secure exactly when the request URL is https. */
  readonly useSecureCookies: boolean | undefined
  readonly redirectProxyUrl: string | undefined
  readonly experimental: { readonly enableWebAuthn: boolean }
  readonly account: Readonly<AccountOptions>
  readonly backchannelLogout: boolean
  /** Two-factor sign-in with its defaults filled in; `undefined` when not configured (nothing of it runs). */
  readonly twoFactor: ResolvedTwoFactor | undefined
  /** Organizations as configured (checked by assertConfig); `undefined` when off. */
  readonly organizations: Readonly<OrganizationsOptions> | undefined
  /** The admin API as configured (checked by assertConfig); `undefined` when off. */
  readonly admin: Readonly<AdminOptions> | undefined
  /** Whether the caller asked for the internal response object. */
  readonly raw: boolean
  readonly skipCSRFCheck: boolean
  /** The integration kernel skips the CSRF check because the framework checks the origin: no warning. */
  readonly originChecked: boolean
  /** Warnings raised while applying the environment. */
  readonly envWarnings: readonly WarningCode[]
}

/**
 * `twoFactor` with every default filled in. Values are kept as the application wrote them where
 * they are wrong (a `freshAge` of `"600"`), for `assertConfig` to name; only the shape is settled.
 */
export interface ResolvedTwoFactor {
  /** Authenticator apps; `undefined` when off. */
  readonly totp: Readonly<{ issuer: string; qrCode?: (uri: string) => string | Promise<string> }> | undefined
  /** The email code as a second factor; `undefined` when off. */
  readonly email: Readonly<{ digits: number }> | undefined
  readonly require: TwoFactorRequire
  readonly recoveryCodes: number
  readonly freshAge: number
  /** "Don't ask again on this browser"; `undefined` when off. */
  readonly trustDevice: Readonly<{ maxAge: number }> | undefined
  readonly passkey: "two-factor" | "one-factor"
  /** `undefined`: the default notice email; `false`: none. */
  readonly notify: TwoFactorOptions["notify"]
}

/** Recovery codes made at enrolment unless configured. */
export const DEFAULT_RECOVERY_CODES = 10
/** Seconds a second-factor check counts as recent unless configured. */
export const DEFAULT_FRESH_AGE = 600

/** Session lifetime: 30 days, in seconds. */
export const DEFAULT_SESSION_MAX_AGE = DEFAULT_MAX_AGE
/** Database session write throttle: 1 day, in seconds. */
export const DEFAULT_UPDATE_AGE = 24 * 60 * 60
/** How stale a JWT session's revocation check may get: one minute, in seconds. */
export const DEFAULT_REVOCATION_CHECK_AGE = 60

// Stands for "no environment given": `Auth()` sees only what an integration applied with
// `setEnvDefaults`, so an unset `trustHost` must not be inferred as "not production, trust it".
const NO_ENV: EnvObject = Object.freeze({})
const cache = new WeakMap<object, WeakMap<object, ResolvedConfig>>()

/**
 * The resolved configuration for `config` under `env`; computed once per pair of objects and then
 * served from a cache, so pass the same objects on every request. The application's objects are
 * never modified. Without `env`, nothing is inferred from an environment: `trustHost` defaults to
 * false and the secret must be in the config.
 *
 * @throws {InvalidConfig} when `config` is not an object, its providers cannot be read, a
 *   boolean option holds something else, or `basePath` is not a path.
 * @example
 * ```ts
 * const resolved = resolveConfig(config, env)
 * resolved.session.maxAge // 2592000 unless configured
 * ```
 */
export function resolveConfig(config: AuthConfig, env: EnvObject = NO_ENV): ResolvedConfig {
  if (!config || typeof config !== "object") throw new InvalidConfig("The auth configuration must be an object")
  const envKey = env && typeof env === "object" ? env : NO_ENV
  let byEnv = cache.get(config)
  const cached = byEnv?.get(envKey)
  if (cached) return cached
  const resolved = build(config, envKey)
  if (!byEnv) cache.set(config, (byEnv = new WeakMap()))
  byEnv.set(envKey, resolved)
  return resolved
}

function build(config: AuthConfig, env: EnvObject): ResolvedConfig {
  if (config.providers !== undefined && !Array.isArray(config.providers)) {
    throw new InvalidConfig("`providers` must be an array")
  }
  for (const option of ["trustHost", "useSecureCookies", "debug"] as const) {
    // A string such as "false" from an env file would otherwise count as true.
    if (config[option] !== undefined && typeof config[option] !== "boolean") {
      throw new InvalidConfig(`\`${option}\` must be true or false; received ${JSON.stringify(config[option])}`)
    }
  }
  const fromEnv = envDefaults(env, config)
  if (env === NO_ENV) fromEnv.trustHost = config.trustHost ?? false
  const adapter = config.adapter
  const sessionMaxAge = config.session?.maxAge ?? DEFAULT_SESSION_MAX_AGE
  const strategy = config.session?.strategy ?? (adapter ? "database" : "jwt")

  const session: SessionOptions = Object.freeze({
    strategy,
    maxAge: sessionMaxAge,
    updateAge: config.session?.updateAge ?? DEFAULT_UPDATE_AGE,
    generateSessionToken: config.session?.generateSessionToken ?? (() => randomHex(32)),
    absoluteMaxAge: config.session?.absoluteMaxAge,
    hashTokens: config.session?.hashTokens ?? true,
    revocationCheckAge: config.session?.revocationCheckAge ?? DEFAULT_REVOCATION_CHECK_AGE,
    cacheMaxAge: config.session?.cacheMaxAge ?? 0,
  })
  const jwt: JWTOptions = Object.freeze({
    maxAge: config.jwt?.maxAge ?? sessionMaxAge,
    encode: config.jwt?.encode ?? encode,
    decode: config.jwt?.decode ?? decode,
  })
  const callbacks: CallbacksOptions = Object.freeze({
    signIn: config.callbacks?.signIn ?? (() => true),
    redirect: config.callbacks?.redirect ?? sameOriginRedirect,
    jwt: config.callbacks?.jwt ?? keepToken,
    session: config.callbacks?.session ?? defaultSessionCallback,
  })

  const logger = Object.freeze(createLogger(config))
  const sharedStore = config.sharedStore
  const basePath = normalizeBasePath(fromEnv.basePath)
  return Object.freeze({
    providers: Object.freeze(fromEnv.providers.map((provider) => Object.freeze(provider))),
    adapter: withSessionCache(adapter, session, { sharedStore, logger }),
    sharedStore,
    basePath,
    secret: Object.freeze(fromEnv.secret),
    session,
    jwt,
    callbacks,
    defaultTokenCallbacks: config.callbacks?.jwt === undefined && config.callbacks?.session === undefined,
    events: Object.freeze({ ...config.events }),
    cookies: Object.freeze({
      secure: freezeCookies(mergeCookies(defaultCookies(true, basePath), config.cookies)),
      insecure: freezeCookies(mergeCookies(defaultCookies(false, basePath), config.cookies)),
    }),
    pages: Object.freeze({ ...config.pages }),
    debug: config.debug === true,
    logger,
    theme: Object.freeze({ colorScheme: "auto", logo: "", brandColor: "", buttonText: "", ...withoutUndefined(config.theme) }),
    trustHost: fromEnv.trustHost,
    // Checked by assertConfig, which names a value that is no header name.
    trustedIpHeader: config.trustedIpHeader,
    useSecureCookies: config.useSecureCookies,
    redirectProxyUrl: fromEnv.redirectProxyUrl,
    experimental: Object.freeze({ enableWebAuthn: config.experimental?.enableWebAuthn === true }),
    account: Object.freeze({
      routes: config.account?.routes === true,
      ...(typeof config.account?.canUseCredentials === "function" && { canUseCredentials: config.account.canUseCredentials }),
    }),
    backchannelLogout: config.backchannelLogout === true,
    twoFactor: resolveTwoFactor(config.twoFactor),
    organizations: config.organizations,
    admin: config.admin,
    raw: config.raw === rawMarker,
    skipCSRFCheck: config.skipCSRFCheck === skipCSRFCheckMarker,
    originChecked: isOriginChecked(config),
    envWarnings: Object.freeze(fromEnv.warnings),
  })
}

/**
 * `twoFactor` with defaults: off when absent. Anything but an object cannot be read at all, so it
 * is refused here, as an unreadable `providers` is; wrong values inside are `assertConfig`'s.
 */
function resolveTwoFactor(options: TwoFactorOptions | undefined): ResolvedTwoFactor | undefined {
  if (options === undefined) return undefined
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new InvalidConfig(`\`twoFactor\` must be an object; received ${options === null ? "null" : typeof options}`)
  }
  const { totp, email, trustDevice } = options
  for (const [name, value, allowTrue] of [["totp", totp, false], ["email", email, true], ["trustDevice", trustDevice, false]] as const) {
    const readable = value === undefined || value === false || (allowTrue && value === true) || (typeof value === "object" && value !== null && !Array.isArray(value))
    if (!readable) {
      throw new InvalidConfig(`\`twoFactor.${name}\` must be an object${allowTrue ? ", true" : ""} or false; received ${value === null ? "null" : value === true ? "true" : typeof value}`)
    }
  }
  return Object.freeze({
    totp: totp ? Object.freeze({ ...totp }) : undefined,
    email: email ? Object.freeze({ digits: email === true ? 6 : email.digits ?? 6 }) : undefined,
    require: options.require ?? "enrolled",
    recoveryCodes: options.recoveryCodes ?? DEFAULT_RECOVERY_CODES,
    freshAge: options.freshAge ?? DEFAULT_FRESH_AGE,
    trustDevice: trustDevice ? Object.freeze({ ...trustDevice }) : undefined,
    passkey: options.passkey ?? "two-factor",
    notify: options.notify,
  })
}

/** Trailing slashes dropped so `/auth/` and `/auth` mount the same routes. */
function normalizeBasePath(basePath: unknown): string {
  // Without a usable base path no request can even be routed, so this cannot wait for assertConfig.
  if (typeof basePath !== "string" || !basePath.startsWith("/") || /[?#\s]/.test(basePath)) {
    throw new InvalidConfig(`\`basePath\` must be a path starting with "/"; received ${JSON.stringify(basePath)}`)
  }
  const trimmed = basePath.replace(/\/+$/, "")
  return trimmed === "" && basePath.startsWith("/") ? "/" : trimmed
}

function freezeCookies(cookies: CookiesOptions): Readonly<CookiesOptions> {
  for (const cookie of Object.values(cookies)) Object.freeze(Object.freeze(cookie).options)
  return Object.freeze(cookies)
}

const keepToken: CallbacksOptions["jwt"] = ({ token }) => token

/**
 * The session sent to the client by default: name, email and image, the expiry as an ISO
 * string, and a failed access-token refresh; nothing else of the token or the user row.
 */
const defaultSessionCallback: CallbacksOptions["session"] = ({ session }) => ({
  user: {
    name: session.user?.name,
    email: session.user?.email,
    image: session.user?.image,
  },
  // Database sessions carry a Date; the client gets an ISO string either way.
  expires: (session.expires as unknown) instanceof Date ? (session.expires as unknown as Date).toISOString() : session.expires,
  ...(session.error && { error: session.error }),
})

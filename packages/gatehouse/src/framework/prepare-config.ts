/**
 * A framework integration's configuration, prepared once: the environment applied to a copy (the
 * application's object is never changed), the framework's default base path, and `AUTH_URL`'s
 * origin read and checked once rather than on every request.
 * @module
 */
import { InvalidConfig } from "../errors.js"
import { createLogger, reportConfigWarnings } from "../core/logger.js"
import { envDefaults, envUrl, type EnvObject } from "../env.js"
import type { AuthConfig } from "../types.js"
import { CLIENT_ADDRESS_HEADER } from "./client-address.js"

/** Options of {@link prepareConfig}. */
export interface PrepareConfigOptions {
  /**
   * The base path when neither the config's `basePath` nor `AUTH_URL`'s path gives one: the
   * framework's convention (`/api/auth` for Next.js and SolidStart, `/auth` elsewhere). Default `/auth`.
   */
  basePath?: string
  /**
   * The integration writes the framework's view of the client's address into every request it
   * hands the core (`setClientAddress`), so the prepared config reads the per-IP sign-in limits'
   * address from there (`trustedIpHeader: "x-gatehouse-client-address"`) rather than from
   * `X-Forwarded-For`. An
   * app's own `trustedIpHeader` wins. Default `false`.
   */
  clientAddress?: boolean
}

/** A config whose base path is settled. */
export interface SettledBasePath {
  /** Where the auth routes are mounted: the config's, `AUTH_URL`'s path, or the framework's default. */
  basePath: string
}

/** A configuration ready for `Auth`, `getSession` and the server-side actions. */
export interface PreparedConfig<Config extends AuthConfig = AuthConfig> {
  /** A copy of the application's config with the environment applied and `basePath` settled. */
  readonly config: Config & SettledBasePath
  /** The environment it was prepared from. */
  readonly env: EnvObject
  /**
   * `AUTH_URL`'s origin when it is set: the origin the app answers on, whatever the request's
   * Host header says. `undefined` otherwise (the framework's own view of the request decides).
   */
  readonly origin: string | undefined
}

// Per config object, then per default base path and client-address option.
const prepared = new WeakMap<object, Map<string, PreparedConfig>>()

/**
 * `config` with the environment applied (`AUTH_SECRET`, `AUTH_URL`, `AUTH_TRUST_HOST`,
 * `AUTH_<PROVIDER>_ID`/`_SECRET`, `LEGACYAUTH_*`), once per config object and options:
 * later calls with the same object return the same prepared config (so the core's caches keep
 * working), and the environment is read only the first time. Warnings are logged once.
 *
 * @param config - The application's configuration; never changed.
 * @param env - The environment's variables: Node's environment on Node, a platform's bindings elsewhere.
 * @throws {InvalidConfig} when `AUTH_URL` is set but is not an http(s) URL without credentials,
 *   query or fragment: a configuration error for the application, not a bad request per client.
 * @example
 * ```ts
 * import { prepareConfig } from "gatehouse-auth/framework"
 *
 * const { config: ready, origin } = prepareConfig(config, env, { basePath: "/api/auth" })
 * ```
 */
export function prepareConfig<Config extends AuthConfig>(config: Config, env: EnvObject = {}, options: PrepareConfigOptions = {}): PreparedConfig<Config> {
  if (config === null || typeof config !== "object") throw new InvalidConfig("The auth configuration must be an object")
  const defaultBasePath = options.basePath ?? "/auth"
  const clientAddress = options.clientAddress === true
  const key = `${defaultBasePath}\u0000${clientAddress}`
  let byOptions = prepared.get(config)
  if (!byOptions) prepared.set(config, (byOptions = new Map()))
  let ready = byOptions.get(key) as PreparedConfig<Config> | undefined
  if (!ready) {
    const origin = authUrlOrigin(env)
    const defaults = envDefaults(env, config, defaultBasePath)
    reportConfigWarnings(createLogger(config), defaults, defaults.warnings)
    const copy = {
      ...config,
      basePath: defaults.basePath,
      secret: defaults.secret,
      trustHost: defaults.trustHost,
      providers: defaults.providers,
      ...(defaults.redirectProxyUrl !== undefined && { redirectProxyUrl: defaults.redirectProxyUrl }),
      ...(clientAddress && config.trustedIpHeader === undefined && { trustedIpHeader: CLIENT_ADDRESS_HEADER }),
    } as Config & SettledBasePath
    ready = Object.freeze({ config: copy, env, origin })
    byOptions.set(key, ready)
  }
  return ready
}

/** `AUTH_URL`'s (or `LEGACYAUTH_URL`'s, or `NEXTAUTH_URL`'s) origin, or `undefined` when unset. @throws {InvalidConfig} when unusable. */
function authUrlOrigin(env: EnvObject): string | undefined {
  const configured = envUrl(env)
  if (configured === undefined) return undefined
  let url: URL
  try {
    url = new URL(configured)
  } catch (error) {
    throw new InvalidConfig("AUTH_URL is set but is not a usable http(s) URL", { cause: error })
  }
  if (!/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash) {
    throw new InvalidConfig("AUTH_URL is set but is not a usable http(s) URL (no credentials, query or fragment)")
  }
  return url.origin
}

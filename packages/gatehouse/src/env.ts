/**
 * The environment, for integrations and applications: `setEnvDefaults` fills what the environment
 * supplies into a configuration (Auth.js's API), and `createActionURL` builds an auth route's URL
 * from `AUTH_URL` or the request. The rules themselves are pure functions in the core
 * (`core/env-defaults.ts`), which `resolveConfig` applies too; they are re-exported here so that
 * the environment has one module to import from.
 *
 * The environment is always passed in as a plain object; the core never reads Node's globals.
 * @module
 */
import { AuthError, InvalidConfig } from "./errors.js"
import type { AuthAction } from "./core/auth-action.js"
import { envDefaults, envUrl, type EnvObject } from "./core/env-defaults.js"
import { createLogger, logWarning, reportConfigWarnings } from "./core/logger.js"
import { toHeaders } from "./request-headers.js"
import type { AuthConfig } from "./types.js"

export {
  DEFAULT_BASE_PATH,
  envDefaults,
  envSecrets,
  envTrustHost,
  envUrl,
  providerEnv,
  providerEnvName,
  providerWithEnv,
  type EnvDefaults,
  type EnvObject,
} from "./core/env-defaults.js"

/**
 * Fills environment defaults into `config`: `basePath`, `secret`, `trustHost`,
 * `redirectProxyUrl`, and each provider's `clientId`, `clientSecret`, `issuer` or `apiKey`.
 * Explicit options win. This mutates `config` (kept for Auth.js compatibility); `Auth()` never
 * needs it, as it applies the same rules without touching the config.
 *
 * @param envObject - The environment: Node's environment object, or a platform's `env` binding.
 * @param config - The configuration to fill in.
 * @example
 * ```ts
 * const config: AuthConfig = { providers: [GitHub] }
 * setEnvDefaults(env, config)
 * config.secret // ["<AUTH_SECRET>"]
 * ```
 */
export function setEnvDefaults(envObject: EnvObject, config: AuthConfig): void {
  if (!config || typeof config !== "object") throw new InvalidConfig("setEnvDefaults needs the config object to fill in")
  const defaults = envDefaults(envObject ?? {}, config)
  reportConfigWarnings(createLogger(config), defaults, defaults.warnings)
  config.basePath = defaults.basePath
  config.secret = defaults.secret
  config.trustHost = defaults.trustHost
  if (defaults.redirectProxyUrl !== undefined) config.redirectProxyUrl = defaults.redirectProxyUrl
  config.providers = defaults.providers
}

/**
 * The absolute URL of an auth action, from `AUTH_URL` when set, else from the request's
 * (forwarded) host and protocol.
 *
 * @param action - The auth action, e.g. `"session"`.
 * @param protocol - The request's protocol (`"https"` or `"https:"`), used without `X-Forwarded-Proto`.
 * @param headers - The request headers (`Host`, `X-Forwarded-Host`, `X-Forwarded-Proto`).
 * @param envObject - The environment: Node's environment object, or a platform's `env` binding.
 * @param basePath - Where the auth routes are mounted.
 * @example
 * ```ts
 * createActionURL("session", "https", new Headers({ host: "app.test" }), {}, "/auth")
 * // URL { href: "https://app.test/auth/session" }
 * ```
 */
export function createActionURL(
  action: AuthAction,
  protocol: string | undefined,
  headers: Headers,
  envObject: EnvObject,
  basePath?: string,
): URL {
  const configured = envUrl(envObject ?? {})
  let base: string
  if (configured) {
    const url = parseBaseUrl(configured, "AUTH_URL")
    if (!isHttp(url.protocol) || url.search || url.hash || url.username || url.password) {
      throw new AuthError("Cannot build an auth URL: AUTH_URL must be an http(s) URL without credentials, query or fragment")
    }
    let path = url.pathname.replace(/\/+$/, "")
    if (basePath && basePath !== "/" && path !== "") {
      if (path !== basePath.replace(/\/+$/, "")) logWarning(createLogger({}), "env-url-basepath-mismatch")
      path = ""
    }
    base = url.origin + path
  } else {
    const requestHeaders = toHeaders(headers)
    const host = firstValue(requestHeaders.get("x-forwarded-host") ?? requestHeaders.get("host"))
    if (!host) throw new AuthError("Cannot build an auth URL: the request has no Host header and AUTH_URL is unset")
    // A host that smuggles in a path, credentials, a query or a fragment is not a host.
    if (/[/\\?#@\s]/.test(host)) throw new AuthError("Cannot build an auth URL: the Host header is not a valid host")
    const proto = firstValue(requestHeaders.get("x-forwarded-proto") ?? protocol ?? "https").replace(/:$/, "")
    if (!isHttp(`${proto}:`)) throw new AuthError(`Cannot build an auth URL: unsupported protocol "${proto}"`)
    base = parseBaseUrl(`${proto}://${host}`, "the Host header").origin
  }
  const path = (basePath ?? "").replace(/^\/+|\/+$/g, "")
  return new URL(path ? `${base}/${path}/${action}` : `${base}/${action}`)
}

function isHttp(protocol: string): boolean {
  return protocol === "http:" || protocol === "https:"
}

/** The first entry of a header a proxy chain may have turned into a comma-separated list. */
function firstValue(header: string | null): string {
  return (header ?? "").split(",")[0]!.trim()
}

function parseBaseUrl(value: string, source: string): URL {
  try {
    return new URL(value)
  } catch {
    throw new AuthError(`Cannot build an auth URL: ${source} is not a valid URL`)
  }
}

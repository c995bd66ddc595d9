/**
 * What the environment supplies when the configuration does not: the secret (`AUTH_SECRET`,
 * rotation through `AUTH_SECRET_1..3`), the base path (from `AUTH_URL`'s path), whether to trust
 * the Host header, the redirect proxy, and provider credentials (`AUTH_<PROVIDER>_ID`, …). Pure
 * functions of an environment object: the core never reads Node's globals. `resolveConfig`
 * applies them to a copy; `setEnvDefaults` (in env.ts) to the config itself.
 * @module
 */
import { InvalidConfig } from "../errors.js"
import { customFetch } from "../markers.js"
import type { Provider, ProviderConfig, ProviderEnvOptions } from "../providers/types.js"
import type { AuthConfig } from "../types.js"
import { isPlainObject, mergeOptions } from "../options-merge.js"
import type { WarningCode } from "./logger.js"

/** Environment variables as a plain object: Node's environment, or a platform's `env` binding. */
export type EnvObject = Readonly<Record<string, unknown>>

/** The values the environment contributes to a configuration, and the warnings it raised. */
export interface EnvDefaults {
  basePath: string
  secret: string[]
  trustHost: boolean
  redirectProxyUrl: string | undefined
  providers: ProviderConfig[]
  warnings: WarningCode[]
}

/** Where auth routes are mounted when neither the config nor `AUTH_URL` says. */
export const DEFAULT_BASE_PATH = "/auth"

/** A variable's value when it is a non-empty string; an empty variable counts as unset. */
function read(env: EnvObject, name: string): string | undefined {
  const value = env[name]
  return typeof value === "string" && value !== "" ? value : undefined
}

/** The names of the public URL, the first one set wins: `AUTH_URL`, then its older names. */
export const URL_VARIABLES = ["AUTH_URL", "LEGACYAUTH_URL", "NEXTAUTH_URL"] as const

/** The names of the base secret, the first one set wins: `AUTH_SECRET`, then its older names. */
export const SECRET_VARIABLES = ["AUTH_SECRET", "LEGACYAUTH_SECRET", "NEXTAUTH_SECRET"] as const

/** The rotation secrets, newest first; each one set comes before the base secret. */
export const ROTATION_SECRET_VARIABLES = ["AUTH_SECRET_3", "AUTH_SECRET_2", "AUTH_SECRET_1"] as const

/**
 * `AUTH_URL`, or an older name of it: `LEGACYAUTH_URL`, or next-auth's `NEXTAUTH_URL`, which
 * next-auth v5 and `@auth/core` still read, so a switched app's `.env` keeps working.
 */
export function envUrl(env: EnvObject): string | undefined {
  return firstSet(env, URL_VARIABLES)
}

/** The value of the first of `names` that is set. */
function firstSet(env: EnvObject, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = read(env, name)
    if (value !== undefined) return value
  }
  return undefined
}

/**
 * The secrets the environment holds, newest first: `AUTH_SECRET_3`, `_2`, `_1`, then
 * `AUTH_SECRET` (or `LEGACYAUTH_SECRET`, or next-auth's `NEXTAUTH_SECRET`, which next-auth v5
 * still reads). The first one encrypts, as in Auth.js.
 */
export function envSecrets(env: EnvObject): string[] {
  const secrets: string[] = []
  for (const name of ROTATION_SECRET_VARIABLES) {
    const value = read(env, name)
    if (value) secrets.push(value)
  }
  const base = firstSet(env, SECRET_VARIABLES)
  if (base) secrets.push(base)
  return secrets
}

/**
 * Whether to trust the Host header. `AUTH_TRUST_HOST` decides when it is set, and only `true` or
 * `1` mean yes (Auth.js takes any value, even `false`, as yes). Otherwise trusted when `AUTH_URL`
 * fixes the URL, on platforms that set the Host header themselves (Vercel, Cloudflare Pages), or
 * outside production.
 */
export function envTrustHost(env: EnvObject): boolean {
  const explicit = read(env, "AUTH_TRUST_HOST")
  if (explicit !== undefined) return ["true", "1"].includes(explicit.trim().toLowerCase())
  return (
    envUrl(env) !== undefined ||
    isSet(read(env, "VERCEL")) ||
    isSet(read(env, "CF_PAGES")) ||
    read(env, "NODE_ENV") !== "production"
  )
}

function isSet(value: string | undefined): boolean {
  return value !== undefined && value !== "0" && value !== "false"
}

/** A provider id as its environment variables spell it: `microsoft-entra-id` → `MICROSOFT_ENTRA_ID`. */
export function providerEnvName(id: string): string {
  return id.toUpperCase().replace(/[^A-Z0-9]/g, "_")
}

/** The `AUTH_<ID>_ID`, `_SECRET`, `_ISSUER` and `_KEY` values for one provider id. */
export function providerEnv(env: EnvObject, id: string): ProviderEnvOptions {
  const prefix = `AUTH_${providerEnvName(id)}`
  return {
    clientId: read(env, `${prefix}_ID`),
    clientSecret: read(env, `${prefix}_SECRET`),
    issuer: read(env, `${prefix}_ISSUER`),
    apiKey: read(env, `${prefix}_KEY`),
  }
}

/**
 * A provider with what the environment supplies filled in where the provider leaves it unset.
 * Returns a new object; factories are called with the environment's values.
 */
export function providerWithEnv(provider: Provider, env: EnvObject): ProviderConfig {
  const probe = typeof provider === "function" ? withOwnOptions(callFactory(provider, {})) : withOwnOptions(provider)
  const id: unknown = probe && typeof probe === "object" ? probe.id : undefined
  if (typeof id !== "string" || id === "") throw new InvalidConfig("Every provider needs a non-empty string `id`")
  const fromEnv = providerEnv(env, id)
  const base = typeof provider === "function" ? withOwnOptions(callFactory(provider, fromEnv)) : probe
  if (!base || typeof base !== "object") throw new InvalidConfig(`Provider "${id}" is not an object`)
  switch (base.type) {
    case "oauth":
    case "oidc":
      return {
        ...base,
        // Auth.js's `[customFetch]` is Gatehouse's `fetch`.
        ...(base.fetch === undefined && typeof base[customFetch] === "function" && { fetch: base[customFetch] }),
        clientId: base.clientId ?? fromEnv.clientId,
        clientSecret: base.clientSecret ?? fromEnv.clientSecret,
        issuer: base.issuer ?? fromEnv.issuer,
      }
    case "email":
      return { ...base, apiKey: base.apiKey ?? fromEnv.apiKey }
    default:
      return { ...base }
  }
}

/**
 * A provider written the Auth.js way, `{ id, type, …defaults, options }` (the user's options
 * handed back under `options`), with those options laid over its defaults, as Auth.js does;
 * without it, such a provider would lose its `clientId` and everything else it was given.
 */
function withOwnOptions(provider: ProviderConfig): ProviderConfig {
  if (!provider || typeof provider !== "object" || !("options" in provider)) return provider
  const { options, ...defaults } = provider as ProviderConfig & { options?: unknown }
  return (isPlainObject(options) ? mergeOptions(defaults, options) : defaults) as ProviderConfig
}

function callFactory(factory: (options: ProviderEnvOptions) => ProviderConfig, options: ProviderEnvOptions): ProviderConfig {
  let built: unknown
  try {
    built = factory(options)
  } catch (error) {
    throw new InvalidConfig("A provider factory threw while building its configuration", { cause: error })
  }
  if (built !== null && typeof built === "object" && typeof (built as { then?: unknown }).then === "function") {
    // Providers are built synchronously; an async factory's promise is refused, and its failure
    // must not surface later as an unhandled rejection.
    ;(built as PromiseLike<unknown>).then(undefined, () => {})
    throw new InvalidConfig("A provider factory returned a promise; providers must be built synchronously")
  }
  return built as ProviderConfig
}

/**
 * The values the environment contributes to `config`, computed without touching `config`.
 * Explicit options always win.
 *
 * @param defaultBasePath - The base path when neither `config.basePath` nor `AUTH_URL`'s path
 *   gives one: `/auth`, or the framework's own (`/api/auth` for Next.js).
 */
export function envDefaults(env: EnvObject, config: AuthConfig, defaultBasePath: string = DEFAULT_BASE_PATH): EnvDefaults {
  const warnings: WarningCode[] = []
  const url = envUrl(env)
  const urlPath = url === undefined ? undefined : pathOf(url)
  let basePath = config.basePath
  if (basePath !== undefined && urlPath !== undefined) warnings.push("env-url-basepath-redundant")
  // Documented host-header risk: in production the Host header then names every URL we build.
  const trustHostFromEnv = config.trustHost === undefined && read(env, "AUTH_TRUST_HOST") !== undefined && envTrustHost(env)
  if (trustHostFromEnv && url === undefined && read(env, "NODE_ENV") === "production") warnings.push("trust-host-without-url")
  // A root AUTH_URL names only the origin; it does not move the routes to `/`.
  basePath ??= urlPath ?? defaultBasePath

  // `[env.NEW, env.OLD]` with one of them unset leaves a gap; skip it.
  // Non-string entries pass through here and are reported by assertConfig as InvalidConfig.
  const configured = [config.secret].flat().filter((secret): secret is string => secret != null && secret !== "")
  const secret = configured.length > 0 ? configured : envSecrets(env)

  const providers = Array.isArray(config.providers) ? config.providers : []
  return {
    basePath,
    secret,
    trustHost: config.trustHost ?? envTrustHost(env),
    redirectProxyUrl: config.redirectProxyUrl ?? read(env, "AUTH_REDIRECT_PROXY_URL"),
    providers: providers.map((provider) => providerWithEnv(provider, env)),
    warnings,
  }
}

/** The path of an absolute URL when it is more than `/`; `undefined` for a root or bad URL. */
function pathOf(url: string): string | undefined {
  try {
    const { pathname } = new URL(url)
    return pathname === "/" ? undefined : pathname
  } catch {
    return undefined
  }
}

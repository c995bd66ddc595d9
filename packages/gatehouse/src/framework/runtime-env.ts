/**
 * The environment variables of the runtime an integration finds itself on.
 * @module
 */

/**
 * The runtime's environment variables as Node, Bun and Deno's Node compatibility expose them on
 * the global `process`, or `{}` where there is none (Workers without Node compatibility, some
 * edge presets): an app there passes everything in the config. Read when asked, so an
 * integration that calls it at its first request sees what the started server was given, not
 * what the build had.
 *
 * @example
 * ```ts
 * const { config: ready } = prepareConfig(config, runtimeEnv(), { basePath: "/api/auth" })
 * ```
 */
export function runtimeEnv(): Record<string, string | undefined> {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {}
}

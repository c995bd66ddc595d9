/**
 * What a framework's server-side `signIn` needs to know about a provider before it runs one.
 * @module
 */
import { resolveConfig } from "../core/config.js"
import type { ProviderType } from "../providers/types.js"
import type { AuthConfig } from "../types.js"

/**
 * The type of the provider `providerId` names under `config` (env applied: provider factories
 * called), or `undefined` when there is none. A credentials or passkey sign-in posts to its
 * `callback` route; the others start at `signin`.
 *
 * @example
 * ```ts
 * const action = providerType(ready, "credentials") === "credentials" ? "callback" : "signin"
 * ```
 */
export function providerType(config: AuthConfig, providerId: string): ProviderType | undefined {
  return resolveConfig(config).providers.find((provider) => provider.id === providerId)?.type
}

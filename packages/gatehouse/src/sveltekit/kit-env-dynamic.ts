/**
 * The environment KitAuth reads when no platform brings one, inside the app's SvelteKit build
 * (the `svelte` condition of the package's `#kit-env` import): `$env/dynamic/private`, as
 * @auth/sveltekit reads it, over the process's environment where there is one.
 *
 * Kit 2 fills `$env/dynamic/private` with everything: `.env` and the process's environment in
 * `vite dev` and `vite preview`, the adapter's (`process.env` under `node build`) in production.
 * Kit 3 fills it only with the variables the app declares in `src/env.ts` (it is an alias of
 * `$app/env/private` there), so an undeclared `AUTH_SECRET` set for `node build` is found in
 * `process.env` alone. Both modules imported here exist in Kit 2 and 3 (Kit 3 prints a
 * deprecation notice for each when the server starts); their Kit 3 names do not exist in Kit 2.
 * @module
 */
import { building } from "$app/environment"
import { env } from "$env/dynamic/private"
import type { EnvObject } from "../index.js"

let merged: EnvObject | undefined

/**
 * Kit's private environment over the process's. Read at the first call, not at import: Kit sets
 * it when its server starts, before any request, and neither changes afterwards.
 */
export function kitEnv(): EnvObject {
  if (merged) return merged
  const processEnv = typeof process === "undefined" ? undefined : process.env
  merged = processEnv === undefined ? env : { ...processEnv, ...definedOnly(env) }
  return merged
}

/** Kit 3 exports a declared but unset variable as `undefined`: the process's value stays. */
function definedOnly(variables: Record<string, string | undefined>): EnvObject {
  return Object.fromEntries(Object.entries(variables).filter(([, value]) => value !== undefined))
}

/**
 * Whether Kit is prerendering (`vite build`): then no request is anybody's, and reading
 * `$env/dynamic/private` throws.
 */
export function kitBuilding(): boolean {
  return building
}

/**
 * The environment KitAuth reads when no platform brings one, outside a SvelteKit build: Node's
 * `process.env` (the integration's own tests, or an app whose server imports the package without
 * bundling it). In the app's Vite build, which resolves the `svelte` condition, the package's
 * `#kit-env` import is ./kit-env-dynamic.ts instead.
 * @module
 */
import type { EnvObject } from "../index.js"

/** `process.env` where there is one, else nothing. */
export function kitEnv(): EnvObject {
  return typeof process === "undefined" ? {} : process.env
}

/** Whether Kit is prerendering: only a Kit build can tell (see ./kit-env-dynamic.ts). */
export function kitBuilding(): boolean {
  return false
}

/**
 * The environment KitAuth reads when no platform brings one, inside the app's SvelteKit build
 * (the `svelte` condition of the package's `#kit-env` import): `$env/dynamic/private`, as
 * @auth/sveltekit reads it. Kit fills it from `.env` and the process's environment in `vite dev`
 * and `vite preview`, and from the adapter's (`process.env` under `node build`) in production;
 * `process.env` alone holds no `.env` under Vite.
 * @module
 */
import { building } from "$app/environment"
import { env } from "$env/dynamic/private"
import type { EnvObject } from "../index.js"

/** Kit's private environment, read at the call: Kit sets it when its server starts. */
export function kitEnv(): EnvObject {
  return env
}

/**
 * Whether Kit is prerendering (`vite build`): then no request is anybody's, and reading
 * `$env/dynamic/private` throws.
 */
export function kitBuilding(): boolean {
  return building
}

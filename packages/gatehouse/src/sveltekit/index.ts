/**
 * Gatehouse for SvelteKit (2 and 3): the `handle` hook that serves the auth routes and puts
 * `auth()` on `event.locals`, and the `signIn` and `signOut` form actions. @auth/sveltekit's API,
 * so code coming from it changes its imports only. The `SignIn` and `SignOut` components are in
 * `gatehouse-auth/sveltekit/components`; in the browser, `gatehouse-auth/client`.
 *
 * @example src/lib/server/auth.ts, src/hooks.server.ts and src/routes/signin/+page.server.ts
 * ```ts
 * // src/lib/server/auth.ts
 * import { KitAuth } from "gatehouse-auth/sveltekit"
 * import GitHub from "gatehouse-auth/providers/github"
 * export const { handle, signIn, signOut } = KitAuth({ providers: [GitHub] })
 *
 * // src/hooks.server.ts
 * export { handle } from "$lib/server/auth"
 *
 * // src/routes/signin/+page.server.ts
 * import { signIn } from "$lib/server/auth"
 * export const actions = { default: signIn }
 * ```
 * @module gatehouse-auth/sveltekit
 */
import { error, redirect } from "@sveltejs/kit"
import { createKitAuth } from "./kit-auth.js"
import type { KitAuthConfig, KitAuthConfigFunction, KitAuthResult, KitRequestEvent } from "./types.js"

export type * from "./types.js"

// What every Auth.js integration package exports beside its own API: the resources (re-exported,
// not copied, so `declare module "<this module>" { interface Session { … } }` extends the one
// interface everything reads), the errors a server action may catch, and `customFetch`.
export { AuthError, CredentialsSignin, customFetch } from "../index.js"
export type { Account, DefaultSession, Profile, User } from "../index.js"

/** @auth/sveltekit's name for {@link KitAuthConfig}. */
export type SvelteKitAuthConfig = KitAuthConfig

/**
 * Gatehouse for a SvelteKit app: `handle` for `src/hooks.server.ts`, and the `signIn` and
 * `signOut` form actions. The configuration is read at the first request, not at import, so
 * `vite build` works without `AUTH_SECRET`. The environment (`AUTH_SECRET`, `AUTH_URL`,
 * `AUTH_TRUST_HOST`, `AUTH_<PROVIDER>_ID`, …) is read from the platform's `env` where the adapter
 * has one (Cloudflare), else from `$env/dynamic/private`, as @auth/sveltekit reads it: `.env` in
 * `vite dev` and `vite preview`, the process's environment under `node build` (outside a
 * SvelteKit build, `process.env`); `AUTH_TRUST_HOST` counts in production too.
 * The auth routes are under `/auth` (`basePath`, or `AUTH_URL`'s path, to move them).
 *
 * @param config - The configuration, or a function of the request event returning it (to read
 *   the platform's bindings); return the same object each time when you can, so it is prepared once.
 * @example
 * ```ts
 * import type { RequestEvent } from "@sveltejs/kit"
 *
 * export const { handle, signIn, signOut } = KitAuth(async (event: RequestEvent) => ({
 *   providers: [GitHub],
 *   secret: event.platform?.env.AUTH_SECRET,
 * }))
 * ```
 */
export function KitAuth<Event extends KitRequestEvent = KitRequestEvent>(config: KitAuthConfig | KitAuthConfigFunction<Event>): KitAuthResult<Event> {
  return createKitAuth(config, { redirect, error })
}

/** {@link KitAuth} under @auth/sveltekit's name. */
export const SvelteKitAuth = KitAuth

/**
 * The integration kernel: what every framework integration of Gatehouse is built from (Express,
 * Next.js, SvelteKit, SolidStart and TanStack Start are thin layers over it), public so an app on another
 * framework (Hono, Fastify, Remix) can write its own in an afternoon.
 *
 * - {@link prepareConfig}: the environment applied once, to a copy; the framework's base path.
 * - {@link runtimeEnv}: the runtime's environment variables, where it has any.
 * - {@link getSession}: the session of any request, in-process, and the cookies to send back.
 * - {@link runServerAction}: sign-in, sign-out and session updates as server-side calls.
 * - {@link signInFailurePage}: where a form action sends the browser when one of those failed.
 * - {@link setCookieHeaders}: cookies as `Set-Cookie` values for the framework's response.
 * - {@link privateCacheControl}: the `Cache-Control` of a response carrying those cookies.
 * - {@link isAuthRoute}: whether a request is for the auth routes (then hand it to `Auth`).
 * - {@link requestAtOrigin}: a request moved to `AUTH_URL`'s origin, for a framework behind a proxy.
 * - {@link setClientAddress}: the framework's view of the client's address, for the per-IP limits.
 * - {@link providerType}: a provider's type, to pick the route a server-side sign-in posts to.
 *
 * @example A Hono app
 * ```ts
 * import { Hono } from "hono"
 * import { Auth } from "gatehouse-auth"
 * import { getSession, isAuthRoute, prepareConfig } from "gatehouse-auth/framework"
 *
 * // env: the environment's variables, Node's or the platform's bindings
 * const { config: ready } = prepareConfig(config, env)
 * const app = new Hono()
 * app.use(async (c, next) => {
 *   if (isAuthRoute(c.req.url, ready.basePath)) return Auth(c.req.raw, ready)
 *   const { session, setCookies } = await getSession(c.req.raw, ready)
 *   c.set("session", session)
 *   await next()
 *   for (const line of setCookies) c.res.headers.append("set-cookie", line)
 * })
 * ```
 * @module gatehouse-auth/framework
 */
export { prepareConfig, type PrepareConfigOptions, type PreparedConfig, type SettledBasePath } from "./prepare-config.js"
export { getSession, setCookieHeaders, type SessionRequest, type SessionResult } from "./session.js"
export { runServerAction, type ServerActionInput, type ServerActionResult } from "./server-action.js"
export { signInFailurePage, type FailedActionRequest } from "./sign-in-failure.js"
export { isAuthRoute } from "./routes.js"
export { runtimeEnv } from "./runtime-env.js"
export { privateCacheControl } from "./cache-control.js"
export type { OptInRoutes } from "../core/auth-action.js"
export { requestAtOrigin } from "./request-origin.js"
export { CLIENT_ADDRESS_HEADER, setClientAddress } from "./client-address.js"
export { providerType } from "./providers.js"
export { appLogger } from "./app-logger.js"
export type { Cookie } from "../cookies/defaults.js"

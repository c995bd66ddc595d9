/**
 * Gatehouse for SolidStart (1.x on vinxi, 2.x on Vite and H3 v2, by one API): the auth routes as
 * the route file's `GET` and `POST`, and the session of any request, read in-process. Browser code
 * uses `gatehouse-auth/solid-start/client`.
 *
 * @example src/lib/auth.ts, the route file, and a server query
 * ```ts
 * // src/lib/auth.ts
 * import type { SignalAuthConfig } from "gatehouse-auth/solid-start"
 * import GitHub from "gatehouse-auth/providers/github"
 * export const authConfig: SignalAuthConfig = { providers: [GitHub] }
 *
 * // src/routes/api/auth/[...auth].ts: only this line (SolidStart 1 drops a route file's other exports)
 * export const { GET, POST } = SignalAuth(authConfig)
 *
 * // a server query
 * const getUser = query(async () => {
 *   "use server"
 *   return (await getSession(getRequestEvent()!, authConfig))?.user ?? null
 * }, "user")
 * ```
 * @module gatehouse-auth/solid-start
 */
import { appLogger, getSession as sessionOf, prepareConfig, requestAtOrigin, runtimeEnv, type PreparedConfig } from "../framework/index.js"
import { InvalidConfig } from "../errors.js"
import { Auth, type AuthConfig, type Session } from "../index.js"
import { sessionUrl } from "./request-origin.js"
import { eventParts } from "./request-event.js"
import { appendSetCookies } from "./response-cookies.js"
import type { H3RequestEvent, ResponseHeadersLike, SignalAuthConfig, SignalAuthHandler, SignalAuthHandlers, SolidRequestEvent } from "./types.js"

export type * from "./types.js"

// What every Auth.js integration package exports beside its own API: the resources (re-exported,
// not copied, so `declare module "<this module>" { interface Session { … } }` extends the one
// interface everything reads), the errors a server action may catch, and `customFetch`.
export { AuthError, CredentialsSignin, customFetch } from "../index.js"
export type { Account, DefaultSession, Profile, Session, User } from "../index.js"

/** @auth/solid-start's name for {@link SignalAuthConfig}. */
export type SolidAuthConfig = SignalAuthConfig
/** What {@link getSession} resolves to: the session, or `null` when signed out (@auth/solid-start's name). */
export type GetSessionResult = Promise<Session | null>

/** The default prefix of the auth routes, where `src/routes/api/auth/[...auth].ts` serves them. */
const PREFIX = "/api/auth"

/** The core's config of each application config: `prefix` as `basePath`, one object per config so the caches hold. */
const coreConfigs = new WeakMap<SignalAuthConfig, Omit<AuthConfig, "raw">>()

/**
 * `config` prepared once: `prefix` made the base path, the environment applied (`AUTH_SECRET`,
 * `AUTH_URL`, `AUTH_TRUST_HOST`, `AUTH_<PROVIDER>_ID`, …) from the runtime's `process.env`.
 * @throws {InvalidConfig} for a config that is not an object, a `prefix` that is not a path, or an unusable `AUTH_URL`.
 */
function prepared(config: SignalAuthConfig): PreparedConfig<Omit<AuthConfig, "raw">> {
  if (config === null || typeof config !== "object") throw new InvalidConfig("SignalAuth needs a configuration object")
  let core = coreConfigs.get(config)
  if (!core) {
    const { prefix, ...rest } = config
    if (prefix !== undefined && (typeof prefix !== "string" || !prefix.startsWith("/"))) {
      throw new InvalidConfig(`SignalAuth's prefix must be a path beginning with "/" (the route file's folder, like "/api/auth"), not ${JSON.stringify(prefix)}`)
    }
    // "/api/auth/" names the same folder as "/api/auth".
    core = prefix === undefined ? rest : { ...rest, basePath: prefix.replace(/(.)\/+$/, "$1") }
    coreConfigs.set(config, core)
  }
  return prepareConfig(core, runtimeEnv(), { basePath: PREFIX })
}

/**
 * Gatehouse for a SolidStart app: the route file's `GET` and `POST`. The configuration is read at
 * the first request, not at import, so the build (`vinxi build`, `vite build`) needs no `AUTH_SECRET`.
 *
 * Requests at or under the prefix all go to the core: an auth route is answered, any other path
 * there gets the core's 400. A request outside the prefix can only come from a route file placed
 * elsewhere than the prefix says: a warning naming the fix is logged (once per route module),
 * then a GET is answered `undefined`, which SolidStart 1 turns into its "Cannot find any route
 * matching" 404, and any other method a 404 `Response` (SolidStart turns an `undefined` there
 * into a 500).
 *
 * @param config - The configuration, from a module of its own (`src/lib/auth.ts`): SolidStart 1
 *   drops every export of a route file but its handlers. Pass the same object to {@link getSession}.
 * @example
 * ```ts
 * // src/routes/api/auth/[...auth].ts
 * import { SignalAuth } from "gatehouse-auth/solid-start"
 * import { authConfig } from "~/lib/auth"
 * export const { GET, POST } = SignalAuth(authConfig)
 * ```
 */
export function SignalAuth(config: SignalAuthConfig): SignalAuthHandlers {
  let warned = false
  const handler: SignalAuthHandler = async (event) => {
    const ready = prepared(config)
    const { request } = event
    const base = ready.config.basePath === "/" ? "" : ready.config.basePath
    const { pathname } = new URL(request.url)
    if (pathname !== ready.config.basePath && !pathname.startsWith(`${base}/`)) {
      if (!warned) {
        warned = true
        appLogger(config, request).warn("solid-start-outside-prefix", `A request outside the prefix ${ready.config.basePath} reached SignalAuth: set \`prefix\` to the folder of the route file.`)
      }
      return request.method === "GET" ? undefined : new Response("Not Found", { status: 404 })
    }
    return Auth(requestAtOrigin(ready, request), ready.config)
  }
  return { GET: handler, POST: handler }
}

/**
 * {@link SignalAuth} under its Auth.js name, so code coming from `@auth/solid-start` changes its
 * import only (and may drop the `basePath` it set to work around that package).
 *
 * @example
 * ```ts
 * // src/routes/api/auth/[...auth].ts
 * import { SolidAuth } from "gatehouse-auth/solid-start"
 * import { authConfig } from "~/lib/auth"
 * export const { GET, POST } = SolidAuth(authConfig)
 * ```
 */
export const SolidAuth = SignalAuth

/**
 * Session reads per request, by prefix: one read per request, however many places ask. Keyed by
 * the `Request`, which SolidStart shares between the copies of the event it gives each server
 * function, and (SolidStart 2) between its event and the H3 event under it; by prefix, not config
 * object, since vinxi bundles the app's config module once per router (the middleware, the pages,
 * the server functions), so one app holds several equal ones.
 */
const reads = new WeakMap<Request, Map<string, Promise<Session | null>>>()

/**
 * The session of a request, read in-process (no HTTP request to the app itself), or `null` when
 * signed out. Given a request event (`getRequestEvent()` in a server function, the middleware's
 * event, an API route's event; on SolidStart 2 also the H3 event its array-form middleware
 * receives), it is read once per request (the middleware and every query of a page share the
 * read), and the cookies the read refreshes (a JWT slid, a database session extended, a stale
 * cookie cleared) are added to the event's response; given a bare `Request`, they are not sent. A
 * page that has already streamed its first bytes cannot take them: the middleware or the next
 * server function does.
 *
 * It fails closed: a configuration that cannot serve requests (a missing secret) or a throwing
 * `session` callback reads as `null`, and is logged; so does an untrusted host (production
 * without `AUTH_URL` or `AUTH_TRUST_HOST`), logged once with that fix.
 *
 * @param source - The request event (SolidStart 1 or 2), SolidStart 2's H3 event, or a `Request`.
 * @param config - The same config object given to {@link SignalAuth}.
 * @throws {InvalidConfig} when `AUTH_URL` is set but unusable (a deployment error, raised on every
 *   call), or when `source` is none of the above.
 * @example
 * ```ts
 * const getUser = query(async () => {
 *   "use server"
 *   const session = await getSession(getRequestEvent()!, authConfig)
 *   if (!session?.user) throw redirect("/")
 *   return session.user
 * }, "user")
 * ```
 */
export async function getSession(source: Request | SolidRequestEvent | H3RequestEvent, config: SignalAuthConfig): Promise<Session | null> {
  const ready = prepared(config)
  const { request, responseHeaders } = eventParts(source)
  if (request === source) return readSession(request, undefined, ready)
  let byPrefix = reads.get(request)
  if (!byPrefix) reads.set(request, (byPrefix = new Map()))
  let read = byPrefix.get(ready.config.basePath)
  if (!read) byPrefix.set(ready.config.basePath, (read = readSession(request, responseHeaders, ready)))
  return read
}

async function readSession(request: Request, responseHeaders: ResponseHeadersLike | undefined, ready: PreparedConfig<Omit<AuthConfig, "raw">>): Promise<Session | null> {
  let read: Awaited<ReturnType<typeof sessionOf>>
  try {
    read = await sessionOf({ url: sessionUrl(ready, request), headers: request.headers }, ready.config)
  } catch {
    // Logged where it failed (an untrusted host once, naming its fix); no session, so pages that
    // only show who is signed in still answer.
    return null
  }
  if (responseHeaders && read.setCookies.length > 0) appendSetCookies(responseHeaders, read.setCookies)
  return read.session
}

/**
 * Gatehouse for TanStack Start: the auth routes as one server route, the session of the request
 * being served for server functions and loaders, and what a function middleware needs to guard
 * server functions. Browser code uses `gatehouse-auth/react` (its default base path, `/api/auth`,
 * is this integration's).
 *
 * A route's `beforeLoad` only guards navigation: a server function is an HTTP endpoint anyone can
 * call, whichever page imports it. Guard each one that needs a user with a function middleware.
 *
 * @example src/lib/auth.ts, the server route, a guarding middleware
 * ```ts
 * // src/lib/auth.ts
 * import { TanStackAuth } from "gatehouse-auth/tanstack-start"
 * import GitHub from "gatehouse-auth/providers/github"
 * export const { handlers, getSession, requireSession } = TanStackAuth({ providers: [GitHub] })
 *
 * // src/routes/api/auth/$.ts
 * export const Route = createFileRoute("/api/auth/$")({ server: { handlers } })
 *
 * // a function middleware for server functions that need a user
 * export const authMiddleware = createMiddleware({ type: "function" }).server(async ({ next }) =>
 *   next({ context: { session: await requireSession() } }),
 * )
 * ```
 * @module gatehouse-auth/tanstack-start
 */
import { appendResponseHeader, getRequest, getResponseHeader, setResponseHeader } from "@tanstack/react-start/server"
import { getSession as sessionOf, prepareConfig, privateCacheControl, requestAtOrigin, runtimeEnv, type PreparedConfig } from "../framework/index.js"
import { Auth, type Session } from "../index.js"
import type { AuthRouteHandler, SignedInSession, TanStackAuthConfig, TanStackAuthResult } from "./types.js"

export type * from "./types.js"

// What every integration exports beside its own API: the resources (re-exported, so
// `declare module` augmentations extend the one interface), the errors, and `customFetch`.
export { AuthError, CredentialsSignin, customFetch } from "../index.js"
export type { Account, DefaultSession, Profile, Session, User } from "../index.js"

/** Where `src/routes/api/auth/$.ts` serves the auth routes, and where `gatehouse-auth/react` looks. */
const BASE_PATH = "/api/auth"

/**
 * `config` prepared once: the environment applied (`AUTH_SECRET`, `AUTH_URL`, `AUTH_TRUST_HOST`,
 * `AUTH_<PROVIDER>_ID`, …) from the runtime's variables at the first request, not at import,
 * so `vite build` needs no secret.
 */
function prepared(config: TanStackAuthConfig): PreparedConfig<TanStackAuthConfig> {
  return prepareConfig(config, runtimeEnv(), { basePath: BASE_PATH })
}

/**
 * Gatehouse for a TanStack Start app: the server route's handlers, `getSession` and
 * `requireSession`. Call it once, in a module of its own (`src/lib/auth.ts`), and import from it
 * only in server code (server routes, the `.handler()` of a server function, the `.server()` of a
 * middleware): TanStack Start's compiler then leaves it out of the browser bundle.
 *
 * @param config - The configuration. Read at the first request.
 * @example
 * ```ts
 * // src/lib/auth.ts
 * import { TanStackAuth } from "gatehouse-auth/tanstack-start"
 * import Credentials from "gatehouse-auth/providers/credentials"
 * export const { handlers, getSession, requireSession } = TanStackAuth({
 *   providers: [Credentials({ credentials: { email: {}, password: {} }, authorize: checkPassword })],
 *   pages: { signIn: "/signin" },
 * })
 * ```
 */
export function TanStackAuth(config: TanStackAuthConfig): TanStackAuthResult {
  const handler: AuthRouteHandler = async ({ request }) => {
    const ready = prepared(config)
    return Auth(requestAtOrigin(ready, request), ready.config)
  }
  // One read per request, however many server functions and middlewares ask.
  const reads = new WeakMap<Request, Promise<Session | null>>()
  const getSession = (): Promise<Session | null> => {
    const ready = prepared(config)
    const request = getRequest()
    let read = reads.get(request)
    if (!read) reads.set(request, (read = readSession(request, ready)))
    return read
  }
  const requireSession = async (): Promise<SignedInSession> => {
    const session = await getSession()
    if (session?.user) return session as SignedInSession
    throw Response.json({ error: "Unauthorized" }, { status: 401, headers: { "cache-control": "no-store" } })
  }
  return { handlers: { GET: handler, POST: handler }, getSession, requireSession }
}

/** Reads the session; fails closed (a missing secret, a throwing callback: `null`, logged where it failed). */
async function readSession(request: Request, ready: PreparedConfig<TanStackAuthConfig>): Promise<Session | null> {
  let read: Awaited<ReturnType<typeof sessionOf>>
  try {
    read = await sessionOf({ url: ready.origin ? `${ready.origin}/` : request.url, headers: request.headers }, ready.config)
  } catch {
    return null
  }
  if (read.setCookies.length > 0) sendCookies(read.setCookies)
  return read.session
}

/**
 * Adds refreshed session cookies to the response being built, kept out of shared caches. A
 * response that already started streaming cannot take them: the next request that can (a server
 * function, the session route) sends the same refresh.
 */
function sendCookies(setCookies: string[]): void {
  try {
    appendResponseHeader("set-cookie", setCookies)
    const cacheControl = privateCacheControl(getResponseHeader("cache-control"))
    if (cacheControl) setResponseHeader("cache-control", cacheControl)
  } catch {
    // Headers already sent: nothing is lost (see above).
  }
}

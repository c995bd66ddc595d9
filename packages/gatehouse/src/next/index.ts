/**
 * Gatehouse for Next.js (App Router and Pages Router, Next 15 and 16): the route handlers, the
 * universal `auth`, and server actions to sign in, sign out and update the session. next-auth v5's
 * API, so code coming from `next-auth` changes its imports only.
 *
 * @example auth.ts, the route file, and proxy.ts
 * ```ts
 * // auth.ts
 * import NextAuth from "gatehouse-auth/next"
 * import GitHub from "gatehouse-auth/providers/github"
 * export const { handlers, auth, signIn, signOut } = NextAuth({ providers: [GitHub] })
 *
 * // app/api/auth/[...nextauth]/route.ts
 * export const { GET, POST } = handlers
 *
 * // proxy.ts
 * export { auth as proxy } from "@/auth"
 * ```
 * @module gatehouse-auth/next
 */
import { cache } from "react"
import { headers } from "next/headers.js"
// Without ".js": Next resolves the bare specifier to the server build of next/navigation (the file
// next/navigation.js is the client one, which a route handler cannot load).
import { redirect as nextRedirect } from "next/navigation"
import { getSession, prepareConfig, providerType, requestAtOrigin, runServerAction, type PreparedConfig } from "../framework/index.js"
import { UntrustedHost } from "../errors.js"
import { Auth, type Session } from "../index.js"
import { writeCookies } from "./next-cookies.js"
import { proxyResponse } from "./proxy.js"
import { originOf } from "./request-origin.js"
import type {
  AuthFunction,
  AuthorizationParams,
  NextAuthConfig,
  NextAuthConfigFunction,
  NextAuthRequest,
  NextAuthResult,
  NextRequestLike,
  PagesContext,
  PagesRequest,
  PagesResponse,
  SignInOptions,
  SignOutOptions,
} from "./types.js"

export type * from "./types.js"

// What every Auth.js integration package exports beside its own API: the resources (re-exported,
// not copied, so `declare module "<this module>" { interface Session { … } }` extends the one
// interface everything reads), the errors a server action may catch, and `customFetch`.
export { AuthError, CredentialsSignin, customFetch } from "../index.js"
export type { Account, DefaultSession, Profile, Session, User } from "../index.js"

/** The default base path of the auth routes in a Next.js app, as in next-auth. */
const BASE_PATH = "/api/auth"

/**
 * Gatehouse for a Next.js app: `handlers` for the route file, `auth`, `signIn`, `signOut` and
 * `unstable_update`. The configuration is read at the first request, not at import, so
 * `next build` works without `AUTH_SECRET`; a missing secret is reported then.
 *
 * @param config - The configuration, or a function of the request returning it (called with
 *   `undefined` where there is no request, as in a server component); return the same object each
 *   time when you can, so it is prepared once.
 * @example
 * ```ts
 * export const { handlers, auth, signIn, signOut, unstable_update } = NextAuth({
 *   providers: [GitHub],
 *   callbacks: { authorized: ({ auth, request }) => !!auth || !request.nextUrl.pathname.startsWith("/account") },
 * })
 * ```
 */
export function NextAuth(config: NextAuthConfig | NextAuthConfigFunction): NextAuthResult {
  const prepared = async (request?: NextRequestLike): Promise<PreparedConfig<NextAuthConfig>> =>
    prepareConfig(typeof config === "function" ? await config(request) : config, process.env, { basePath: BASE_PATH })

  const handler = async (request: Request): Promise<Response> => {
    const ready = await prepared(request as NextRequestLike)
    return Auth(requestAtOrigin(ready, request), ready.config)
  }

  const readServerSession = async (): Promise<Session | null> => {
    const incoming = await headers()
    const ready = await prepared(undefined)
    try {
      const read = await getSession({ url: `${originOf(ready, incoming)}/`, headers: incoming }, ready.config)
      await writeCookies(read.cookies)
      return read.session
    } catch (error) {
      // Logged where it failed. An untrusted host is thrown to the page that asked, with its fix in
      // the message: the page cannot know who is signed in, and null would hide the fault.
      if (error instanceof UntrustedHost) throw error
      // Anything else fails closed: no session.
      return null
    }
  }
  // One read per request in a server render, however many components call auth().
  const serverSession = cache(readServerSession)

  const auth = ((...args: unknown[]) => {
    const [first, second] = args
    if (args.length === 0) return serverSession()
    if (typeof first === "function") {
      const wrapped = first as (request: NextAuthRequest, context: unknown) => unknown
      return async (request: NextRequestLike, context: unknown) => proxyResponse(await prepared(request), request, wrapped, context)
    }
    if (first instanceof Request) return prepared(first as NextRequestLike).then((ready) => proxyResponse(ready, first as NextRequestLike))
    const { req, res } = isContext(first) ? first : { req: first as PagesRequest, res: second as PagesResponse }
    return pagesSession(prepared, req, res)
  }) as AuthFunction

  const signIn = async (provider?: string, options?: SignInOptions, authorizationParams?: AuthorizationParams): Promise<string> => {
    const incoming = await headers()
    const ready = await prepared(undefined)
    const { redirect = true, redirectTo, ...fields } = optionsOf(options)
    const callbackUrl = stringOf(redirectTo) ?? incoming.get("referer") ?? "/"
    const type = provider === undefined ? undefined : providerType(ready.config, provider)
    if (provider === undefined || type === undefined) {
      const page = `${ready.config.basePath}/signin?${new URLSearchParams({ callbackUrl })}`
      return finish(redirect !== false, page)
    }
    const result = await runServerAction(ready.config, {
      action: type === "credentials" ? "callback" : "signin",
      providerId: provider,
      origin: originOf(ready, incoming),
      headers: incoming,
      fields: { ...stringFields(fields), callbackUrl },
      query: new URLSearchParams(authorizationParams),
      // Next.js refuses a server action posted from another origin before it runs.
      originChecked: true,
    })
    await writeCookies(result.cookies)
    return finish(redirect !== false, result.redirect ?? callbackUrl)
  }

  const signOut = async (options: SignOutOptions = {}): Promise<string> => {
    const incoming = await headers()
    const ready = await prepared(undefined)
    const callbackUrl = options.redirectTo ?? incoming.get("referer") ?? "/"
    const result = await runServerAction(ready.config, {
      action: "signout",
      origin: originOf(ready, incoming),
      headers: incoming,
      fields: { callbackUrl, ...(options.provider && { provider: options.provider }) },
      originChecked: true,
    })
    await writeCookies(result.cookies)
    return finish(options.redirect !== false, result.redirect ?? callbackUrl)
  }

  const unstable_update: NextAuthResult["unstable_update"] = async (data) => {
    const incoming = await headers()
    const ready = await prepared(undefined)
    const result = await runServerAction(ready.config, {
      action: "session",
      origin: originOf(ready, incoming),
      headers: incoming,
      json: { data },
      originChecked: true,
    })
    await writeCookies(result.cookies)
    return (result.body as Session | null) ?? null
  }

  return { handlers: { GET: handler, POST: handler }, auth, signIn, signOut, unstable_update }
}

/** {@link NextAuth} under the specification's name. */
export const FullstackAuth = NextAuth

export default NextAuth

/** Redirects (Next's `redirect`, which throws) or returns the URL. */
function finish(redirect: boolean, url: string): string {
  if (redirect) nextRedirect(url)
  return url
}

function isContext(value: unknown): value is PagesContext {
  return typeof value === "object" && value !== null && "req" in value && "res" in value
}

function optionsOf(options: SignInOptions | undefined): Record<string, unknown> {
  if (options instanceof FormData) return Object.fromEntries([...options].filter(([, value]) => typeof value === "string"))
  return options ?? {}
}

function stringOf(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined
}

/** Fields posted with a sign-in: strings as they are, numbers and booleans spelled out, the rest dropped. */
function stringFields(fields: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fields).flatMap(([key, value]) =>
      typeof value === "string" ? [[key, value]] : typeof value === "number" || typeof value === "boolean" ? [[key, String(value)]] : [],
    ),
  )
}

/** The session of a Pages Router request, its refreshed cookies set on `res`. */
async function pagesSession(
  prepared: (request?: NextRequestLike) => Promise<PreparedConfig<NextAuthConfig>>,
  req: PagesRequest,
  res: PagesResponse | undefined,
): Promise<Session | null> {
  const ready = await prepared(undefined)
  const incoming = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") incoming.set(name, value)
    else if (Array.isArray(value)) for (const item of value) incoming.append(name, item)
  }
  try {
    const read = await getSession({ url: `${originOf(ready, incoming)}/`, headers: incoming }, ready.config)
    if (res && !res.headersSent && read.setCookies.length > 0) {
      const existing = res.getHeader("set-cookie")
      const kept = existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)]
      res.setHeader("set-cookie", [...kept, ...read.setCookies])
    }
    return read.session
  } catch (error) {
    if (error instanceof UntrustedHost) throw error
    return null
  }
}

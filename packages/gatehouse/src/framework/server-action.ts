/**
 * Sign-in, sign-out and session updates run on the server, as calls: what the framework's form
 * action or server function does with the auth routes, returning where to go and the cookies to
 * set instead of a `Response`.
 * @module
 */
import { Auth } from "../core/handler.js"
import { markOriginChecked } from "../core/origin-checked.js"
import type { Cookie } from "../cookies/defaults.js"
import { raw, skipCSRFCheck } from "../markers.js"
import type { AuthConfig } from "../types.js"
import { setCookieHeaders } from "./session.js"

/** One server-side call of an auth route. */
export interface ServerActionInput {
  /** `signin` (a provider's start), `callback` (credentials), `signout`, or `session` (an update). */
  action: "signin" | "callback" | "signout" | "session"
  /** The provider, for `signin` and `callback`. */
  providerId?: string
  /** The origin the app answers on (`AUTH_URL`'s, else the incoming request's). */
  origin: string
  /**
   * The incoming request's headers: its `Cookie` (the session, the CSRF cookie) and the client
   * hints a provider hook may read. `Content-Type` and `Content-Length` are set here.
   */
  headers: Headers
  /** Form fields: `callbackUrl`, credentials fields, `csrfToken` when not skipped. */
  fields?: Record<string, string>
  /** The query of the route (OAuth authorization parameters). */
  query?: URLSearchParams
  /** A JSON body instead of form fields (a session update's `{ data }`). */
  json?: unknown
  /**
   * Skips the double-submit CSRF check. Only where the framework itself refused any request from
   * another origin before this code ran (Next.js server actions, SvelteKit form actions);
   * anywhere else it would let other sites sign users in or out.
   */
  originChecked?: boolean
}

/** What the route answered. */
export interface ServerActionResult {
  /** The route's HTTP status. */
  status: number
  /** Where the browser should go next, when the route redirects. */
  redirect: string | undefined
  /** The body (the session, for an update). */
  body: unknown
  /** `Set-Cookie` header values to send. */
  setCookies: string[]
  /** The same cookies, parsed, for frameworks with a cookie API (`cookies().set`). */
  cookies: Cookie[]
}

type Marked = AuthConfig & { raw: typeof raw }
const marked = new WeakMap<AuthConfig, { checked: Marked; unchecked: Marked }>()

/** The config with the `raw` marker (and `skipCSRFCheck`), made once per config so the core's caches hold. */
function markedConfig(config: AuthConfig, originChecked: boolean): Marked {
  let both = marked.get(config)
  if (!both) {
    both = { checked: { ...config, raw }, unchecked: markOriginChecked({ ...config, raw, skipCSRFCheck }) }
    marked.set(config, both)
  }
  return originChecked ? both.unchecked : both.checked
}

/**
 * Runs an auth route on the server and returns its raw answer.
 *
 * @param config - A prepared configuration; pass the same object every time.
 * @throws {AuthError} what the route throws: `CredentialsSignin` (with its `code`) for a refused
 *   credentials sign-in, `MissingCSRF` without a token where the origin was not checked, any
 *   other sign-in failure as its own subclass.
 * @example
 * ```ts
 * const { redirect, setCookies } = await runServerAction(ready, {
 *   action: "signin", providerId: "github", origin, headers: request.headers,
 *   fields: { callbackUrl: "/dashboard" }, originChecked: true,
 * })
 * ```
 */
export async function runServerAction(config: AuthConfig & { basePath: string }, input: ServerActionInput): Promise<ServerActionResult> {
  const base = config.basePath === "/" ? "" : config.basePath.replace(/\/+$/, "")
  const path = `${base}/${input.action}${input.providerId === undefined ? "" : `/${encodeURIComponent(input.providerId)}`}`
  const search = input.query && [...input.query].length > 0 ? `?${input.query}` : ""
  const headers = new Headers(input.headers)
  headers.delete("content-length")
  // The browser's header would turn a thrown error into a returned redirect: a server-side call
  // gets the error, whoever sent the request it runs in.
  headers.delete("x-auth-return-redirect")
  let body: string
  if (input.json !== undefined) {
    headers.set("content-type", "application/json")
    body = JSON.stringify(input.json)
  } else {
    headers.set("content-type", "application/x-www-form-urlencoded")
    body = new URLSearchParams(input.fields ?? {}).toString()
  }
  const request = new Request(`${input.origin}${path}${search}`, { method: "POST", headers, body })
  const answer = await Auth(request, markedConfig(config, input.originChecked === true))
  const cookies = answer.cookies ?? []
  return {
    status: answer.redirect === undefined ? (answer.status ?? 200) : 302,
    redirect: answer.redirect,
    body: answer.body,
    cookies,
    setCookies: setCookieHeaders(cookies),
  }
}

/**
 * Reading a Web `Request` into what the actions work with: method, route, cookies, query and a
 * size-limited, validated body. Anything unreadable is an {@link InvalidRequest} or
 * {@link UnknownAction}, which the handler answers with 400.
 * @module
 */
import { parseCookieHeader, type RequestCookies } from "../cookies/header.js"
import { InvalidRequest, UnknownAction } from "../errors.js"
import type { AuthAction, OptInRoutes, TwoFactorSubPath } from "./auth-action.js"
import { parseRoute } from "./router.js"

/** A request as the actions see it. */
export interface InternalRequest {
  url: URL
  method: "GET" | "POST"
  action: AuthAction
  providerId: string | undefined
  /** Below `two-factor` only: which of its routes. */
  subPath?: TwoFactorSubPath
  /** Below `organizations` and `admin`: the segments after the action (see `Route.segments`). */
  segments?: readonly string[]
  headers: Headers
  cookies: RequestCookies
  /** Query parameters; for a repeated name the last value wins, as in Auth.js. */
  query: Readonly<Record<string, string>>
  /** The JSON or form body of a POST, if it had one of those content types. */
  body: Readonly<Record<string, unknown>> | undefined
}

/**
 * Largest body read, in bytes. Sign-in forms, session updates and passkey responses are a few
 * kilobytes at most; reading more only gives an attacker a way to spend memory.
 */
export const MAX_BODY_BYTES = 64 * 1024

/**
 * Deepest nesting a JSON body may have. Sign-in fields are flat and a session update's data is
 * a few levels at most; 30,000 levels fit in 64 KB and overflow the stack of whatever serialises
 * the body again (the credentials flow hands `authorize` a JSON request).
 */
export const MAX_JSON_DEPTH = 32

const NO_QUERY: Readonly<Record<string, string>> = Object.freeze({})

/**
 * The internal request for `request`.
 *
 * @throws {UnknownAction} for a method other than GET and POST, or a path that names no route.
 * @throws {InvalidRequest} for a body that is too large or not a JSON object.
 */
export async function toInternalRequest(request: Request, basePath: string, optIn?: OptInRoutes): Promise<InternalRequest> {
  const method = request.method
  if (method !== "GET" && method !== "POST") throw new UnknownAction(`Unsupported HTTP method ${JSON.stringify(method)}`)
  const url = new URL(request.url)
  const route = parseRoute(url.pathname, basePath, optIn)
  if (!route) throw new UnknownAction(`Cannot parse an auth action from ${url.pathname}`)
  return {
    url,
    method,
    action: route.action,
    providerId: route.providerId,
    ...(route.subPath !== undefined && { subPath: route.subPath }),
    ...(route.segments !== undefined && { segments: route.segments }),
    headers: request.headers,
    cookies: parseCookieHeader(request.headers.get("cookie")),
    // Most requests (every session check) have no query: no URLSearchParams is built for them.
    query: url.search === "" ? NO_QUERY : Object.fromEntries(url.searchParams),
    body: method === "POST" ? await readBody(request) : undefined,
  }
}

async function readBody(request: Request): Promise<Record<string, unknown> | undefined> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase()
  const isJson = type.includes("application/json")
  if (!request.body || (!isJson && !type.includes("application/x-www-form-urlencoded"))) return undefined
  const text = await readText(request)
  if (!isJson) return Object.fromEntries(new URLSearchParams(text))
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new InvalidRequest("The request body is not valid JSON")
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new InvalidRequest("The request body must be a JSON object")
  }
  if (depthExceeds(body, MAX_JSON_DEPTH)) throw new InvalidRequest(`The request body is nested deeper than ${MAX_JSON_DEPTH} levels`)
  return body as Record<string, unknown>
}

/** Whether `value` nests objects or arrays deeper than `limit`; walked without recursion. */
function depthExceeds(value: object, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 1]]
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, depth] = next
    if (depth > limit) return true
    for (const child of Object.values(node as object)) {
      if (child !== null && typeof child === "object") pending.push([child, depth + 1])
    }
  }
  return false
}

/** The body as text, refusing to buffer more than {@link MAX_BODY_BYTES} whatever the headers claim. */
async function readText(request: Request): Promise<string> {
  const declared = Number(request.headers.get("content-length"))
  if (declared > MAX_BODY_BYTES) throw new InvalidRequest(`The request body is larger than ${MAX_BODY_BYTES} bytes`)
  const reader = request.body!.getReader()
  const decoder = new TextDecoder()
  let size = 0
  let text = ""
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {})
      throw new InvalidRequest(`The request body is larger than ${MAX_BODY_BYTES} bytes`)
    }
    text += decoder.decode(value, { stream: true })
  }
  return text + decoder.decode()
}

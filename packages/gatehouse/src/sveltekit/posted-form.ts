/**
 * What a sign-in or sign-out form posts to the form actions, and where the person goes afterwards
 * when the form does not say.
 * @module
 */
import type { PreparedConfig } from "../framework/index.js"
import type { KitRequestEvent } from "./types.js"

/** The fields of a sign-in or sign-out form, sorted by role. */
export interface PostedForm {
  /** `providerId`: which provider signs in. */
  providerId: string | undefined
  /** `redirectTo` (or `callbackUrl`): where to go once done. */
  redirectTo: string | undefined
  /** `authorizationParams-<name>` fields, as the query of an OAuth sign-in's start. */
  authorizationParams: URLSearchParams
  /** Every other text field (credentials, `email`, a `csrfToken` the app posts itself), first value of each name. */
  fields: Record<string, string>
}

const PARAM_PREFIX = "authorizationParams-"

/** Sorts a form's text fields by role; files are ignored. */
export function readPostedForm(form: FormData): PostedForm {
  let providerId: string | undefined
  let redirectTo: string | undefined
  const authorizationParams = new URLSearchParams()
  // No prototype: a field named __proto__ or constructor is a field like any other.
  const fields = Object.create(null) as Record<string, string>
  for (const [name, value] of form) {
    if (typeof value !== "string") continue
    if (name === "providerId") providerId ??= value || undefined
    else if (name === "redirectTo" || name === "callbackUrl") redirectTo ??= value || undefined
    else if (name.startsWith(PARAM_PREFIX)) {
      if (name.length > PARAM_PREFIX.length) authorizationParams.append(name.slice(PARAM_PREFIX.length), value)
    } else if (!Object.hasOwn(fields, name)) fields[name] = value
  }
  return { providerId, redirectTo, authorizationParams, fields }
}

/**
 * Where to go once signed in or out: the form's `redirectTo`; else the `callbackUrl` of the page
 * the form was posted from (a sign-in page reached from a protected one); else that page itself,
 * unless it is the action's own page (signing in on the sign-in page should not land there again);
 * else `/`. Whatever is chosen is checked by the core's `redirect` callback (same origin by default).
 */
export function callbackUrlOf(posted: string | undefined, prepared: PreparedConfig, event: KitRequestEvent): string {
  if (posted !== undefined) return posted
  const referer = event.request.headers.get("referer")
  if (referer) {
    let from: URL | undefined
    try {
      from = new URL(referer)
    } catch {
      from = undefined
    }
    if (from && (from.origin === event.url.origin || from.origin === prepared.origin)) {
      const asked = from.searchParams.get("callbackUrl")
      if (asked) return asked
      if (from.pathname !== event.url.pathname) return from.href
    }
  }
  return "/"
}

/**
 * KitAuth's logic, with SvelteKit's `redirect` and `error` passed in (the entry point passes Kit's
 * own), so it runs and is tested without Kit installed.
 * @module
 */
import { Auth, AuthError, type EnvObject, type Session } from "../index.js"
import {
  getSession,
  isAuthRoute,
  prepareConfig,
  providerType,
  requestAtOrigin,
  runServerAction,
  setClientAddress,
  signInFailurePage,
  CLIENT_ADDRESS_HEADER,
  type PreparedConfig,
  type ServerActionInput,
} from "../framework/index.js"
import { kitBuilding, kitEnv } from "#kit-env"
import { writeCookies } from "./kit-cookies.js"
import { callbackUrlOf, readPostedForm, type PostedForm } from "./posted-form.js"
import { originOf, postedFromHere } from "./request-origin.js"
import type { KitAuthConfig, KitAuthConfigFunction, KitAuthResult, KitRequestEvent } from "./types.js"

/** What a form action asks of the core; the origin, headers and the origin check come from the event. */
type ActionInput = Omit<ServerActionInput, "origin" | "headers" | "originChecked">

/** The two Kit functions an action ends with; both throw what Kit catches. */
export interface KitControl {
  /**
   * Kit's `redirect`. Kit 3 refuses a location on another origin unless `external` allows it
   * (Kit 2 takes no options, and ignores them).
   */
  redirect(status: 303, location: string, options?: { external?: boolean }): never
  /** Kit's `error`. */
  error(status: 400, message: string): never
}

/** See `KitAuth` in the entry point. */
export function createKitAuth<Event extends KitRequestEvent>(
  config: KitAuthConfig | KitAuthConfigFunction<Event>,
  kit: KitControl,
): KitAuthResult<Event> {
  const prepared = async (event: Event): Promise<PreparedConfig<KitAuthConfig>> =>
    prepareConfig(typeof config === "function" ? await config(event) : config, envOf(event), { clientAddress: true })

  const readSession = async (event: Event): Promise<Session | null> => {
    try {
      const ready = await prepared(event)
      const read = await getSession({ url: `${originOf(ready, event)}/`, headers: event.request.headers }, ready.config)
      writeCookies(event.cookies, read.cookies)
      return read.session
    } catch {
      // Logged where it failed (an untrusted host once, naming its fix). Fail closed: no session,
      // so a layout that reads the session on every page leaves public pages answering.
      return null
    }
  }

  const handle: KitAuthResult<Event>["handle"] = async ({ event, resolve }) => {
    if (kitBuilding()) {
      // Prerendering a page: no visitor, so no session, and Kit's private environment (which the
      // configuration would be read from) throws if touched; the auth routes are never prerendered.
      event.locals.auth ??= () => Promise.resolve(null)
      return resolve(event)
    }
    const ready = await prepared(event)
    // One session read per request, however many loads (run side by side) ask for it.
    let session: Promise<Session | null> | undefined
    event.locals.auth ??= () => (session ??= readSession(event))
    if (isAuthRoute(event.url, ready.config.basePath, ready.config)) {
      // Only POSTs are counted per client (sign-in emails, credentials attempts): a session read
      // is not copied for an address it never uses, unless a client sent one of its own to drop.
      const counted = event.request.method === "POST" || event.request.headers.has(CLIENT_ADDRESS_HEADER)
      const request = counted ? new Request(event.request, { headers: headersOf(event) }) : event.request
      return Auth(requestAtOrigin(ready, request), ready.config)
    }
    return resolve(event)
  }

  /**
   * Runs a server action for a form post and answers 303: where the core sent the browser (its
   * cookies written through Kit), else `callbackUrl`; a failure goes to the sign-in or error page.
   */
  const settle = async (ready: PreparedConfig<KitAuthConfig>, event: Event, callbackUrl: string, input: ActionInput): Promise<never> => {
    let location: string
    let external = false
    try {
      const result = await runServerAction(ready.config, {
        ...input,
        origin: originOf(ready, event),
        headers: headersOf(event),
        fields: { ...input.fields, callbackUrl },
        // Kit refuses cross-site form posts before an action runs; checked again here, as an app
        // may have turned that off. Otherwise the core asks for the double-submit token.
        originChecked: postedFromHere(ready, event),
      })
      writeCookies(event.cookies, result.cookies)
      location = result.redirect ?? callbackUrl
      // Only the core's own choice may leave the origin: an identity provider's authorization URL
      // (which Kit 3 refuses unless told), or an address the `redirect` callback allowed. The
      // fallback and the failure pages keep Kit 3's refusal of another origin.
      external = result.redirect !== undefined
    } catch (error) {
      location = failurePage(ready, event, error, callbackUrl)
    }
    return kit.redirect(303, location, { external })
  }

  const signIn: KitAuthResult<Event>["signIn"] = async (event) => {
    const ready = await prepared(event)
    const form = await postedForm(event, kit)
    const callbackUrl = callbackUrlOf(form.redirectTo, ready, event)
    let type: ReturnType<typeof providerType>
    try {
      type = form.providerId === undefined ? undefined : providerType(ready.config, form.providerId)
    } catch (error) {
      return kit.redirect(303, failurePage(ready, event, error, callbackUrl))
    }
    if (type === undefined || type === "webauthn") {
      // No provider, an unknown one, or a passkey (whose ceremony runs in the browser): the
      // sign-in page, which offers them all.
      return kit.redirect(303, `${basePathOf(ready)}/signin?${new URLSearchParams({ callbackUrl })}`)
    }
    return settle(ready, event, callbackUrl, {
      action: type === "credentials" ? "callback" : "signin",
      providerId: form.providerId,
      fields: form.fields,
      query: form.authorizationParams,
    })
  }

  const signOut: KitAuthResult<Event>["signOut"] = async (event) => {
    const ready = await prepared(event)
    const form = await postedForm(event, kit)
    return settle(ready, event, callbackUrlOf(form.redirectTo, ready, event), { action: "signout", fields: form.fields })
  }

  return { handle, signIn, signOut }
}

/**
 * The request's headers with the client's address as Kit sees it where the prepared config reads
 * it (`setClientAddress`), replacing any the client sent; removed when the adapter cannot tell
 * (then no per-IP limit applies to the request).
 */
function headersOf(event: KitRequestEvent): Headers {
  let address: string | undefined
  try {
    address = event.getClientAddress?.()
  } catch {
    // An adapter without a client address (Kit throws): none.
  }
  return setClientAddress(new Headers(event.request.headers), address)
}

/**
 * The environment: the platform's `env` bindings where the adapter has them, else Kit's
 * `$env/dynamic/private` in the app's build (`.env` in `vite dev` and `vite preview`), else
 * `process.env` (see the `#kit-env` import's two modules).
 */
function envOf(event: KitRequestEvent): EnvObject {
  const { platform } = event
  const env = platform !== null && typeof platform === "object" ? (platform as { env?: unknown }).env : undefined
  if (env !== null && typeof env === "object") return env as EnvObject
  return kitEnv()
}

/** The form the action was posted; a body that is no form is a bad request (400). */
async function postedForm(event: KitRequestEvent, kit: KitControl): Promise<PostedForm> {
  let form: FormData
  try {
    form = await event.request.formData()
  } catch {
    return kit.error(400, "The form could not be read")
  }
  return readPostedForm(form)
}

function basePathOf(prepared: PreparedConfig): string {
  return prepared.config.basePath.replace(/\/+$/, "")
}

/** Where a failed action sends the browser (see `signInFailurePage`); not an `AuthError` is thrown on. */
function failurePage(prepared: PreparedConfig, event: KitRequestEvent, error: unknown, callbackUrl: string): string {
  if (!(error instanceof AuthError)) throw error
  return signInFailurePage(prepared.config, error, { origin: originOf(prepared, event), referer: event.request.headers.get("referer"), callbackUrl })
}

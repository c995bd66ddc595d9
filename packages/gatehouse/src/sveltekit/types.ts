/**
 * The types of `gatehouse-auth/sveltekit`: structural, so they hold for SvelteKit 2 and 3 without
 * this package depending on `@sveltejs/kit`. Kit's own `RequestEvent`, `Handle` and `Action` fit
 * them; the app's `hooks.server.ts` and `+page.server.ts` are checked against Kit's types as usual.
 * @module
 */
import type { AuthConfig, Awaitable, Session } from "../index.js"

declare global {
  namespace App {
    /** What `handle` puts on `event.locals` (merged with the app's own `App.Locals`). */
    interface Locals {
      /**
       * The session of the request, or `null` when signed out (or when it could not be read:
       * failures are logged and fail closed). Read once per request, however many `load`
       * functions ask; refreshed session cookies go out through `event.cookies`. Rejects with
       * `UntrustedHost` (its message naming `AUTH_URL` and `AUTH_TRUST_HOST`) in production
       * without either: no session can be read until the deployment names the app's host.
       */
      auth(): Promise<Session | null>
    }
  }
}

/**
 * What `handle` puts on `event.locals`. The global `App.Locals` is augmented with it when this
 * module's types are loaded, so `event.locals.auth()` is typed in every `load`, action and hook.
 */
export interface KitLocals {
  /** The session of the request, or `null` (see `App.Locals`). */
  auth?(): Promise<Session | null>
}

/** Attributes `event.cookies.set` takes (the `cookie` package's serialize options, `path` required). */
export interface KitCookieOptions {
  /** The path the cookie is sent for; Kit 2 requires it. */
  path: string
  /** Hidden from page scripts. */
  httpOnly?: boolean
  /** When the browser sends the cookie with cross-site requests; `false` leaves the attribute out. */
  sameSite?: boolean | "lax" | "strict" | "none"
  /** Sent over https only. */
  secure?: boolean
  /** The domain the cookie is sent to. */
  domain?: string
  /** Seconds until the browser drops it. */
  maxAge?: number
  /** When the browser drops it. */
  expires?: Date
  /** CHIPS: kept per top-level site. */
  partitioned?: boolean
  /** Chrome's `Priority` attribute. */
  priority?: "low" | "medium" | "high"
}

/** The part of Kit's `event.cookies` the integration writes through. */
export interface KitCookies {
  /** Sets (or, with `maxAge: 0`, deletes) a cookie on the response. */
  set(name: string, value: string, options: KitCookieOptions): void
}

/**
 * A SvelteKit request event (`RequestEvent`) as far as Gatehouse reads it. Kit's own event is one,
 * so `handle`, `signIn` and `signOut` take it as they are.
 */
export interface KitRequestEvent {
  /** The incoming request: its headers (`Cookie`, `Origin`, `Referer`) and its form body. */
  readonly request: Request
  /** The request's URL, as Kit sees it (adapter-node: from `ORIGIN`, or the protocol and host headers). */
  readonly url: URL
  /** Kit's cookie API: refreshed and new auth cookies are set through it. */
  readonly cookies: KitCookies
  /** Per-request data; `handle` adds `auth()`. */
  readonly locals: KitLocals
  /**
   * The client's address as the adapter sees it (adapter-node: the socket's, or `ADDRESS_HEADER`'s
   * behind a proxy), counted by the per-IP sign-in limits. Kit's own event always has it.
   */
  getClientAddress?(): string
  /**
   * The adapter's platform object. Where it has an `env` object (Cloudflare's bindings), the
   * environment (`AUTH_SECRET`, `AUTH_URL`, …) is read from it; otherwise from `process.env`.
   */
  readonly platform?: unknown
}

/** The configuration of {@link KitAuth}: `AuthConfig` without `raw` (the integration sets what it needs). */
export type KitAuthConfig = Omit<AuthConfig, "raw">

/**
 * A lazy configuration, called with the request event: read secrets from the platform's
 * environment, or pick options per request. Return the same object each time when you can, so
 * it is prepared once.
 */
export type KitAuthConfigFunction<Event extends KitRequestEvent = KitRequestEvent> = (event: Event) => Awaitable<KitAuthConfig>

/** What `handle` is given: Kit's `{ event, resolve }`. */
export interface KitHandleInput<Event extends KitRequestEvent> {
  /** The request event. */
  event: Event
  /** Renders the route (everything that is not an auth route goes there). */
  resolve: (event: Event) => Awaitable<Response>
}

/** What {@link KitAuth} returns. */
export interface KitAuthResult<Event extends KitRequestEvent = KitRequestEvent> {
  /**
   * The server hook: serves the auth routes under the base path (`/auth`), and for every other
   * request sets `event.locals.auth()` and calls `resolve`. Export it from `src/hooks.server.ts`,
   * alone or in `sequence(handle, …)`.
   */
  handle: <E extends Event>(input: KitHandleInput<E>) => Promise<Response>
  /**
   * A form action that signs in with the provider the form names (`providerId`), then redirects
   * (303): `export const actions = { default: signIn }`. Fields: `providerId`, `redirectTo` (or
   * `callbackUrl`), `authorizationParams-<name>` for OAuth authorization parameters, and the
   * provider's own fields (credentials, `email`). A failed sign-in redirects to `pages.signIn`,
   * else back to the app's page the form was posted from, else the built-in sign-in page (or to
   * the error page), with `error` (the `AuthError` subclass's type, as `CredentialsSignin`) and
   * `code`, as the auth routes do.
   */
  signIn: <E extends Event>(event: E) => Promise<never>
  /** A form action that signs out, then redirects (303) to `redirectTo` (or the page it was posted from). */
  signOut: <E extends Event>(event: E) => Promise<never>
}

export type { Session }

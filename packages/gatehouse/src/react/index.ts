/**
 * Gatehouse for React in the browser: `SessionProvider`, `useSession`, and the browser client's
 * functions, defaulting to the provider's base path (`/api/auth`, next-auth's). Mark of
 * `"use client"`, so a Next.js layout can render the provider.
 *
 * @example
 * ```tsx
 * // app/layout.tsx (a server component): the first render needs no fetch
 * const session = await auth()
 * return <SessionProvider session={session}>{children}</SessionProvider>
 *
 * // a client component
 * const { data, status, update } = useSession()
 * ```
 * @module gatehouse-auth/react
 */
"use client"
import { createContext, createElement, useCallback, useContext, useEffect, useMemo, useRef, useState, type Context, type ReactNode } from "react"
import * as client from "../client/index.js"
import type { AuthorizationParams, AuthResult, SignInOptions, SignOutOptions } from "../client/index.js"
import type { Session } from "../types.js"

/** A session as the session route sends it, or `null`; augment `gatehouse-auth/types`' `Session` for your fields. */
export type SessionData = Session | null

/** Refetches the session, or with `data` sends it through the `jwt`/`session` callbacks' `update` trigger; resolves to the new session. */
export type UpdateSession = (data?: unknown) => Promise<SessionData>

/** {@link SessionState} when signed in. */
export interface SignedInState {
  /** The session. */
  data: Session
  /** Signed in. */
  status: "authenticated"
}

/** {@link SessionState} while nothing is known yet: the first fetch has not answered. */
export interface LoadingState {
  /** Nothing yet. */
  data: null
  /** The first fetch has not answered (or `required` and signed out, while redirecting). */
  status: "loading"
}

/** {@link SessionState} when signed out. */
export interface SignedOutState {
  /** No session. */
  data: null
  /** Signed out. */
  status: "unauthenticated"
}

/** Where the session stands: signed in (`data` is the session), signed out, or not known yet. */
export type SessionState = SignedInState | SignedOutState | LoadingState

/**
 * What {@link useSession} returns: the {@link SessionState} and `update`. With `required: true`
 * (`R`), a signed-out visitor is being sent away, so the status is never `unauthenticated`.
 */
export type SessionContextValue<R extends boolean = false> = (R extends true ? SignedInState | LoadingState : SessionState) & {
  /** Refetches the session; with `data`, sends it through the `jwt`/`session` callbacks' `update` trigger. Resolves to the new session. */
  update: UpdateSession
}

/** Props of {@link SessionProvider}. */
export interface SessionProviderProps {
  /** The components that call {@link useSession}. */
  children?: ReactNode
  /** The session the server already read (`await auth()`): rendered at once, no fetch on mount. */
  session?: SessionData
  /**
   * Where the auth routes are mounted. Default: the path of `AUTH_URL` as the browser bundle sees
   * it (`NEXT_PUBLIC_AUTH_URL`, or `AUTH_URL` exposed through `next.config`'s `env`) when it names
   * one, else `/api/auth`.
   */
  basePath?: string
  /** Seconds between refetches while the page is open; `0` (default) never polls. */
  refetchInterval?: number
  /** Refetch when the tab becomes visible again. Default `true`. */
  refetchOnWindowFocus?: boolean
  /** Also poll while the browser says it is offline. Default `false`. */
  refetchWhenOffline?: boolean
}

/**
 * Fewest milliseconds between two fetches of the session that nothing asked for explicitly
 * (focus, polling, another tab): a burst of focus events costs one request (next-auth #6630 saw
 * session polling make 80% of a site's traffic).
 */
const FLOOR_MS = 5_000
const CHANNEL = "gatehouse-auth.session"

// Only the literal `process.env.NAME` is replaced by bundlers (Next inlines NEXT_PUBLIC_* and
// next.config's `env`); this declaration is local to the module, so Node's types are not needed.
declare const process: { env: Record<string, string | undefined> }

/** The path of the auth routes that `AUTH_URL` names, where the bundle was given one. */
function pathOfAuthUrl(): string | undefined {
  let url: string | undefined
  try {
    url = process.env.NEXT_PUBLIC_AUTH_URL || process.env.AUTH_URL
  } catch {
    return undefined // no `process` here, and no bundler replaced the names
  }
  if (!url) return undefined
  try {
    return new URL(url).pathname.replace(/\/+$/, "") || undefined
  } catch {
    return undefined
  }
}

const DEFAULT_BASE_PATH = pathOfAuthUrl() ?? "/api/auth"
let currentBasePath = DEFAULT_BASE_PATH
/**
 * What `gatehouse-auth/webauthn`'s `signIn` reads: this provider's base path, and `announce` for
 * its sign-ins. A global under a registered symbol, since that module imports nothing.
 */
const pageClient: { basePath?: string; signedIn?: () => void } = ((globalThis as Record<symbol, object | undefined>)[Symbol.for("gatehouse-auth.page-client")] ??= {})
Object.assign(pageClient, { basePath: DEFAULT_BASE_PATH, signedIn: announce })
/**
 * The React context {@link SessionProvider} fills and {@link useSession} reads, for code that
 * reads it with `useContext` itself (`undefined` outside a provider).
 *
 * @example
 * ```tsx
 * const value = useContext(SessionContext)
 * if (!value) throw new Error("inside <SessionProvider> only")
 * ```
 */
export const SessionContext: Context<SessionContextValue | undefined> = createContext<SessionContextValue | undefined>(undefined)

/**
 * Keeps the session for the components below it: fetched once (or given by the server),
 * refetched on focus, on `refetchInterval`, and when another tab signs in, out or updates.
 */
export function SessionProvider(props: SessionProviderProps): ReactNode {
  const { children, basePath = DEFAULT_BASE_PATH, refetchInterval = 0, refetchOnWindowFocus = true, refetchWhenOffline = false } = props
  currentBasePath = basePath
  // Told to gatehouse-auth/webauthn in the browser only: on a server, rendering must not change
  // what other requests' renders would read.
  if (typeof window !== "undefined") pageClient.basePath = basePath
  const given = props.session !== undefined
  const [data, setData] = useState<SessionData>(props.session ?? null)
  const [loading, setLoading] = useState(!given)
  // When the last fetch (or the server's seed) happened, set in effects and handlers only: a
  // clock read during render makes the render non-deterministic, which Next's prerender with
  // Cache Components refuses (and which would differ between server and client anyway).
  const lastFetch = useRef(0)
  const inFlight = useRef<Promise<SessionData> | undefined>(undefined)
  // Answers can arrive out of order; only the newest request's answer may land, so one read
  // before another tab signed out cannot bring the old session back after the fresh read.
  const latest = useRef(0)
  const land = useCallback((ticket: number, session?: SessionData) => {
    if (ticket !== latest.current) return
    if (session !== undefined) setData(session)
    setLoading(false)
    inFlight.current = undefined
  }, [])

  const refetch = useCallback(
    (force: boolean): Promise<SessionData> => {
      // A forced refetch (another tab changed the session, update()) cannot share a read that
      // started before that change; a focus burst can.
      if (inFlight.current && !force) return inFlight.current
      if (!force && Date.now() - lastFetch.current < FLOOR_MS) return Promise.resolve(null)
      lastFetch.current = Date.now()
      const ticket = ++latest.current
      const pending = client.getSession({ basePath }).then(
        (session) => (land(ticket, session as SessionData), session as SessionData),
        (error: unknown) => {
          land(ticket)
          throw error
        },
      )
      inFlight.current = pending
      return pending
    },
    [basePath, land],
  )

  useEffect(() => {
    // A seeded session counts as a fetch made now, so focus events right after it cost nothing.
    if (given) lastFetch.current = Date.now()
    else void refetch(true)
  }, [given, refetch])

  useEffect(() => {
    const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : undefined
    const fromOtherTab = () => void refetch(true)
    channel?.addEventListener("message", fromOtherTab)
    const onVisible = () => {
      if (refetchOnWindowFocus && document.visibilityState === "visible") void refetch(false)
    }
    document.addEventListener("visibilitychange", onVisible)
    const timer =
      refetchInterval > 0
        ? setInterval(() => {
            if (refetchWhenOffline || navigator.onLine !== false) void refetch(false)
          }, refetchInterval * 1000)
        : undefined
    return () => {
      channel?.removeEventListener("message", fromOtherTab)
      channel?.close()
      document.removeEventListener("visibilitychange", onVisible)
      if (timer !== undefined) clearInterval(timer)
    }
  }, [refetch, refetchInterval, refetchOnWindowFocus, refetchWhenOffline])

  const update = useCallback(
    async (payload?: unknown): Promise<SessionData> => {
      if (payload === undefined) {
        const session = await refetch(true)
        announce()
        return session
      }
      const ticket = ++latest.current
      const session = (await client.updateSession(payload, { basePath })) as SessionData
      land(ticket, session)
      announce()
      return session
    },
    [basePath, land, refetch],
  )

  const value = useMemo<SessionContextValue>(
    () => (loading ? { data: null, status: "loading", update } : data ? { data, status: "authenticated", update } : { data: null, status: "unauthenticated", update }),
    [data, loading, update],
  )
  return createElement(SessionContext.Provider, { value }, children)
}

/** Options of {@link useSession}. */
export interface UseSessionOptions<R extends boolean = boolean> {
  /** The page needs a session: signed out, `onUnauthenticated` runs (default: go to sign in). */
  required?: R
  /** With `required`, what to do when signed out instead of going to the sign-in page. */
  onUnauthenticated?: () => void
}

/**
 * The session of the surrounding {@link SessionProvider}: `{ data, status, update }`. `data` is
 * the session exactly when `status` is `authenticated`. `update()` refetches; `update(data)`
 * sends `data` through the `update` trigger and returns the new session.
 *
 * @example
 * ```tsx
 * const { data: session, status, update } = useSession({ required: true })
 * if (status === "loading") return <p>…</p>
 * return <button onClick={() => update({ name: "Ada" })}>{session.user?.name}</button>
 * ```
 */
export function useSession<R extends boolean = false>(options: UseSessionOptions<R> = {}): SessionContextValue<R> {
  const value = useContext(SessionContext)
  if (!value) throw new Error("useSession must be used inside <SessionProvider>")
  const { required, onUnauthenticated } = options
  const signedOut = value.status === "unauthenticated"
  useEffect(() => {
    if (!required || !signedOut) return
    if (onUnauthenticated) onUnauthenticated()
    else location.assign(`${currentBasePath}/signin?${new URLSearchParams({ callbackUrl: location.href })}`)
  }, [required, signedOut, onUnauthenticated])
  return (required && signedOut ? { data: null, status: "loading", update: value.update } : value) as SessionContextValue<R>
}

/** Tells the other tabs the session changed, so they refetch. */
function announce(): void {
  if (typeof BroadcastChannel !== "function") return
  const channel = new BroadcastChannel(CHANNEL)
  channel.postMessage({ at: Date.now() })
  channel.close()
}

const withBasePath = <Options extends { basePath?: string }>(options: Options | undefined): Options =>
  ({ basePath: currentBasePath, ...options }) as Options

/**
 * `gatehouse-auth/client`'s `signIn`, at the provider's base path; other tabs are told. Without a
 * provider (next-auth's `signIn()`), goes to the sign-in page, coming back to `redirectTo` (or
 * `callbackUrl`, or this page). `authorizationParams` go to an OAuth provider's authorization request.
 * Passkeys sign in with `signIn` of `gatehouse-auth/webauthn`, which uses this provider's base path.
 *
 * @example
 * ```tsx
 * <button onClick={() => signIn()}>Sign in</button>
 * <button onClick={() => signIn("google", { redirectTo: "/account" }, { prompt: "select_account" })}>Google</button>
 * ```
 */
export async function signIn(provider?: string, options?: SignInOptions, authorizationParams?: SignInAuthorizationParams): Promise<AuthResult | undefined> {
  if (provider === undefined) {
    const callbackUrl = options?.redirectTo ?? options?.callbackUrl ?? location.href
    location.assign(`${options?.basePath ?? currentBasePath}/signin?${new URLSearchParams({ callbackUrl })}`)
    return undefined
  }
  const result = await client.signIn(provider, withBasePath(options), authorizationParams)
  announce()
  return result
}

/** `gatehouse-auth/client`'s `signOut`, at the provider's base path; other tabs are told. */
export async function signOut(options?: SignOutOptions): Promise<AuthResult | undefined> {
  const result = await client.signOut(withBasePath(options))
  announce()
  return result
}

/** `gatehouse-auth/client`'s `getSession`, at the provider's base path. */
export const getSession = async (options?: client.BasePathOption): Promise<SessionData> => (await client.getSession(withBasePath(options))) as SessionData
/** `gatehouse-auth/client`'s `getCsrfToken`, at the provider's base path. */
export const getCsrfToken = (options?: client.BasePathOption): Promise<string | undefined> => client.getCsrfToken(withBasePath(options))
/** `gatehouse-auth/client`'s `getProviders`, at the provider's base path. */
export const getProviders = (options?: client.BasePathOption): ReturnType<typeof client.getProviders> => client.getProviders(withBasePath(options))

export type { AuthResult, BasePathOption, ProviderEntry, ProviderListing, SignInOptions, SignOutOptions } from "../client/index.js"

/** next-auth's name for the OAuth authorization parameters {@link signIn} takes third. */
export type SignInAuthorizationParams = AuthorizationParams
/** next-auth's name for what {@link signIn} resolves to when it does not navigate away. */
export type SignInResponse = AuthResult
/** next-auth's name for the options of {@link signOut}. */
export type SignOutParams = SignOutOptions
/** next-auth's name for the options of {@link getSession}: where the auth routes are. */
export type GetSessionParams = client.BasePathOption

/**
 * Gatehouse in a SolidStart app's browser code: sign in and out, read and update the session, at
 * the prefix `SignalAuth` serves (`/api/auth` unless told); and `createSession`, the session as a
 * Solid signal. The server reads sessions with `gatehouse-auth/solid-start`'s `getSession`
 * instead. Passkeys sign in with `signIn` of `gatehouse-auth/webauthn`, which finds the routes
 * at this module's `/api/auth` (give it `basePath` for another prefix).
 *
 * @example
 * ```tsx
 * import { createSession, signIn, signOut } from "gatehouse-auth/solid-start/client"
 *
 * const session = createSession()
 * <Show when={session()?.user} fallback={<button onClick={() => signIn("github")}>Sign in</button>}>
 *   {(user) => <button onClick={() => signOut({ redirectTo: "/" })}>Sign out {user().name}</button>}
 * </Show>
 * await signIn("credentials", { email, password, redirectTo: "/account" })
 * ```
 * @module gatehouse-auth/solid-start/client
 */
import { createSignal, onMount } from "solid-js"
import * as client from "../client/index.js"
import type { AuthResult, ProviderListing } from "../client/index.js"
import type { Session } from "../types.js"

export type { AuthResult, ProviderListing }

/** @auth/solid-start's name for the OAuth authorization parameters {@link signIn} takes third. */
export type SignInAuthorizationParams = client.AuthorizationParams
/** @auth/solid-start's name for what {@link signIn} resolves to when it does not navigate away. */
export type SignInResponse = AuthResult

/**
 * Where the auth routes are.
 *
 * @example
 * ```ts
 * // the route file is src/routes/auth/[...auth].ts and SignalAuth has prefix: "/auth"
 * await signOut({ prefix: "/auth" })
 * ```
 */
export interface PrefixOption {
  /** The `prefix` given to `SignalAuth` (the route file's folder). Default `/api/auth`. */
  prefix?: string
}

/**
 * Options of {@link signIn}. Other fields are posted with the sign-in (`email`, credentials fields).
 *
 * @example
 * ```ts
 * await signIn("nodemailer", { email: "ada@example.com", redirectTo: "/account" })
 * ```
 */
export interface SignInOptions extends client.SignInFields, PrefixOption {}

/**
 * Options of {@link signOut}.
 *
 * @example
 * ```ts
 * const { url } = (await signOut({ redirect: false }))!
 * ```
 */
export interface SignOutOptions extends client.SignOutFields, PrefixOption {}

/**
 * The session as a signal: call it in JSX or an effect.
 *
 * @example
 * ```tsx
 * const session = createSession()
 * <button onClick={() => session.update({ name: "Ada" })}>{session()?.user?.name}</button>
 * ```
 */
export interface SessionSignal {
  /** The session, `null` when signed out, `undefined` until the first fetch answered (and on the server). */
  (): Session | null | undefined
  /** Fetches the session again (after signing in without navigating, say). */
  refetch(): Promise<Session | null>
  /** Sends `data` through the `jwt`/`session` callbacks' update trigger, and shows the new session. */
  update(data?: unknown): Promise<Session | null>
}

const PREFIX = "/api/auth"
// Where `gatehouse-auth/webauthn`'s `signIn` finds the routes when given no `basePath` (a global
// under a registered symbol, since that module imports nothing).
;((globalThis as Record<symbol, { basePath?: string } | undefined>)[Symbol.for("gatehouse-auth.page-client")] ??= {}).basePath ??= PREFIX

/**
 * Signs in with `provider` (its id) at the prefix: credentials and email post their fields; OAuth
 * providers navigate to the provider, with `authorizationParams` added to the authorization
 * request. Passkey providers sign in with `signIn` of `gatehouse-auth/webauthn`.
 *
 * @throws as `gatehouse-auth/client`'s `signIn`: an unknown provider, or a passkey provider.
 * @example
 * ```ts
 * const result = await signIn("credentials", { email, password, redirect: false })
 * if (!result?.ok) setError(result?.error ?? "failed")
 * ```
 */
export function signIn(provider: string, options: SignInOptions = {}, authorizationParams?: client.AuthorizationParams): Promise<AuthResult | undefined> {
  const { prefix = PREFIX, ...rest } = options
  return client.signIn(provider, { ...rest, basePath: prefix }, authorizationParams)
}

/**
 * Signs out at the prefix, then navigates to `redirectTo` unless `redirect` is `false`.
 *
 * @example
 * ```ts
 * await signOut({ redirectTo: "/" })
 * ```
 */
export function signOut(options: SignOutOptions = {}): Promise<AuthResult | undefined> {
  const { prefix = PREFIX, ...rest } = options
  return client.signOut({ ...rest, basePath: prefix })
}

/**
 * The session, fetched from the prefix's session route, or `null` when signed out.
 *
 * @example
 * ```ts
 * const session = await getSession()
 * ```
 */
export async function getSession(options: PrefixOption = {}): Promise<Session | null> {
  return (await client.getSession({ basePath: options.prefix ?? PREFIX })) as Session | null
}

/**
 * The session as a Solid signal, fetched once the component is mounted in the browser. For pages,
 * prefer reading it on the server (a query with `getSession` from `gatehouse-auth/solid-start`);
 * this is for components that update it or follow it after a sign-in without navigation.
 *
 * @example
 * ```tsx
 * const session = createSession()
 * return <p>{session() === undefined ? "…" : session()?.user?.name ?? "Signed out"}</p>
 * ```
 */
export function createSession(options: PrefixOption = {}): SessionSignal {
  const basePath = options.prefix ?? PREFIX
  const [session, setSession] = createSignal<Session | null | undefined>(undefined)
  const settle = (next: Record<string, unknown> | null): Session | null => {
    const value = next as Session | null
    setSession(() => value)
    return value
  }
  const refetch = async () => settle(await client.getSession({ basePath }))
  const update = async (data?: unknown) => settle(await client.updateSession(data, { basePath }))
  // A network failure leaves the signal as it was (still undefined: not known).
  onMount(() => void refetch().catch(() => undefined))
  return Object.assign(() => session(), { refetch, update })
}

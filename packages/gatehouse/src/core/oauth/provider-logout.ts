/**
 * OpenID Connect RP-Initiated Logout 1.0: after a sign-out asked to end the session at the
 * provider too (`provider` posted with the sign-out), the browser goes to the provider's
 * `end_session_endpoint` with `id_token_hint`, `client_id` and `post_logout_redirect_uri` (the
 * sign-out's callback URL, already through the redirect callback's same-origin rule), and the
 * provider sends it back there once its own session ended.
 *
 * Only for the provider the session came from (the session remembers it when the provider's
 * metadata offered an end-session endpoint at sign-in). Any other provider, a provider without
 * the endpoint or one that cannot be reached makes it a plain sign-out: the session here has
 * ended whatever happens at the provider, and a person asking to sign out is never left signed in.
 * No `state` is sent: the provider returns the browser to the application's page, where no one
 * would check it.
 * @module
 */
import type { OAuthConfig } from "../../providers/types.js"
import { callAdapter } from "../adapter-call.js"
import { logError } from "../logger.js"
import type { RequestContext } from "../request-context.js"
import { sessionOrigin } from "../sessions/index.js"
import { authorizationServer } from "./authorization-server.js"

/** A provider sign-out to run once the session here has ended. */
export interface ProviderLogout {
  provider: OAuthConfig
  /** The ID token of the sign-in, for `id_token_hint`; `undefined` when it was not kept. */
  idToken: string | undefined
}

/**
 * The provider sign-out `providerId` asks for, read before the session ends (the row goes with it):
 * `undefined`, and a plain sign-out, unless the request's session came from that OIDC provider.
 * An adapter failure while looking for the ID token only drops the hint.
 */
export async function providerLogoutOf(ctx: RequestContext, providerId: string): Promise<ProviderLogout | undefined> {
  const provider = ctx.config.providers.find((candidate) => candidate.id === providerId)
  if (provider?.type !== "oidc") {
    ctx.logger.debug("provider-logout", `No OIDC provider ${JSON.stringify(providerId)}: a plain sign-out`)
    return undefined
  }
  const origin = await sessionOrigin(ctx).catch((error: unknown) => {
    logError(ctx.logger, error)
    return null
  })
  if (origin?.provider !== provider.id) {
    ctx.logger.debug("provider-logout", `The session did not come from ${JSON.stringify(providerId)}: a plain sign-out`)
    return undefined
  }
  return { provider, idToken: origin.idToken ?? (await storedIdToken(ctx, provider.id, origin.userId)) }
}

/**
 * Where the browser goes to end the provider's session: its `end_session_endpoint` with the
 * parameters above, or `undefined` (a plain sign-out) when its metadata names none or it cannot
 * be read (logged).
 */
export async function endSessionUrl(ctx: RequestContext, logout: ProviderLogout, postLogoutRedirectUri: string): Promise<string | undefined> {
  const endpoint = await endSessionEndpoint(ctx, logout.provider)
  if (!endpoint) return undefined
  const url = new URL(endpoint)
  if (logout.idToken) url.searchParams.set("id_token_hint", logout.idToken)
  if (logout.provider.clientId) url.searchParams.set("client_id", logout.provider.clientId)
  url.searchParams.set("post_logout_redirect_uri", postLogoutRedirectUri)
  return url.href
}

/**
 * The provider the built-in sign-out page offers to sign out of too: the one the session came
 * from, when its metadata names an end-session endpoint; else `undefined`.
 */
export async function providerLogoutChoice(ctx: RequestContext): Promise<{ id: string; name: string } | undefined> {
  const origin = await sessionOrigin(ctx).catch(() => null)
  const provider = origin && ctx.config.providers.find((candidate) => candidate.id === origin.provider)
  if (provider?.type !== "oidc" || !(await endSessionEndpoint(ctx, provider))) return undefined
  return { id: provider.id, name: provider.name }
}

async function endSessionEndpoint(ctx: RequestContext, provider: OAuthConfig): Promise<string | undefined> {
  try {
    const endpoint = (await authorizationServer(provider)).end_session_endpoint
    return typeof endpoint === "string" && /^https?:\/\//.test(endpoint) ? endpoint : undefined
  } catch (error) {
    logError(ctx.logger, error)
    return undefined
  }
}

/** The ID token the adapter kept with the user's account at `provider` (Auth.js's layout keeps it in the account row). */
async function storedIdToken(ctx: RequestContext, provider: string, userId: string | undefined): Promise<string | undefined> {
  const { adapter } = ctx.config
  if (userId === undefined || typeof adapter?.listAccountsByUserId !== "function") return undefined
  try {
    const accounts = await callAdapter(adapter, "listAccountsByUserId", userId)
    const account = accounts.find((candidate) => candidate.provider === provider && typeof candidate.id_token === "string" && candidate.id_token !== "")
    return account?.id_token as string | undefined
  } catch (error) {
    logError(ctx.logger, error)
    return undefined
  }
}

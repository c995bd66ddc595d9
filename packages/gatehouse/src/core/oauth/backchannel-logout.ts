/**
 * `POST {basePath}/backchannel-logout/<provider>` (with `backchannelLogout: true`): OpenID Connect
 * Back-Channel Logout 1.0. The provider posts a signed `logout_token`; when it is genuine, fresh,
 * meant for this client and never seen before, the sessions it names end: those started under
 * its `sid` (database rows at once; JWT sessions at their next revocation check, within
 * `session.revocationCheckAge`), or with only `sub`, every session of the user owning that account.
 * The answer is 200, or 400 with an OAuth error body; never cached.
 * @module
 */
import { AdapterError, AuthError, InvalidLogoutToken, ProviderUnavailable, ServerBusy } from "../../errors.js"
import type { OAuthConfig } from "../../providers/types.js"
import { callAdapter } from "../adapter-call.js"
import { countEvent, secretKeyed } from "../event-counter.js"
import { NO_CACHE_HEADERS, type ResponseInternal } from "../internal-response.js"
import { logError } from "../logger.js"
import type { RequestContext } from "../request-context.js"
import { idpSessionKey } from "../sessions/idp-session.js"
import { raiseSessionVersion } from "../sessions/session-version.js"
import { sessionRevoker } from "../sign-out-everywhere.js"
import { authorizationServer } from "./authorization-server.js"
import { verifyProviderJws } from "./provider-keys.js"

const LOGOUT_EVENT = "http://schemas.openid.net/event/backchannel-logout"
/** How old (`iat`) a logout token may be, in seconds: the provider sends it when the session ends. */
const LOGOUT_TOKEN_MAX_AGE = 300
/** Clock difference tolerated, in seconds, as for session tokens. */
const CLOCK_TOLERANCE = 15

/** Answers one back-channel logout request; never throws for anything the caller sent. */
export async function backchannelLogout(ctx: RequestContext): Promise<ResponseInternal> {
  try {
    await endLoggedOutSessions(ctx)
    return { status: 200, headers: { ...NO_CACHE_HEADERS } }
  } catch (error) {
    logError(ctx.logger, error)
    if (error instanceof InvalidLogoutToken) return refusal(400, "invalid_request", error.message)
    // The database, the shared counters or the provider's server could not be reached: the
    // provider may try again (the token's jti may be spent already, see SECURITY.md).
    if (error instanceof AdapterError || error instanceof ServerBusy || error instanceof ProviderUnavailable) {
      const retryAfter = error instanceof ServerBusy ? error.retryAfter : undefined
      return refusal(503, "temporarily_unavailable", "The sessions could not be ended", retryAfter)
    }
    return refusal(500, "server_error", "The logout could not be processed")
  }
}

function refusal(status: number, error: string, description: string, retryAfter?: number): ResponseInternal {
  return {
    status,
    headers: { "Content-Type": "application/json", ...NO_CACHE_HEADERS, ...(retryAfter !== undefined && { "Retry-After": String(retryAfter) }) },
    body: { error, error_description: description },
  }
}

async function endLoggedOutSessions(ctx: RequestContext): Promise<void> {
  const provider = ctx.provider
  if (!provider || provider.type !== "oidc") throw new InvalidLogoutToken("Back-channel logout is for the OIDC providers configured")
  const token = ctx.request.body?.logout_token
  if (typeof token !== "string" || token === "" || token.length > 16_384) throw new InvalidLogoutToken("No logout_token in the form")
  const as = await authorizationServer(provider).catch((error: unknown) => {
    throw new ProviderUnavailable(`The discovery document of ${JSON.stringify(provider.id)} could not be fetched`, { cause: error })
  })
  if (!as.jwks_uri) throw new AuthError(`Provider ${JSON.stringify(provider.id)} publishes no jwks_uri`)
  const verified = await verifyProviderJws(provider, as.jwks_uri, token, ctx.logger)
  if (!verified) throw new InvalidLogoutToken("The logout token is not signed by the provider's keys")
  const typ = verified.header.typ
  // A string (RFC 7515, 4.1.9) or absent: String() of ["logout+jwt"] would pass the pattern.
  if (typ !== undefined && (typeof typ !== "string" || !/^(application\/)?(logout\+jwt|jwt)$/i.test(typ))) throw new InvalidLogoutToken(`The logout token's typ is ${JSON.stringify(typ)}`)
  const { sid, sub, jti } = checkedClaims(verified.claims, as.issuer, provider.clientId ?? "")

  // Single use, shared by every instance: counted before anything ends, over the whole time the
  // token could be accepted, by the adapter's hitRateLimit when it has one even with a shared
  // store (durable), since a store restarted empty would accept a captured token again.
  const key = `backchannel-logout:${await secretKeyed(ctx, JSON.stringify([provider.id, as.issuer, jti]))}`
  const spent = await countEvent(ctx, key, LOGOUT_TOKEN_MAX_AGE + 2 * CLOCK_TOLERANCE, { durable: true })
  if (spent.count > 1) throw new InvalidLogoutToken("The logout token was used before")

  if (sid !== undefined) await endIdpSession(ctx, provider, sid)
  else await endUserSessions(ctx, provider, sub!)
}

/**
 * The claims a logout token must have (Back-Channel Logout 1.0, section 2.6): this issuer, this
 * client in `aud`, a fresh `iat`, an unexpired `exp` when present, the logout event, `sid` or
 * `sub`, a `jti`, and no `nonce` (which would make an ID token pass as one).
 */
function checkedClaims(claims: Record<string, unknown>, issuer: string, clientId: string): { sid?: string; sub?: string; jti: string } {
  const refuse = (why: string): never => {
    throw new InvalidLogoutToken(why)
  }
  if (claims.iss !== issuer) refuse("The logout token is from another issuer")
  const aud = claims.aud
  if (!(aud === clientId || (Array.isArray(aud) && aud.includes(clientId))) || clientId === "") refuse("The logout token is for another client")
  const now = Math.floor(Date.now() / 1000)
  const iat = claims.iat
  if (typeof iat !== "number" || !Number.isFinite(iat)) refuse("The logout token has no iat")
  if ((iat as number) > now + CLOCK_TOLERANCE) refuse("The logout token was issued in the future")
  if ((iat as number) < now - LOGOUT_TOKEN_MAX_AGE - CLOCK_TOLERANCE) refuse("The logout token is too old")
  if (claims.exp !== undefined && (typeof claims.exp !== "number" || claims.exp < now - CLOCK_TOLERANCE)) refuse("The logout token has expired")
  const events = claims.events
  const event = events !== null && typeof events === "object" && !Array.isArray(events) ? (events as Record<string, unknown>)[LOGOUT_EVENT] : undefined
  if (event === null || typeof event !== "object" || Array.isArray(event)) refuse("The logout token has no back-channel logout event")
  if ("nonce" in claims) refuse("A logout token must not have a nonce")
  const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" && value.length <= 255 ? value : undefined)
  const sid = text(claims.sid)
  const sub = text(claims.sub)
  if (claims.sid !== undefined && sid === undefined) refuse("The logout token's sid is not a string")
  if (claims.sub !== undefined && sub === undefined) refuse("The logout token's sub is not a string")
  if (sid === undefined && sub === undefined) refuse("The logout token names neither sid nor sub")
  const jti = text(claims.jti)
  if (jti === undefined) refuse("The logout token has no jti")
  return { ...(sid !== undefined && { sid }), ...(sub !== undefined && { sub }), jti: jti! }
}

/**
 * Ends the sessions started under the provider session `sid`, as the configured strategy keeps
 * them: the database rows that name it, or JWT sessions carrying its key, through that key's
 * session version (a session of the other strategy is never read, so nothing is left behind).
 */
async function endIdpSession(ctx: RequestContext, provider: OAuthConfig, sid: string): Promise<void> {
  const { adapter, session } = ctx.config
  const rows = typeof adapter?.deleteSessionsByIdpSid === "function"
  const versions = typeof adapter?.incrementSessionVersion === "function"
  const needed = session.strategy === "jwt" ? versions : rows
  if (!needed) {
    throw new AuthError(
      `Back-channel logout by sid needs an adapter with ${session.strategy === "jwt" ? "incrementSessionVersion" : "deleteSessionsByIdpSid"}`,
    )
  }
  if (session.strategy === "jwt") await raiseSessionVersion(ctx.config, await idpSessionKey({ provider: provider.id, sid }))
  else await callAdapter(adapter, "deleteSessionsByIdpSid", provider.id, sid)
}

/** Ends every session of the user who owns the provider's account `sub` (none when nobody does). */
async function endUserSessions(ctx: RequestContext, provider: OAuthConfig, sub: string): Promise<void> {
  const revoke = sessionRevoker(ctx.config)
  const user = await callAdapter(ctx.config.adapter, "getUserByAccount", { provider: provider.id, providerAccountId: sub })
  if (user) await revoke(user.id)
}

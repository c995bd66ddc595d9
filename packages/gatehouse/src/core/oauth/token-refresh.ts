/**
 * Swapping a refresh token for new tokens at a provider's token endpoint, for providers with
 * `refreshAccessToken`. Concurrent requests carrying the same refresh token share one refresh,
 * and requests that arrive shortly after it (still holding the old cookie) get its result: a
 * provider that rotates refresh tokens would refuse the old one a second time.
 * @module
 */
import * as o from "oauth4webapi"
import { RefreshAccessTokenError } from "../../errors.js"
import type { OAuthConfig } from "../../providers/types.js"
import type { Account, LoggerInstance } from "../../types.js"
import { logError } from "../logger.js"
import { authorizationServer, idTokenIssuer, requestOptions } from "./authorization-server.js"
import { clientAuthentication, clientOf } from "./client-auth.js"
import { accountFields, tokenSetOf } from "./token-set.js"

/** Seconds before `expires_at` at which a token counts as expired: it must outlive the request using it. */
const EXPIRY_MARGIN = 60
/** How long a refresh's result is handed to requests still holding the refresh token it replaced. */
const REFRESHED_GRACE_MS = 60_000
/** How long a refused refresh token is not tried again, so a dead one does not hit the provider on every read. */
const REFUSED_GRACE_MS = 10 * 60_000

/** The outcome of a refresh. */
export type RefreshOutcome =
  /** New account fields to merge over the old ones (a missing `refresh_token` keeps the old one). */
  | { status: "refreshed"; fields: Partial<Account> }
  /** The provider said no: the refresh token is revoked, expired or spent. */
  | { status: "refused"; reason: string }
  /** The provider could not be asked or answered nonsense; worth trying again later. */
  | { status: "failed"; error: unknown }

/** The OAuth provider with this id, if it has `refreshAccessToken` on. */
export function refreshingProvider(providers: readonly { id: string; type: string }[], id: unknown): OAuthConfig | undefined {
  const provider = providers.find((candidate) => candidate.id === id) as OAuthConfig | undefined
  return provider && (provider.type === "oauth" || provider.type === "oidc") && provider.refreshAccessToken === true
    ? provider
    : undefined
}

/** Whether an access token expiring at `expiresAt` (seconds since the epoch) needs refreshing now. */
export function isExpiring(expiresAt: unknown, now = Date.now()): boolean {
  return typeof expiresAt === "number" && Number.isFinite(expiresAt) && expiresAt - EXPIRY_MARGIN <= now / 1000
}

interface Flight {
  outcome: Promise<RefreshOutcome>
  /** When the settled outcome stops being handed out (ms); `Infinity` while in flight. */
  until: number
}

const flights = new Map<string, Flight>()

/** What a refresh needs. */
export interface RefreshRequest {
  provider: OAuthConfig
  refreshToken: string
  /** Where refusals and failures are reported, once per refresh rather than once per caller. */
  logger: LoggerInstance
  /** Stores the new fields before anyone is told of them; a failure counts as a failed refresh. */
  persist?: (fields: Partial<Account>) => Promise<void>
}

/**
 * New tokens for `refreshToken`, asked of the provider (and persisted) at most once per refresh
 * token within the grace periods, whatever the number of callers.
 */
export function refreshAccessToken(request: RefreshRequest): Promise<RefreshOutcome> {
  const { provider, refreshToken } = request
  const now = Date.now()
  for (const [key, flight] of flights) if (flight.until <= now) flights.delete(key)
  const key = JSON.stringify([provider.id, provider.clientId ?? "", refreshToken])
  const existing = flights.get(key)
  if (existing) return existing.outcome

  const flight: Flight = { outcome: refreshOnce(request), until: Infinity }
  flights.set(key, flight)
  void flight.outcome.then((outcome) => {
    if (outcome.status === "failed") flights.delete(key)
    else flight.until = Date.now() + (outcome.status === "refreshed" ? REFRESHED_GRACE_MS : REFUSED_GRACE_MS)
  })
  return flight.outcome
}

async function refreshOnce({ provider, refreshToken, logger, persist }: RefreshRequest): Promise<RefreshOutcome> {
  let outcome = await askProvider(provider, refreshToken)
  if (outcome.status === "refreshed" && persist) {
    try {
      await persist(outcome.fields)
    } catch (error) {
      outcome = { status: "failed", error }
    }
  }
  const about = { cause: { provider: provider.id } }
  if (outcome.status === "refused") {
    logError(logger, new RefreshAccessTokenError(`The provider refused to refresh the access token: ${outcome.reason}`, about))
  } else if (outcome.status === "failed") {
    const cause = { ...about.cause, err: outcome.error instanceof Error ? outcome.error : new Error(String(outcome.error)) }
    logError(logger, new RefreshAccessTokenError("The access token could not be refreshed; the next session read tries again", { cause }))
  }
  return outcome
}

async function askProvider(provider: OAuthConfig, refreshToken: string): Promise<RefreshOutcome> {
  try {
    const as = await authorizationServer(provider)
    const client = clientOf(provider)
    let response = await o.refreshTokenGrantRequest(
      as,
      client,
      await clientAuthentication(provider),
      refreshToken,
      requestOptions(provider),
    )
    if (typeof provider.token === "object" && provider.token.conform) response = (await provider.token.conform(response)) ?? response
    const refusal = await errorWithSuccessStatus(response)
    if (refusal) return { status: "refused", reason: refusal }
    const issuer = await idTokenIssuer(provider, response, as.issuer)
    const tokens = await o.processRefreshTokenResponse({ ...as, issuer }, client, response)
    return { status: "refreshed", fields: accountFields(provider, tokenSetOf(tokens)) }
  } catch (error) {
    // A 4xx OAuth error is the provider's answer about this token; 5xx and the rest are outages.
    if (error instanceof o.ResponseBodyError && error.status < 500) return { status: "refused", reason: error.error }
    return { status: "failed", error }
  }
}

/** GitHub answers OAuth errors with HTTP 200: `{ "error": "bad_refresh_token" }`. */
async function errorWithSuccessStatus(response: Response): Promise<string | undefined> {
  if (response.status !== 200) return undefined
  try {
    const body = (await response.clone().json()) as { error?: unknown; access_token?: unknown }
    return typeof body.error === "string" && body.access_token === undefined ? body.error : undefined
  } catch {
    return undefined
  }
}

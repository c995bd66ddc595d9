/**
 * Swapping a refresh token for new tokens at a provider's token endpoint, for providers with
 * `refreshAccessToken`. Concurrent requests carrying the same refresh token share one refresh,
 * and requests that arrive shortly after it (still holding the old cookie) get its result: a
 * provider that rotates refresh tokens would refuse the old one a second time.
 *
 * With a `sharedStore`, the same holds across instances: the first to take a short lock in the
 * store asks the provider and leaves the outcome there, sealed with the secret (it holds tokens);
 * the others wait for it. While the store cannot be reached nothing is refreshed (the outcome is
 * "failed": sessions keep their tokens and a later read tries again), since refreshing without the
 * lock could spend one refresh token twice.
 * @module
 */
import * as o from "oauth4webapi"
import { sha256Hex } from "../../encoding/hex.js"
import { RefreshAccessTokenError, SharedStoreError } from "../../errors.js"
import { decode, encode } from "../../jwt/index.js"
import type { OAuthConfig } from "../../providers/types.js"
import type { Account, LoggerInstance } from "../../types.js"
import { logError } from "../logger.js"
import { storeCall, type StoreConfig } from "../shared-store.js"
import { authorizationServer, conformed, idTokenIssuer, requestOptions } from "./authorization-server.js"
import { clientAuthentication, clientOf } from "./client-auth.js"
import { loggableError } from "./protocol-error.js"
import { errorWithSuccessStatus } from "./token-error.js"
import { accountFields, tokenSetOf } from "./token-set.js"

/** How long an outcome is handed out again instead of asking the provider, by status (ms). */
const REUSE_MS: Record<RefreshOutcome["status"], number> = {
  // To requests still holding the refresh token the refresh replaced.
  refreshed: 60_000,
  // A dead refresh token must not hit the provider (and fill the log) on every read.
  refused: 10 * 60_000,
  // A provider that is down is asked again, but not by every read of every user at once.
  failed: 30_000,
}
/** A token endpoint that does not answer within this long counts as down. */
const REQUEST_TIMEOUT_MS = 10_000
/** The cross-instance lock outlives a refresh that runs into the timeout, and then frees itself (s). */
const LOCK_SECONDS = REQUEST_TIMEOUT_MS / 1000 + 10
/** How often an instance waiting for another's refresh looks for its outcome (ms). */
const POLL_MS = 25
const OUTCOME_SALT = "gatehouse.oauth-refresh-outcome"
/** The errors that say this refresh token is dead; GitHub says `bad_refresh_token`. Any other is an outage or misconfiguration. */
const DEAD_TOKEN_ERRORS: ReadonlySet<string> = new Set(["invalid_grant", "bad_refresh_token"])

/** The outcome of a refresh. */
export type RefreshOutcome =
  /** New account fields to merge over the old ones (a missing `refresh_token` keeps the old one). */
  | { status: "refreshed"; fields: Partial<Account> }
  /** The refresh token is revoked, expired or spent, or there is none. */
  | { status: "refused"; reason: string }
  /** The provider could not be asked, or its answer not used; worth trying again later. */
  | { status: "failed"; error: unknown }

/** What a refresh needs. */
export interface RefreshRequest {
  provider: OAuthConfig
  /** Empty when the provider never gave one: that refusal is shared and logged once too. */
  refreshToken: string
  /** Where refusals and failures are reported, once per refresh rather than once per caller. */
  logger: LoggerInstance
  /** Stores the new fields before anyone is told of them; a failure counts as a failed refresh. */
  persist?: (fields: Partial<Account>) => Promise<void>
  /** The shared store and the secret that seals outcomes in it; without a store, single flight is per process. */
  shared?: SharedRefresh
}

/** The shared store and the secret that seals refresh outcomes in it. */
type SharedRefresh = StoreConfig & { readonly secret: readonly string[] }

interface Flight {
  outcome: Promise<RefreshOutcome>
  /** When the settled outcome stops being handed out (ms); `Infinity` while in flight. */
  until: number
}

const flights = new Map<string, Flight>()

/**
 * New tokens for `refreshToken`, asked of the provider (and persisted) at most once per refresh
 * token while its outcome is reused, whatever the number of callers.
 */
export function refreshAccessToken(request: RefreshRequest): Promise<RefreshOutcome> {
  const { provider, refreshToken } = request
  const now = Date.now()
  for (const [key, flight] of flights) if (flight.until <= now) flights.delete(key)
  const key = JSON.stringify([provider.id, provider.clientId ?? "", refreshToken])
  const existing = flights.get(key)
  if (existing) return existing.outcome

  const flight: Flight = { outcome: request.shared?.sharedStore ? refreshShared(request, request.shared, key) : refreshOnce(request), until: Infinity }
  flights.set(key, flight)
  flight.outcome.then(
    (outcome) => (flight.until = Date.now() + REUSE_MS[outcome.status]),
    () => flights.delete(key),
  )
  return flight.outcome
}

/**
 * The refresh of `request` once across every instance sharing the store: the lock's holder asks the
 * provider and leaves the sealed outcome for the others, who wait for it (up to the lock's life).
 */
async function refreshShared(request: RefreshRequest, shared: SharedRefresh, flightKey: string): Promise<RefreshOutcome> {
  const id = await sha256Hex(flightKey)
  const lockKey = `oauth-refresh-lock:${id}`
  const outcomeKey = `oauth-refresh:${id}`
  const unreachable: RefreshOutcome = { status: "failed", error: new SharedStoreError("The shared store is unreachable; the access token is refreshed once it is back") }
  const deadline = Date.now() + LOCK_SECONDS * 1000
  for (;;) {
    const stored = await storeCall(shared, "token-refresh", (store) => store.get(outcomeKey))
    if (!stored.ok) return unreachable
    if (stored.value !== null) return openOutcome(stored.value, shared.secret)
    const locked = await storeCall(shared, "token-refresh", (store) => store.setIfAbsent(lockKey, "1", LOCK_SECONDS))
    if (!locked.ok) return unreachable
    if (locked.value) {
      const outcome = await refreshOnce(request)
      const sealed = await sealOutcome(outcome, shared.secret)
      await storeCall(shared, "token-refresh", (store) => store.set(outcomeKey, sealed, REUSE_MS[outcome.status] / 1000))
      await storeCall(shared, "token-refresh", (store) => store.delete(lockKey))
      return outcome
    }
    if (Date.now() > deadline) return { status: "failed", error: new SharedStoreError("Another instance's refresh of this token did not finish in time") }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
}

/** An outcome as the store keeps it: encrypted with the secret (it holds tokens), the error left out. */
async function sealOutcome(outcome: RefreshOutcome, secret: readonly string[]): Promise<string> {
  const kept =
    outcome.status === "refreshed" ? { status: outcome.status, fields: outcome.fields } : outcome.status === "refused" ? outcome : { status: outcome.status }
  return encode({ token: { outcome: kept }, secret: [...secret], salt: OUTCOME_SALT, maxAge: REUSE_MS.refused / 1000 })
}

async function openOutcome(sealed: string, secret: readonly string[]): Promise<RefreshOutcome> {
  try {
    const payload = await decode({ token: sealed, secret: [...secret], salt: OUTCOME_SALT })
    const outcome = payload?.outcome as RefreshOutcome | undefined
    if (outcome?.status === "refreshed" && typeof outcome.fields === "object") return outcome
    if (outcome?.status === "refused") return { status: "refused", reason: String(outcome.reason) }
    return { status: "failed", error: new SharedStoreError("Another instance's refresh of this token failed; a later read tries again") }
  } catch (error) {
    return { status: "failed", error }
  }
}

async function refreshOnce({ provider, refreshToken, logger, persist }: RefreshRequest): Promise<RefreshOutcome> {
  let outcome: RefreshOutcome = refreshToken
    ? await askProvider(provider, refreshToken)
    : { status: "refused", reason: "the access token expired and there is no refresh token to renew it with" }
  if (outcome.status === "refreshed" && persist) {
    try {
      await persist(outcome.fields)
    } catch (error) {
      outcome = { status: "failed", error }
    }
  }
  if (outcome.status === "refused") {
    logError(logger, new RefreshAccessTokenError(`The access token could not be refreshed: ${outcome.reason}`, { cause: { provider: provider.id } }))
  } else if (outcome.status === "failed") {
    const cause = { provider: provider.id, err: loggableError(outcome.error) }
    logError(logger, new RefreshAccessTokenError("The access token could not be refreshed for now; a later session read tries again", { cause }))
  }
  return outcome
}

async function askProvider(provider: OAuthConfig, refreshToken: string): Promise<RefreshOutcome> {
  try {
    const as = await authorizationServer(provider)
    const client = clientOf(provider)
    const response = await conformed(
      provider,
      await o.refreshTokenGrantRequest(as, client, await clientAuthentication(provider), refreshToken, {
        ...requestOptions(provider),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      }),
    )
    const error = await errorWithSuccessStatus(response)
    if (error) return errorOutcome(error, new TypeError(`The token endpoint answered 200 with error ${JSON.stringify(error)}`))
    const issuer = await idTokenIssuer(provider, response, as.issuer)
    const tokens = await o.processRefreshTokenResponse({ ...as, issuer }, client, response)
    return { status: "refreshed", fields: accountFields(provider, tokenSetOf(tokens)) }
  } catch (error) {
    return error instanceof o.ResponseBodyError ? errorOutcome(error.error, error) : { status: "failed", error }
  }
}

function errorOutcome(oauthError: string, error: unknown): RefreshOutcome {
  return DEAD_TOKEN_ERRORS.has(oauthError) ? { status: "refused", reason: `the provider answered ${oauthError}` } : { status: "failed", error }
}

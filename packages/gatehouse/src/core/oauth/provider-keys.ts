/**
 * Verifying a JWS compact token signed by an OIDC provider with a key of its JSON Web Key Set
 * (`jwks_uri` from discovery), on Web Crypto: what back-channel logout tokens need. ID tokens
 * come straight from the token endpoint over TLS and are not verified this way; a logout token is
 * posted by anyone who can reach the server, so its signature is everything.
 * @module
 */
import { decodeBase64url } from "../../encoding/base64.js"
import { ProviderUnavailable, ServerBusy } from "../../errors.js"
import type { OAuthConfig } from "../../providers/types.js"
import type { LoggerInstance } from "../../types.js"
import { logError } from "../logger.js"
import { providerFetch } from "./authorization-server.js"

/** Asymmetric signature algorithms only: `none` and HMAC (keyed with a shared secret) never pass. */
const ALGORITHMS: Readonly<Record<string, { kty: string; params: RsaHashedImportParams | EcKeyImportParams | Algorithm; verify: AlgorithmIdentifier | RsaPssParams | EcdsaParams }>> = {
  RS256: { kty: "RSA", params: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, verify: { name: "RSASSA-PKCS1-v1_5" } },
  RS384: { kty: "RSA", params: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-384" }, verify: { name: "RSASSA-PKCS1-v1_5" } },
  RS512: { kty: "RSA", params: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-512" }, verify: { name: "RSASSA-PKCS1-v1_5" } },
  PS256: { kty: "RSA", params: { name: "RSA-PSS", hash: "SHA-256" }, verify: { name: "RSA-PSS", saltLength: 32 } },
  PS384: { kty: "RSA", params: { name: "RSA-PSS", hash: "SHA-384" }, verify: { name: "RSA-PSS", saltLength: 48 } },
  PS512: { kty: "RSA", params: { name: "RSA-PSS", hash: "SHA-512" }, verify: { name: "RSA-PSS", saltLength: 64 } },
  ES256: { kty: "EC", params: { name: "ECDSA", namedCurve: "P-256" }, verify: { name: "ECDSA", hash: "SHA-256" } },
  ES384: { kty: "EC", params: { name: "ECDSA", namedCurve: "P-384" }, verify: { name: "ECDSA", hash: "SHA-384" } },
  ES512: { kty: "EC", params: { name: "ECDSA", namedCurve: "P-521" }, verify: { name: "ECDSA", hash: "SHA-512" } },
  EdDSA: { kty: "OKP", params: { name: "Ed25519" }, verify: { name: "Ed25519" } },
  Ed25519: { kty: "OKP", params: { name: "Ed25519" }, verify: { name: "Ed25519" } },
}

/** A JWKS is fetched again at most this often (ms) when no key matches a token (key rotation). */
const REFETCH_AFTER_MS = 60_000
/**
 * After a failed fetch, none for this long (ms), doubled with each failure in a row up to
 * {@link MAX_BACKOFF_MS}: the receiver is anonymous, and while the provider's JWKS answers errors
 * every post would otherwise fetch it again.
 */
const FIRST_BACKOFF_MS = 5_000
/** The longest wait between fetches of a failing JWKS (ms): short enough that logouts work again soon after the provider does. */
const MAX_BACKOFF_MS = 120_000
/** Keys a set may hold that are looked at; more is not a key set anyone needs. */
const MAX_KEYS = 50

interface KeySet {
  keys: JsonWebKey[]
  fetchedAt: number
}

/** What is known of one provider's JWKS. */
interface KeyCache {
  /** The last set fetched; kept while later fetches fail. */
  good?: KeySet
  /** The fetch under way, which every caller shares: at most one per provider at a time. */
  inFlight?: Promise<KeySet>
  /** The last fetch failed: none before `retryAt`; the wait after the next failure is twice `backoffMs`. */
  failure?: { retryAt: number; backoffMs: number }
}

const keyCaches = new WeakMap<OAuthConfig, KeyCache>()

/** A verified token: its protected header and claims. */
export interface VerifiedJws {
  header: Record<string, unknown>
  claims: Record<string, unknown>
}

/**
 * The header and claims of `token` when it is a JWS compact token signed with an asymmetric
 * algorithm by a key of `jwksUri` (the key named by `kid`, or any key of that algorithm's type);
 * `undefined` when it is not one or the signature does not verify.
 *
 * @param logger - Where a failed fetch of the key set is logged, once per failure (not once per
 *   token that waited on it).
 * @throws {ServerBusy} when a key set that is needed cannot be had now: its fetch failed, just
 *   now or recently enough that it is not tried again yet (`retryAfter` says when it will be).
 */
export async function verifyProviderJws(provider: OAuthConfig, jwksUri: string, token: string, logger: LoggerInstance): Promise<VerifiedJws | undefined> {
  const parts = token.split(".")
  if (parts.length !== 3) return undefined
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string]
  const header = jsonObject(headerPart)
  const claims = jsonObject(payloadPart)
  const signature = decodeBase64url(signaturePart)
  if (!header || !claims || !signature) return undefined
  const alg = typeof header.alg === "string" ? header.alg : ""
  const algorithm = Object.hasOwn(ALGORITHMS, alg) ? ALGORITHMS[alg]! : undefined
  // `crit` names extensions we would have to understand; `jku`/`jwk`/`x5u` would let the token pick its own key.
  if (!algorithm || "crit" in header || "jku" in header || "jwk" in header || "x5u" in header) return undefined
  const kid = typeof header.kid === "string" ? header.kid : undefined
  const signed = new TextEncoder().encode(`${headerPart}.${payloadPart}`)

  for (const refresh of [false, true]) {
    const set = await keySet(provider, jwksUri, refresh, logger)
    if (!set) break
    const candidates = set.keys.filter(
      (key) =>
        key.kty === algorithm.kty &&
        (kid === undefined || (key as { kid?: unknown }).kid === kid) &&
        (key.use === undefined || key.use === "sig") &&
        (key.alg === undefined || key.alg === alg),
    )
    for (const jwk of candidates) {
      const key = await importKey(jwk, algorithm.params)
      if (key && (await crypto.subtle.verify(algorithm.verify, key, signature, signed))) return { header, claims }
    }
    // A key that matched and failed is a bad signature: fetching the set again would not help.
    if (candidates.length > 0) return undefined
  }
  return undefined
}

/**
 * The provider's key set: the one fetched last, or fetched now when there is none; with `refresh`
 * (no key matched), a newer one, fetched at most once a minute (`undefined` when the last fetch is
 * more recent). A failed fetch leaves the last good set in place.
 *
 * @throws {ServerBusy} when a set that is needed cannot be had: the fetch failed, or failed recently
 *   enough that it is not tried again yet (the receiver answers 503, and the provider may retry).
 */
async function keySet(provider: OAuthConfig, jwksUri: string, refresh: boolean, logger: LoggerInstance): Promise<KeySet | undefined> {
  let cache = keyCaches.get(provider)
  if (!cache) keyCaches.set(provider, (cache = {}))
  const { good } = cache
  if (good && !refresh) return good
  if (good && Date.now() - good.fetchedAt < REFETCH_AFTER_MS) return undefined
  return fetchOnce(cache, provider, jwksUri, logger)
}

/**
 * The fetch in flight, or a new one unless the last failed too recently; its outcome is recorded.
 * A failure is logged here, once, with its cause: every caller that waited on it, and every one
 * refused during the wait after it, gets a {@link ServerBusy} (one warning line each at most).
 */
function fetchOnce(cache: KeyCache, provider: OAuthConfig, jwksUri: string, logger: LoggerInstance): Promise<KeySet> {
  if (cache.inFlight) return cache.inFlight
  const failed = cache.failure
  if (failed && Date.now() < failed.retryAt) {
    const wait = (failed.retryAt - Date.now()) / 1000
    return Promise.reject(new ServerBusy(`The JWKS of ${JSON.stringify(provider.id)} failed recently and is not asked again yet`, { retryAfter: wait }))
  }
  const fetching = fetchKeySet(provider, jwksUri)
    .then(
      (set) => {
        cache.good = set
        cache.failure = undefined
        return set
      },
      (error: unknown) => {
        const backoffMs = failed ? Math.min(failed.backoffMs * 2, MAX_BACKOFF_MS) : FIRST_BACKOFF_MS
        cache.failure = { retryAt: Date.now() + backoffMs, backoffMs }
        const what = `The JWKS of ${JSON.stringify(provider.id)} could not be fetched`
        logError(logger, new ProviderUnavailable(`${what}; it is not asked again for ${backoffMs / 1000} s`, { cause: error }))
        throw new ServerBusy(what, { retryAfter: backoffMs / 1000 })
      },
    )
    .finally(() => {
      cache.inFlight = undefined
    })
  cache.inFlight = fetching
  return fetching
}

/**
 * One fetch of the JWKS, bounded like every request to the provider (`providerFetch`, 10 s with
 * the body): as only one is in flight per provider and failures back off, a JWKS that hangs costs
 * one request per wait, and a post waits no longer than for any other provider request.
 */
async function fetchKeySet(provider: OAuthConfig, jwksUri: string): Promise<KeySet> {
  const response = await providerFetch(provider)(jwksUri, { headers: { accept: "application/jwk-set+json, application/json" } })
  if (!response.ok) throw new TypeError(`The JWKS of ${JSON.stringify(provider.id)} answered ${response.status}`)
  const body = (await response.json()) as { keys?: unknown }
  if (!Array.isArray(body?.keys)) throw new TypeError(`The JWKS of ${JSON.stringify(provider.id)} has no keys`)
  const keys = body.keys.filter((key): key is JsonWebKey => key !== null && typeof key === "object" && !Array.isArray(key)).slice(0, MAX_KEYS)
  return { keys, fetchedAt: Date.now() }
}

async function importKey(jwk: JsonWebKey, params: RsaHashedImportParams | EcKeyImportParams | Algorithm): Promise<CryptoKey | undefined> {
  try {
    // Only the public part: a private member in a published set must not make it a signing key here.
    const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, oth: _oth, key_ops: _ops, ext: _ext, ...publicKey } = jwk
    return await crypto.subtle.importKey("jwk", publicKey, params, false, ["verify"])
  } catch {
    return undefined
  }
}

function jsonObject(part: string): Record<string, unknown> | undefined {
  const bytes = decodeBase64url(part)
  if (!bytes) return undefined
  try {
    const value: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes))
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/**
 * Verifying a JWS compact token signed by an OIDC provider with a key of its JSON Web Key Set
 * (`jwks_uri` from discovery), on Web Crypto: what back-channel logout tokens need. ID tokens
 * come straight from the token endpoint over TLS and are not verified this way; a logout token is
 * posted by anyone who can reach the server, so its signature is everything.
 * @module
 */
import { decodeBase64url } from "../../encoding/base64.js"
import type { OAuthConfig } from "../../providers/types.js"
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
/** Keys a set may hold that are looked at; more is not a key set anyone needs. */
const MAX_KEYS = 50

interface KeySet {
  keys: JsonWebKey[]
  fetchedAt: number
}

const keySets = new WeakMap<OAuthConfig, Promise<KeySet>>()

/** A verified token: its protected header and claims. */
export interface VerifiedJws {
  header: Record<string, unknown>
  claims: Record<string, unknown>
}

/**
 * The header and claims of `token` when it is a JWS compact token signed with an asymmetric
 * algorithm by a key of `jwksUri` (the key named by `kid`, or any key of that algorithm's type);
 * `undefined` when it is not one or the signature does not verify. A network failure propagates.
 */
export async function verifyProviderJws(provider: OAuthConfig, jwksUri: string, token: string): Promise<VerifiedJws | undefined> {
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
    const set = await keySet(provider, jwksUri, refresh)
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

/** The provider's key set: cached, fetched again (at most once a minute) when `refresh` asks. */
async function keySet(provider: OAuthConfig, jwksUri: string, refresh: boolean): Promise<KeySet | undefined> {
  const cached = keySets.get(provider)
  if (cached) {
    const set = await cached.catch(() => undefined)
    if (set && (!refresh || Date.now() - set.fetchedAt < REFETCH_AFTER_MS)) return refresh ? undefined : set
  }
  const pending = fetchKeySet(provider, jwksUri)
  keySets.set(provider, pending)
  // A provider that was down must be asked again next time.
  pending.catch(() => keySets.delete(provider))
  return pending
}

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

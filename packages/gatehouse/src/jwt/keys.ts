/**
 * Turning a secret into a JWE content key, exactly as Auth.js does (HKDF-SHA256, info
 * `Auth.js Generated Encryption Key (<salt>)`), and naming it by its JWK thumbprint. Derivation
 * costs an HKDF, a digest and key imports, so the result (keys ready to use) is cached
 * per (secret, salt, enc): a session check must pay none of it.
 * @module
 */
import { contentCipher, digest, encodeBase64url, hkdf } from "#primitives"
import type { ContentCipher } from "../primitives/contract.js"

/** Content encryption algorithms Gatehouse can derive keys for, with their key sizes in bytes. */
export const KEY_BYTES = { "A256CBC-HS512": 64, A256GCM: 32 } as const

/** A supported JWE `enc` value. */
export type ContentEncryption = keyof typeof KEY_BYTES

/** A derived content key, imported, and the `kid` that names it. */
export interface ContentKey {
  enc: ContentEncryption
  kid: string
  /** The key imported by this build of the primitives (Web Crypto, or node:crypto under Node). */
  cipher: ContentCipher
  /** The base64url protected header `{"alg":"dir","enc":…,"kid":…}`, built once per key. */
  protectedHeader: string
}

// Bounded so that callers passing ever-new salts or secrets cannot grow memory without end.
const CACHE_LIMIT = 100
const cache = new Map<string, Promise<ContentKey>>()
const encoder = new TextEncoder()
/** The key found last, and what it was found by. */
let last: { secret: string; salt: string; enc: ContentEncryption; cacheKey: string; key: Promise<ContentKey> } | undefined

/** Whether `enc` is one Gatehouse reads. */
export function isSupportedEncryption(enc: unknown): enc is ContentEncryption {
  return typeof enc === "string" && Object.hasOwn(KEY_BYTES, enc)
}

/**
 * The content key for `secret` and `salt` under `enc`; derived once per (secret, salt, enc) and
 * then served from memory.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5869 HKDF
 * @see https://www.rfc-editor.org/rfc/rfc7638 JWK thumbprint
 */
export function contentKey(secret: string, salt: string, enc: ContentEncryption): Promise<ContentKey> {
  // An app reads every session with one secret and salt: that key is found without building the
  // cache's string key on every read.
  if (last !== undefined && last.secret === secret && last.salt === salt && last.enc === enc && cache.has(last.cacheKey)) return last.key
  const cacheKey = `${enc}\u0000${salt.length}\u0000${salt}\u0000${secret}`
  const cached = cache.get(cacheKey)
  if (cached) {
    last = { secret, salt, enc, cacheKey, key: cached }
    return cached
  }
  const derived = derive(secret, salt, enc)
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string)
  cache.set(cacheKey, derived)
  // A failed derivation must not poison the cache for later calls.
  derived.catch(() => cache.delete(cacheKey))
  return derived
}

async function derive(secret: string, salt: string, enc: ContentEncryption): Promise<ContentKey> {
  const info = encoder.encode(`Auth.js Generated Encryption Key (${salt})`)
  const key = await hkdf(encoder.encode(secret), encoder.encode(salt), info, KEY_BYTES[enc])
  const kid = await thumbprint(key)
  const protectedHeader = encodeBase64url(encoder.encode(JSON.stringify({ alg: "dir", enc, kid })))
  return { enc, kid, cipher: await contentCipher(key, enc), protectedHeader }
}

/**
 * The RFC 7638 thumbprint of the symmetric JWK holding `key`, hashed with the SHA-2 of the key's
 * own size, as Auth.js names its keys.
 */
async function thumbprint(key: Uint8Array): Promise<string> {
  // The required members of an "oct" JWK, in lexicographic order, without whitespace.
  const jwk = `{"k":"${encodeBase64url(key)}","kty":"oct"}`
  return encodeBase64url(await digest(key.length === 64 ? "SHA-512" : "SHA-256", encoder.encode(jwk)))
}

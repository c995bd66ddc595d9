/**
 * Turning a secret into a JWE key, exactly as Auth.js does (HKDF-SHA256, info
 * `Auth.js Generated Encryption Key (<salt>)`), and naming the key by its SHA-512 JWK thumbprint.
 * Derivation costs an HKDF and a digest, so results are cached: a session check must not pay it.
 * @module
 */
import { base64url, calculateJwkThumbprint } from "jose"

/** Content encryption algorithms Gatehouse can derive keys for, with their key sizes in bytes. */
export const KEY_BYTES = { "A256CBC-HS512": 64, A256GCM: 32 } as const

/** A supported JWE `enc` value. */
export type ContentEncryption = keyof typeof KEY_BYTES

/** A derived key and its `kid`. */
export interface DerivedKey {
  key: Uint8Array
  kid: string
}

// Bounded so that callers passing ever-new salts or secrets cannot grow memory without end.
const CACHE_LIMIT = 100
const cache = new Map<string, Promise<DerivedKey>>()
const encoder = new TextEncoder()

/** Whether `enc` is one Gatehouse reads. */
export function isSupportedEncryption(enc: unknown): enc is ContentEncryption {
  return typeof enc === "string" && Object.hasOwn(KEY_BYTES, enc)
}

/**
 * The key for `secret` and `salt` under `enc`, with its thumbprint `kid`; computed once per
 * (secret, salt, enc) and then served from memory.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5869 HKDF
 * @see https://www.rfc-editor.org/rfc/rfc7638 JWK thumbprint
 */
export function deriveKey(secret: string, salt: string, enc: ContentEncryption): Promise<DerivedKey> {
  const cacheKey = `${enc}\u0000${salt.length}\u0000${salt}\u0000${secret}`
  const cached = cache.get(cacheKey)
  if (cached) return cached
  const derived = derive(secret, salt, enc)
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string)
  cache.set(cacheKey, derived)
  // A failed derivation must not poison the cache for later calls.
  derived.catch(() => cache.delete(cacheKey))
  return derived
}

async function derive(secret: string, salt: string, enc: ContentEncryption): Promise<DerivedKey> {
  const ikm = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveBits"])
  const bytes = KEY_BYTES[enc]
  const bits = await crypto.subtle.deriveBits(
    {
      name: "HKDF",
      hash: "SHA-256",
      salt: encoder.encode(salt),
      info: encoder.encode(`Auth.js Generated Encryption Key (${salt})`),
    },
    ikm,
    bytes * 8,
  )
  const key = new Uint8Array(bits)
  const kid = await calculateJwkThumbprint({ kty: "oct", k: base64url.encode(key) }, `sha${bytes * 8}` as "sha256" | "sha512")
  return { key, kid }
}

/**
 * Turning a secret into a JWE content key, exactly as Auth.js does (HKDF-SHA256, info
 * `Auth.js Generated Encryption Key (<salt>)`), and naming it by its JWK thumbprint. Derivation
 * costs an HKDF, a digest and key imports, so the result (Web Crypto keys, ready to use) is cached
 * per (secret, salt, enc): a session check must pay none of it.
 * @module
 */
import { encodeBase64url } from "../encoding/base64.js"

/** Content encryption algorithms Gatehouse can derive keys for, with their key sizes in bytes. */
export const KEY_BYTES = { "A256CBC-HS512": 64, A256GCM: 32 } as const

/** A supported JWE `enc` value. */
export type ContentEncryption = keyof typeof KEY_BYTES

/** A derived content key, imported for Web Crypto, and the `kid` that names it. */
export interface ContentKey {
  enc: ContentEncryption
  kid: string
  /** AES-CBC (the second half of the key) for A256CBC-HS512; AES-GCM for A256GCM. */
  cipher: CryptoKey
  /** HMAC-SHA-512 over the first half of the key; A256CBC-HS512 only. */
  mac: CryptoKey | undefined
  /** The base64url protected header `{"alg":"dir","enc":…,"kid":…}`, built once per key. */
  protectedHeader: string
}

// Bounded so that callers passing ever-new salts or secrets cannot grow memory without end.
const CACHE_LIMIT = 100
const cache = new Map<string, Promise<ContentKey>>()
const encoder = new TextEncoder()

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

async function derive(secret: string, salt: string, enc: ContentEncryption): Promise<ContentKey> {
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
  const kid = await thumbprint(key)
  const protectedHeader = encodeBase64url(encoder.encode(JSON.stringify({ alg: "dir", enc, kid })))
  if (enc === "A256GCM") {
    const cipher = await crypto.subtle.importKey("raw", key, "AES-GCM", false, ["encrypt", "decrypt"])
    return { enc, kid, cipher, mac: undefined, protectedHeader }
  }
  // RFC 7518 §5.2.2.1: the first half of the key authenticates, the second half encrypts.
  const [mac, cipher] = await Promise.all([
    crypto.subtle.importKey("raw", key.subarray(0, bytes / 2), { name: "HMAC", hash: "SHA-512" }, false, ["sign"]),
    crypto.subtle.importKey("raw", key.subarray(bytes / 2), "AES-CBC", false, ["encrypt", "decrypt"]),
  ])
  return { enc, kid, cipher, mac, protectedHeader }
}

/**
 * The RFC 7638 thumbprint of the symmetric JWK holding `key`, hashed with the SHA-2 of the key's
 * own size, as Auth.js names its keys.
 */
async function thumbprint(key: Uint8Array<ArrayBuffer>): Promise<string> {
  // The required members of an "oct" JWK, in lexicographic order, without whitespace.
  const jwk = `{"k":"${encodeBase64url(key)}","kty":"oct"}`
  const digest = await crypto.subtle.digest(key.length === 64 ? "SHA-512" : "SHA-256", encoder.encode(jwk))
  return encodeBase64url(new Uint8Array(digest))
}

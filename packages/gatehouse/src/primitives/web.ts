/**
 * The cryptographic primitives on Web Crypto: the build for every runtime but Node (see
 * `types.ts`). Keys are imported once per content key; each call is one `subtle` operation, or two
 * run side by side.
 * @module
 */
import { decodeBase64url, encodeBase64url } from "../encoding/base64.js"
import { aadLength, type ContentCipher, type ContentEncryption, type Primitives } from "./contract.js"

/** HKDF-SHA256. */
export async function hkdf(secret: Uint8Array, salt: Uint8Array, info: Uint8Array, length: number): Promise<Uint8Array> {
  const ikm = await crypto.subtle.importKey("raw", secret as Uint8Array<ArrayBuffer>, "HKDF", false, ["deriveBits"])
  const bits = await crypto.subtle.deriveBits(
    { name: "HKDF", hash: "SHA-256", salt: salt as Uint8Array<ArrayBuffer>, info: info as Uint8Array<ArrayBuffer> },
    ikm,
    length * 8,
  )
  return new Uint8Array(bits)
}

/** SHA-256 or SHA-512. */
export async function digest(algorithm: "SHA-256" | "SHA-512", data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest(algorithm, data as Uint8Array<ArrayBuffer>))
}

/** The keys of an A256CBC-HS512 content key: the MAC half and the AES half. */
interface CbcCipher extends ContentCipher {
  mac: CryptoKey
  cbc: CryptoKey
}

/** An A256GCM content key. */
interface GcmCipher extends ContentCipher {
  gcm: CryptoKey
}

/** The content key imported for `enc`. */
export async function contentCipher(key: Uint8Array, enc: ContentEncryption): Promise<ContentCipher> {
  const raw = key as Uint8Array<ArrayBuffer>
  if (enc === "A256GCM") {
    const gcm: GcmCipher = { enc, gcm: await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["decrypt"]) }
    return gcm
  }
  // RFC 7518 §5.2.2.1: the first half of the key authenticates, the second half encrypts.
  const half = raw.length / 2
  const [mac, cbc] = await Promise.all([
    crypto.subtle.importKey("raw", raw.subarray(0, half), { name: "HMAC", hash: "SHA-512" }, false, ["sign"]),
    crypto.subtle.importKey("raw", raw.subarray(half), "AES-CBC", false, ["encrypt", "decrypt"]),
  ])
  const keys: CbcCipher = { enc, mac, cbc }
  return keys
}

/** A256CBC-HS512 sealed under a key of {@link contentCipher}. */
export async function sealCbc(cipher: ContentCipher, aad: Uint8Array, plaintext: Uint8Array): Promise<{ iv: Uint8Array; ciphertext: Uint8Array; mac: Uint8Array }> {
  const { mac, cbc } = cipher as CbcCipher
  const iv = crypto.getRandomValues(new Uint8Array(16))
  const ciphertext = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-CBC", iv }, cbc, plaintext as Uint8Array<ArrayBuffer>))
  return { iv, ciphertext, mac: await sign(mac, aad, iv, ciphertext) }
}

/** A256CBC-HS512 opened: the MAC and the plaintext (`undefined` for bad padding); the caller checks the MAC first. */
export async function openCbc(cipher: ContentCipher, aad: Uint8Array, iv: Uint8Array, ciphertext: Uint8Array): Promise<{ mac: Uint8Array; plaintext: Uint8Array | undefined }> {
  const { mac, cbc } = cipher as CbcCipher
  // Both at once: one round trip to the crypto thread instead of two. The caller checks the
  // MAC before it uses the plaintext.
  const [plaintext, macBytes] = await Promise.all([
    crypto.subtle.decrypt({ name: "AES-CBC", iv: iv as Uint8Array<ArrayBuffer> }, cbc, ciphertext as Uint8Array<ArrayBuffer>).then(
      (bytes) => new Uint8Array(bytes),
      () => undefined,
    ),
    sign(mac, aad, iv, ciphertext),
  ])
  return { mac: macBytes, plaintext }
}

async function sign(mac: CryptoKey, aad: Uint8Array, iv: Uint8Array, ciphertext: Uint8Array): Promise<Uint8Array> {
  const input = new Uint8Array(aad.length + iv.length + ciphertext.length + 8)
  input.set(aad)
  input.set(iv, aad.length)
  input.set(ciphertext, aad.length + iv.length)
  input.set(aadLength(aad), input.length - 8)
  return new Uint8Array(await crypto.subtle.sign("HMAC", mac, input))
}

/** A256GCM opened under a key of {@link contentCipher}: the plaintext, or `undefined`. */
export async function openGcm(cipher: ContentCipher, aad: Uint8Array, iv: Uint8Array, ciphertext: Uint8Array, tag: Uint8Array): Promise<Uint8Array | undefined> {
  const { gcm } = cipher as GcmCipher
  const sealed = new Uint8Array(ciphertext.length + tag.length)
  sealed.set(ciphertext)
  sealed.set(tag, ciphertext.length)
  try {
    const params = { name: "AES-GCM", iv: iv as Uint8Array<ArrayBuffer>, additionalData: aad as Uint8Array<ArrayBuffer>, tagLength: 128 }
    return new Uint8Array(await crypto.subtle.decrypt(params, gcm, sealed))
  } catch {
    return undefined
  }
}

/** This build, as one object (for the tests that run both builds). */
export const primitives: Primitives = { hkdf, digest, contentCipher, sealCbc, openCbc, openGcm, decodeBase64url, encodeBase64url }

export { decodeBase64url, encodeBase64url }

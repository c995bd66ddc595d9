/**
 * The cryptographic primitives on `node:crypto`: the build the package's `#primitives` import
 * picks under the `node` condition (see `contract.ts`). Synchronous OpenSSL calls on the calling
 * thread: a session check no longer waits for Web Crypto's worker thread. Results are
 * byte-identical to `web.ts`; the tests run the JWT suites against both.
 * @module
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, createSecretKey, hkdfSync, randomFillSync, type KeyObject } from "node:crypto"
import { isCanonicalBase64url } from "../encoding/base64.js"
import { aadLength, type ContentCipher, type ContentEncryption, type Primitives } from "./contract.js"

/** HKDF-SHA256. */
export async function hkdf(secret: Uint8Array, salt: Uint8Array, info: Uint8Array, length: number): Promise<Uint8Array> {
  return new Uint8Array(hkdfSync("sha256", secret, salt, info, length))
}

/** SHA-256 or SHA-512. */
export async function digest(algorithm: "SHA-256" | "SHA-512", data: Uint8Array): Promise<Uint8Array> {
  return createHash(algorithm === "SHA-256" ? "sha256" : "sha512").update(data).digest()
}

/** The key objects of an A256CBC-HS512 content key: the MAC half and the AES half. */
interface CbcCipher extends ContentCipher {
  mac: KeyObject
  cbc: KeyObject
}

/** An A256GCM content key. */
interface GcmCipher extends ContentCipher {
  gcm: KeyObject
}

/** The content key imported for `enc`. */
export async function contentCipher(key: Uint8Array, enc: ContentEncryption): Promise<ContentCipher> {
  if (enc === "A256GCM") {
    const gcm: GcmCipher = { enc, gcm: createSecretKey(key) }
    return gcm
  }
  // RFC 7518 §5.2.2.1: the first half of the key authenticates, the second half encrypts.
  const half = key.length / 2
  const keys: CbcCipher = { enc, mac: createSecretKey(key.subarray(0, half)), cbc: createSecretKey(key.subarray(half)) }
  return keys
}

/** A256CBC-HS512 sealed under a key of {@link contentCipher}. */
export async function sealCbc(cipher: ContentCipher, aad: Uint8Array, plaintext: Uint8Array): Promise<{ iv: Uint8Array; ciphertext: Uint8Array; mac: Uint8Array }> {
  const { mac, cbc } = cipher as CbcCipher
  const iv = randomFillSync(new Uint8Array(16))
  const encryptor = createCipheriv("aes-256-cbc", cbc, iv)
  const ciphertext = concat(encryptor.update(plaintext), encryptor.final())
  return { iv, ciphertext, mac: sign(mac, aad, iv, ciphertext) }
}

/** A256CBC-HS512 opened: the MAC and the plaintext (`undefined` for bad padding); the caller checks the MAC first. */
export async function openCbc(cipher: ContentCipher, aad: Uint8Array, iv: Uint8Array, ciphertext: Uint8Array): Promise<{ mac: Uint8Array; plaintext: Uint8Array | undefined }> {
  const { mac, cbc } = cipher as CbcCipher
  const macBytes = sign(mac, aad, iv, ciphertext)
  let plaintext: Uint8Array | undefined
  try {
    const decipher = createDecipheriv("aes-256-cbc", cbc, iv)
    plaintext = concat(decipher.update(ciphertext), decipher.final())
  } catch {
    // Bad padding (or a wrong IV length): reported exactly like a bad MAC by the caller.
    plaintext = undefined
  }
  return { mac: macBytes, plaintext }
}

function sign(mac: KeyObject, aad: Uint8Array, iv: Uint8Array, ciphertext: Uint8Array): Uint8Array {
  return createHmac("sha512", mac).update(aad).update(iv).update(ciphertext).update(aadLength(aad)).digest()
}

/** A256GCM opened under a key of {@link contentCipher}: the plaintext, or `undefined`. */
export async function openGcm(cipher: ContentCipher, aad: Uint8Array, iv: Uint8Array, ciphertext: Uint8Array, tag: Uint8Array): Promise<Uint8Array | undefined> {
  const { gcm } = cipher as GcmCipher
  try {
    const decipher = createDecipheriv("aes-256-gcm", gcm, iv, { authTagLength: 16 })
    decipher.setAAD(aad)
    decipher.setAuthTag(tag)
    return concat(decipher.update(ciphertext), decipher.final())
  } catch {
    return undefined
  }
}

/**
 * Canonical unpadded base64url, decoded by Node's native decoder once the text is known to be
 * canonical (Node's decoder skips what is not in the alphabet and ignores spare bits): the same
 * refusals as the Web build.
 */
export function decodeBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!isCanonicalBase64url(text)) return undefined
  const decoded = Buffer.from(text, "base64url")
  // A view, not a copy: a decoded slice of Node's pool is never handed out again.
  return new Uint8Array(decoded.buffer as ArrayBuffer, decoded.byteOffset, decoded.length)
}

/** Unpadded base64url by Node's native encoder. */
export function encodeBase64url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64url")
}

/** Two buffers as one plain Uint8Array (not a Buffer: what callers get is the same type in both builds). */
function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length)
  joined.set(a)
  joined.set(b, a.length)
  return joined
}

/** This build, as one object (for the tests that run both builds). */
export const primitives: Primitives = { hkdf, digest, contentCipher, sealCbc, openCbc, openGcm, decodeBase64url, encodeBase64url }

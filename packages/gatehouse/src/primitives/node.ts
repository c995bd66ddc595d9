/**
 * The cryptographic primitives on `node:crypto`: the build the package's `#primitives` import
 * picks under the `node` condition (see `contract.ts`). Synchronous OpenSSL calls on the calling
 * thread: a session check no longer waits for Web Crypto's worker thread. Results are
 * byte-identical to `web.ts`; the tests run the JWT suites against both.
 * @module
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, createSecretKey, hkdfSync, randomFillSync, type KeyObject } from "node:crypto"
import { aadLength, wrongKind, type ContentCipher, type ContentEncryption, type Primitives } from "./contract.js"

/** HKDF-SHA256. */
export async function hkdf(secret: Uint8Array, salt: Uint8Array, info: Uint8Array, length: number): Promise<Uint8Array> {
  return new Uint8Array(hkdfSync("sha256", secret, salt, info, length))
}

/** SHA-256 or SHA-512. */
export async function digest(algorithm: "SHA-256" | "SHA-512", data: Uint8Array): Promise<Uint8Array> {
  return createHash(algorithm === "SHA-256" ? "sha256" : "sha512").update(data).digest()
}

/** The content key imported for `enc`. */
export async function contentCipher(key: Uint8Array, enc: ContentEncryption): Promise<ContentCipher> {
  if (enc === "A256GCM") {
    const gcm = createSecretKey(key)
    return { ...wrongKind, openGcm: async (aad, iv, ciphertext, tag) => openGcm(gcm, aad, iv, ciphertext, tag) }
  }
  // RFC 7518 §5.2.2.1: the first half of the key authenticates, the second half encrypts.
  const half = key.length / 2
  const mac = createSecretKey(key.subarray(0, half))
  const cbc = createSecretKey(key.subarray(half))
  const sign = (aad: Uint8Array, iv: Uint8Array, ciphertext: Uint8Array): Uint8Array =>
    createHmac("sha512", mac).update(aad).update(iv).update(ciphertext).update(aadLength(aad)).digest()
  return {
    async sealCbc(aad, plaintext) {
      const iv = randomFillSync(new Uint8Array(16))
      const cipher = createCipheriv("aes-256-cbc", cbc, iv)
      const ciphertext = concat(cipher.update(plaintext), cipher.final())
      return { iv, ciphertext, mac: sign(aad, iv, ciphertext) }
    },
    async openCbc(aad, iv, ciphertext) {
      const macBytes = sign(aad, iv, ciphertext)
      let plaintext: Uint8Array | undefined
      try {
        const decipher = createDecipheriv("aes-256-cbc", cbc, iv)
        plaintext = concat(decipher.update(ciphertext), decipher.final())
      } catch {
        // Bad padding (or a wrong IV length): reported exactly like a bad MAC by the caller.
        plaintext = undefined
      }
      return { mac: macBytes, plaintext }
    },
    openGcm: wrongKind.openGcm,
  }
}

function openGcm(key: KeyObject, aad: Uint8Array, iv: Uint8Array, ciphertext: Uint8Array, tag: Uint8Array): Uint8Array | undefined {
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: 16 })
    decipher.setAAD(aad)
    decipher.setAuthTag(tag)
    return concat(decipher.update(ciphertext), decipher.final())
  } catch {
    return undefined
  }
}

/** What base64url text may hold, unpadded. */
const BASE64URL_TEXT = /^[A-Za-z0-9_-]*$/

/**
 * Canonical unpadded base64url, decoded by Node's native decoder once the text is known to be in
 * the alphabet (Node's decoder skips what is not), of a length a value can have, and with the
 * spare bits of its last character zero (Node's ignores them): the same refusals as the Web build.
 */
export function decodeBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  const spare = text.length % 4
  if (spare === 1 || !BASE64URL_TEXT.test(text)) return undefined
  if (spare !== 0 && (sextet(text.charCodeAt(text.length - 1)) & (spare === 2 ? 15 : 3)) !== 0) return undefined
  const decoded = Buffer.from(text, "base64url")
  // A view, not a copy: a decoded slice of Node's pool is never handed out again.
  return new Uint8Array(decoded.buffer as ArrayBuffer, decoded.byteOffset, decoded.length)
}

/** The value of a base64url character already known to be in the alphabet. */
function sextet(code: number): number {
  if (code >= 97) return code - 71 // a-z: 26-51
  if (code >= 65) return code === 95 ? 63 : code - 65 // A-Z: 0-25; _ (95) is 63
  if (code >= 48) return code + 4 // 0-9: 52-61
  return 62 // -
}

/** Two buffers as one plain Uint8Array (not a Buffer: what callers get is the same type in both builds). */
function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length)
  joined.set(a)
  joined.set(b, a.length)
  return joined
}

/** This build, as one object (for the tests that run both builds). */
export const primitives: Primitives = { hkdf, digest, contentCipher, decodeBase64url }

/**
 * What the two builds of the cryptographic primitives offer, so that `jwt/` and the digest helper
 * are written once: `web.ts` on Web Crypto (every runtime), `node.ts` on `node:crypto` (picked by
 * the package's `#primitives` import under the `node` condition). Both give byte-identical
 * results; the Node build saves Web Crypto's hop to a worker thread on every call, which is most
 * of what a session check costs.
 * @module
 */

/** The content encryptions a session token may use. */
export type ContentEncryption = "A256CBC-HS512" | "A256GCM"

/**
 * A content key as one build imported it (Web Crypto keys, or node:crypto key objects), once:
 * opaque outside that build, and handed back to its `sealCbc`, `openCbc` or `openGcm`. Functions
 * rather than methods of the key, so that a bundle that only reads tokens (`getToken`) carries no
 * sealing code.
 */
export interface ContentCipher {
  /** The content encryption the key was imported for. */
  readonly enc: ContentEncryption
}

/** The primitives each build exports. */
export interface Primitives {
  /** HKDF-SHA256 of `secret` with `salt` and `info`, `length` bytes. */
  hkdf(secret: Uint8Array, salt: Uint8Array, info: Uint8Array, length: number): Promise<Uint8Array>
  /** A SHA-2 digest. */
  digest(algorithm: "SHA-256" | "SHA-512", data: Uint8Array): Promise<Uint8Array>
  /** `key` (64 bytes for A256CBC-HS512: MAC half, then AES half; 32 for A256GCM) imported for `enc`. */
  contentCipher(key: Uint8Array, enc: ContentEncryption): Promise<ContentCipher>
  /**
   * A256CBC-HS512 (RFC 7518 §5.2.2) under an A256CBC-HS512 key: a fresh IV, the ciphertext, and the
   * full HMAC-SHA-512 over AAD ‖ IV ‖ ciphertext ‖ AAD length (the caller keeps its first half as the tag).
   */
  sealCbc(cipher: ContentCipher, aad: Uint8Array, plaintext: Uint8Array): Promise<{ iv: Uint8Array; ciphertext: Uint8Array; mac: Uint8Array }>
  /**
   * A256CBC-HS512 opened: the HMAC the caller compares with the token's tag (in constant time,
   * before using anything), and the plaintext, or `undefined` when the padding is wrong.
   */
  openCbc(cipher: ContentCipher, aad: Uint8Array, iv: Uint8Array, ciphertext: Uint8Array): Promise<{ mac: Uint8Array; plaintext: Uint8Array | undefined }>
  /** A256GCM opened under an A256GCM key: the plaintext, or `undefined` when the tag does not verify. */
  openGcm(cipher: ContentCipher, aad: Uint8Array, iv: Uint8Array, ciphertext: Uint8Array, tag: Uint8Array): Promise<Uint8Array | undefined>
  /**
   * The bytes of unpadded, canonical base64url `text` (spare bits zero); `undefined` for anything
   * else. A JWE's segments, on the runtime's native decoder.
   */
  decodeBase64url(text: string): Uint8Array<ArrayBuffer> | undefined
  /** `bytes` as unpadded base64url (key ids, the protected header), on the runtime's native encoder. */
  encodeBase64url(bytes: Uint8Array): string
}

/** The A256CBC-HS512 MAC input: AAD ‖ IV ‖ ciphertext ‖ the AAD's length in bits, 64-bit big-endian. */
export function aadLength(aad: Uint8Array): Uint8Array {
  const length = new Uint8Array(8)
  // Two 32-bit halves, big-endian: exact for any length a token can have, without a BigInt or a
  // DataView per call.
  const bits = aad.length * 8
  const high = Math.floor(bits / 2 ** 32)
  const low = bits >>> 0
  for (let i = 0; i < 4; i++) {
    length[3 - i] = (high >>> (8 * i)) & 255
    length[7 - i] = (low >>> (8 * i)) & 255
  }
  return length
}

/**
 * Compact JWE with direct key agreement (`alg: "dir"`), as Auth.js writes and reads session
 * tokens: A256CBC-HS512 to write, A256CBC-HS512 or A256GCM to read. Written on the package's own
 * primitives with the keys imported once (see `keys.ts`), because a general JWE library imports
 * the key again on every call and that import is most of what a session check costs.
 * @module
 * @see https://www.rfc-editor.org/rfc/rfc7516 JWE
 * @see https://www.rfc-editor.org/rfc/rfc7518#section-5.2 AES_CBC_HMAC_SHA2
 */
import { JWTSessionError } from "../errors.js"
import { decodeBase64url, encodeBase64url, openCbc, openGcm, sealCbc } from "#primitives"
import { equalBytes } from "./constant-time.js"
import { isSupportedEncryption, type ContentEncryption, type ContentKey } from "./keys.js"

const encoder = new TextEncoder()
const decoder = new TextDecoder("utf-8", { fatal: true })

/** Sizes of the initialization vector and the authentication tag, in bytes. */
const SIZES: Record<ContentEncryption, { iv: number; tag: number }> = {
  "A256CBC-HS512": { iv: 16, tag: 32 },
  A256GCM: { iv: 12, tag: 16 },
}

/** The header members this reader understands; any other `crit`ical or `zip` header is refused. */
interface ProtectedHeader {
  alg?: unknown
  enc?: unknown
  kid?: unknown
  zip?: unknown
  crit?: unknown
}

/** Finds the content key for a token's `kid` and `enc`; throws when none fits. */
export type KeyLookup = (kid: string | undefined, enc: ContentEncryption) => Promise<ContentKey>

/** Encrypts `plaintext` under `key` (A256CBC-HS512) into a compact JWE. */
export async function encryptCompact(plaintext: Uint8Array, key: ContentKey): Promise<string> {
  if (key.enc !== "A256CBC-HS512") throw new JWTSessionError(`Gatehouse writes A256CBC-HS512 tokens only, not ${key.enc}`)
  const { iv, ciphertext, mac } = await sealCbc(key.cipher, encoder.encode(key.protectedHeader), plaintext)
  return `${key.protectedHeader}..${encodeBase64url(iv)}.${encodeBase64url(ciphertext)}.${encodeBase64url(mac.subarray(0, SIZES[key.enc].tag))}`
}

/**
 * The plaintext of a compact JWE made with a key `lookup` finds. Every malformed, tampered or
 * foreign token throws {@link JWTSessionError}; which check failed is in the message, never in the
 * time taken between a failed tag and a failed padding.
 */
export async function decryptCompact(token: string, lookup: KeyLookup): Promise<Uint8Array> {
  const segments = token.split(".")
  if (segments.length !== 5) throw malformed()
  const [headerText, encryptedKey, ivText, ciphertextText, tagText] = segments as [string, string, string, string, string]
  const iv = decodeBase64url(ivText)
  const ciphertext = decodeBase64url(ciphertextText)
  const tag = decodeBase64url(tagText)
  if (!iv || !ciphertext || !tag) throw malformed()
  // With direct key agreement there is no encrypted key (RFC 7518 §4.5).
  if (encryptedKey !== "") throw new JWTSessionError("A dir token must have an empty encrypted key")
  const { header, aad } = checkedHeader(headerText)
  const sizes = SIZES[header.enc]
  if (iv.length !== sizes.iv || tag.length !== sizes.tag) throw new JWTSessionError("The token's IV or tag has the wrong length")

  const key = await lookup(header.kid, header.enc)
  if (key.enc === "A256GCM") {
    const plaintext = await openGcm(key.cipher, aad, iv, ciphertext, tag)
    if (!plaintext) throw failed()
    return plaintext
  }
  // The tag is checked before the plaintext is used, and a padding failure is reported exactly
  // like a tag failure.
  const { mac, plaintext } = await openCbc(key.cipher, aad, iv, ciphertext)
  if (!equalBytes(mac.subarray(0, sizes.tag), tag) || !plaintext) throw failed()
  return plaintext
}

/** A protected header that passed every check, and its bytes as the AAD. */
interface CheckedHeader {
  header: ProtectedHeader & { enc: ContentEncryption; kid?: string }
  aad: Uint8Array
}

/**
 * Headers already checked, by their text. Every token one key made has the same header, so a
 * session check decodes and parses it once, not per request. Bounded: emptied when full, so
 * headers an attacker varies cost them a parse each, as before, and hold no memory.
 */
const checkedHeaders = new Map<string, CheckedHeader>()
const CHECKED_HEADERS_LIMIT = 32

function checkedHeader(text: string): CheckedHeader {
  const known = checkedHeaders.get(text)
  if (known) return known
  const bytes = decodeBase64url(text)
  if (!bytes) throw malformed()
  const header = parseHeader(bytes)
  if (header.alg !== "dir") throw new JWTSessionError(`Unsupported JWT key management: ${describe(header.alg)}`)
  if (!isSupportedEncryption(header.enc)) throw new JWTSessionError(`Unsupported JWT content encryption: ${describe(header.enc)}`)
  if (header.zip !== undefined) throw new JWTSessionError("Compressed JWT payloads are not supported")
  if (header.crit !== undefined) throw new JWTSessionError("The token names critical header extensions, which are not supported")
  if (header.kid !== undefined && typeof header.kid !== "string") throw new JWTSessionError("The token's key id must be a string")
  const checked: CheckedHeader = { header: Object.freeze(header) as CheckedHeader["header"], aad: encoder.encode(text) }
  if (checkedHeaders.size >= CHECKED_HEADERS_LIMIT) checkedHeaders.clear()
  checkedHeaders.set(text, checked)
  return checked
}

function parseHeader(bytes: Uint8Array): ProtectedHeader {
  let header: unknown
  try {
    header = JSON.parse(decoder.decode(bytes))
  } catch {
    throw new JWTSessionError("The token's header is not JSON")
  }
  if (header === null || typeof header !== "object" || Array.isArray(header)) throw new JWTSessionError("The token's header is not a JSON object")
  return header as ProtectedHeader
}

/** A header value for a message; never calls anything on it (`{"toString": 0}` would throw). */
function describe(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value.slice(0, 40)) : typeof value
}

function malformed(): JWTSessionError {
  return new JWTSessionError("The token is not a well-formed compact JWE")
}

function failed(): JWTSessionError {
  return new JWTSessionError("The token could not be decrypted: it was changed, or made with another key")
}

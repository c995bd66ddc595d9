/**
 * Recovery codes: the lookup secrets a user saves when enrolling, each good for one sign-in.
 * Twenty-five Crockford base32 characters (125 random bits), shown as `xxxxx-xxxxx-xxxxx-xxxxx-xxxxx`;
 * read back in any case, with or without separators, and with Crockford's look-alikes (`i`/`l` as
 * 1, `o` as 0) mended, so a code copied from paper still works. At rest only a hash is kept, bound
 * to the user: a lookup secret of 112 bits or more may be kept under a plain hash (ASVS 5.0
 * 6.5.2; shorter ones would need a salted password hash, which a lookup by hash cannot use), and no
 * secret is mixed in, so a secret rotation voids none.
 * Spending one is the adapter's `useRecoveryCode(uid, hash)` (a delete that reports whether it
 * deleted), never a comparison in memory.
 * @module
 * @see https://www.crockford.com/base32.html
 */
import { sha256Hex } from "../../encoding/hex.js"

/** Crockford's base32 alphabet: no I, L, O or U. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
/** Characters of a code; 5 bits each. */
export const RECOVERY_CODE_LENGTH = 25
/** Random bits of a code. */
export const RECOVERY_CODE_BITS = RECOVERY_CODE_LENGTH * 5
const LOOK_ALIKES: Readonly<Record<string, string>> = { I: "1", L: "1", O: "0" }

/** `count` new codes as shown to the user, lower case in five groups of five (`7hq2x-9k0mz-4c1ad-p8vwe-3nt6r`). */
export function newRecoveryCodes(count: number): string[] {
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError("The number of recovery codes must be a non-negative integer")
  const codes: string[] = []
  for (let n = 0; n < count; n++) {
    // 256 is a multiple of 32: the low five bits of a random byte are uniform.
    const bytes = crypto.getRandomValues(new Uint8Array(RECOVERY_CODE_LENGTH))
    const chars = [...bytes].map((byte) => ALPHABET[byte & 31]!).join("").toLowerCase()
    codes.push(chars.match(/.{5}/g)!.join("-"))
  }
  return codes
}

/**
 * The canonical form of a typed code (twenty-five upper-case alphabet characters), or `undefined` when
 * it cannot be one: spaces and hyphens dropped, case ignored, look-alikes mended.
 */
export function normalizeRecoveryCode(typed: string): string | undefined {
  if (typeof typed !== "string" || typed.length > 64) return undefined
  let out = ""
  for (const char of typed.toUpperCase()) {
    if (char === "-" || char === " ") continue
    const mended = LOOK_ALIKES[char] ?? char
    if (!ALPHABET.includes(mended)) return undefined
    out += mended
  }
  return out.length === RECOVERY_CODE_LENGTH ? out : undefined
}

/**
 * The stored hash of `typed` for user `uid` (lower-case hex SHA-256), or `undefined` when `typed`
 * is no code at all (so the adapter is not even asked).
 */
export async function recoveryCodeHash(uid: string, typed: string): Promise<string | undefined> {
  const code = normalizeRecoveryCode(typed)
  if (code === undefined) return undefined
  return sha256Hex(`gatehouse.recovery\u0000${uid}\u0000${code}`)
}

/** The hashes of freshly made codes, to store while the codes themselves are shown once. */
export async function recoveryCodeHashes(uid: string, codes: readonly string[]): Promise<string[]> {
  return Promise.all(
    codes.map(async (code) => {
      const hash = await recoveryCodeHash(uid, code)
      if (hash === undefined) throw new TypeError("Not a recovery code")
      return hash
    }),
  )
}

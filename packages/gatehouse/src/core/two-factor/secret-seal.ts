/**
 * TOTP secrets at rest: sealed as a compact JWE (A256CBC-HS512) under a key derived from the auth
 * secret, so a copied table signs no one's second factor. The key is HKDF'd from each configured
 * secret with a salt of its own (never a session key), named by its `kid`, and cached by
 * `jwt/keys.ts` like every other content key (a fixed salt: no churn of that cache). The sealed
 * value names the user it belongs to, so a row's secret moved to another user does not open.
 * Rotation: a value opens under any configured secret; opened under one that is not the first, it
 * is reported `stale` for the caller to seal again and store (`adapter.updateTotpSecret`, a
 * compare-and-set).
 * @module
 */
import { decodeBase64url, encodeBase64url } from "../../encoding/base64.js"
import { decryptCompact, encryptCompact } from "../../jwt/jwe.js"
import { contentKey } from "../../jwt/keys.js"
import type { ResolvedConfig } from "../config.js"

/** The salt of the sealing key: what keeps it apart from the session and cookie keys. */
export const TOTP_SEAL_SALT = "gatehouse.two-factor.totp-secret"
const ENC = "A256CBC-HS512"
const encoder = new TextEncoder()
const decoder = new TextDecoder("utf-8", { fatal: true })

/** The secrets a value is sealed and opened with: the configuration's, newest first. */
export type SealSecrets = Pick<ResolvedConfig, "secret">

/** A secret opened: its bytes, and whether it was sealed under a secret that is no longer the first. */
export interface OpenedSecret {
  secret: Uint8Array
  /** Seal it again with {@link sealTotpSecret} and store that. */
  stale: boolean
}

/** `secret` sealed for `uid` under the first configured secret. */
export async function sealTotpSecret(config: SealSecrets, uid: string, secret: Uint8Array): Promise<string> {
  const [first] = config.secret
  if (first === undefined) throw new TypeError("A TOTP secret cannot be sealed without an auth secret")
  const key = await contentKey(first, TOTP_SEAL_SALT, ENC)
  return encryptCompact(encoder.encode(JSON.stringify({ v: 1, uid, s: encodeBase64url(secret) })), key)
}

/**
 * The secret `sealed` holds for `uid`, or `undefined` when it does not open under any configured
 * secret (changed, from another deployment, or every secret it was sealed under is gone) or was
 * sealed for another user. The caller treats `undefined` as a fault of the stored data, never as a
 * wrong code.
 */
export async function openTotpSecret(config: SealSecrets, uid: string, sealed: string): Promise<OpenedSecret | undefined> {
  if (typeof sealed !== "string" || sealed === "") return undefined
  let index = -1
  let plaintext: Uint8Array
  try {
    plaintext = await decryptCompact(sealed, async (kid, enc) => {
      // Sealed values always name their key: one without a kid is not ours.
      if (kid === undefined || enc !== ENC) throw new TypeError("not a sealed TOTP secret")
      for (const [i, secret] of config.secret.entries()) {
        const key = await contentKey(secret, TOTP_SEAL_SALT, ENC)
        if (key.kid === kid) {
          index = i
          return key
        }
      }
      throw new TypeError("no configured secret sealed this value")
    })
  } catch {
    return undefined
  }
  let payload: unknown
  try {
    payload = JSON.parse(decoder.decode(plaintext))
  } catch {
    return undefined
  }
  if (payload === null || typeof payload !== "object") return undefined
  const { v, uid: owner, s } = payload as Record<string, unknown>
  if (v !== 1 || owner !== uid || typeof s !== "string") return undefined
  const secret = decodeBase64url(s)
  if (!secret || secret.length === 0) return undefined
  return { secret, stale: index !== 0 }
}

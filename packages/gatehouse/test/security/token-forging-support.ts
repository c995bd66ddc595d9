/**
 * Hostile session tokens for the tampering matrix, built with node:crypto and jose rather than
 * Gatehouse's own code, so a refusal can only come from the reader: tokens sealed correctly under
 * any header and claims (the tag is valid), bit flips and truncations of a real token, and tokens
 * of other shapes (JWS, unsecured JWT, plain JSON).
 */
import { calculateJwkThumbprint } from "jose"
import { createCipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto"

/** The content key Auth.js derives for `secret` and `salt`: 64 bytes for A256CBC-HS512, 32 for A256GCM. */
export function derivedKey(secret: string, salt: string, bytes: 32 | 64 = 64): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, salt, `Auth.js Generated Encryption Key (${salt})`, bytes))
}

/** The `kid` Auth.js (and Gatehouse) gives a derived key: its JWK thumbprint. */
export function kidOf(key: Buffer): Promise<string> {
  return calculateJwkThumbprint({ kty: "oct", k: key.toString("base64url") }, key.length === 64 ? "sha512" : "sha256")
}

const b64 = (bytes: Buffer | string) => Buffer.from(bytes).toString("base64url")

/** AES-CBC + HMAC-SHA-2 (RFC 7518 §5.2.2.1) of `plaintext` under a `key` of 32 (HS256) or 64 (HS512) bytes. */
function sealCbc(protectedHeader: string, plaintext: string, key: Buffer): string {
  const half = key.length / 2
  const iv = randomBytes(16)
  const cipher = createCipheriv(half === 32 ? "aes-256-cbc" : "aes-128-cbc", key.subarray(half), iv)
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()])
  const aadBits = Buffer.alloc(8)
  aadBits.writeBigUInt64BE(BigInt(protectedHeader.length * 8))
  const tag = createHmac(half === 32 ? "sha512" : "sha256", key.subarray(0, half))
    .update(protectedHeader)
    .update(iv)
    .update(ciphertext)
    .update(aadBits)
    .digest()
    .subarray(0, half)
  return [protectedHeader, "", b64(iv), b64(ciphertext), b64(tag)].join(".")
}

/** AES-GCM of `plaintext` under a 16, 24 or 32-byte `key`, the protected header as AAD. */
function sealGcm(protectedHeader: string, plaintext: string, key: Buffer): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv(`aes-${key.length * 8}-gcm` as "aes-256-gcm", key, iv)
  cipher.setAAD(Buffer.from(protectedHeader))
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()])
  return [protectedHeader, "", b64(iv), b64(ciphertext), b64(cipher.getAuthTag())].join(".")
}

/**
 * A compact JWE of `claims` under exactly `header`, sealed with `key` by the algorithm the header's
 * `enc` names (A256CBC-HS512 when it names none Gatehouse or node can seal). The seal is valid:
 * whatever refuses it refuses the header or the claims.
 */
export function sealed(header: Record<string, unknown>, claims: unknown, key: Buffer): string {
  const protectedHeader = b64(JSON.stringify(header))
  const plaintext = typeof claims === "string" ? claims : JSON.stringify(claims)
  if (header.enc === "A256GCM" || header.enc === "A192GCM" || header.enc === "A128GCM") return sealGcm(protectedHeader, plaintext, key)
  return sealCbc(protectedHeader, plaintext, key)
}

/** The header Gatehouse writes for `key`: `{ alg: "dir", enc: "A256CBC-HS512", kid }`. */
export async function standardHeader(key: Buffer): Promise<Record<string, unknown>> {
  return { alg: "dir", enc: "A256CBC-HS512", kid: await kidOf(key) }
}

/** Claims a fresh session token carries: `sub`, `name`, `email`, `iat`, `exp` and `jti` of now. */
export function freshClaims(extra: Record<string, unknown> = {}): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000)
  return { sub: "tampering-user", name: "Tamper Test", email: "tamper@app.test", iat: now, exp: now + 3600, jti: crypto.randomUUID(), ...extra }
}

/** The names of a compact JWE's five parts, in order. */
export const PARTS = ["header", "encrypted key", "IV", "ciphertext", "tag"] as const

/**
 * Every token that differs from `token` by one bit of one part's bytes (`part` is an index into
 * {@link PARTS}), each part re-encoded as canonical base64url.
 */
export function bitFlipsOf(token: string, part: number): { bit: number; token: string }[] {
  const parts = token.split(".")
  const bytes = Buffer.from(parts[part]!, "base64url")
  const flips: { bit: number; token: string }[] = []
  for (let bit = 0; bit < bytes.length * 8; bit++) {
    const changed = Buffer.from(bytes)
    changed[bit >> 3]! ^= 0x80 >> (bit & 7)
    const copy = [...parts]
    copy[part] = changed.toString("base64url")
    flips.push({ bit, token: copy.join(".") })
  }
  return flips
}

/** `token` with one part replaced. */
export function withPart(token: string, part: number, value: string): string {
  const parts = token.split(".")
  parts[part] = value
  return parts.join(".")
}

/** `token` with its header replaced by `header` as is, the rest untouched (so the tag no longer fits). */
export function withHeader(token: string, header: Record<string, unknown>): string {
  return withPart(token, 0, b64(JSON.stringify(header)))
}

/** The decoded protected header of a compact token. */
export function headerOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[0]!, "base64url").toString("utf8")) as Record<string, unknown>
}

/** A compact JWS (three parts) of `claims`, HMAC-signed with `key`. */
export function signedJws(claims: unknown, key: Buffer, alg: "HS256" | "HS512" = "HS256"): string {
  const head = b64(JSON.stringify({ alg, typ: "JWT" }))
  const body = b64(JSON.stringify(claims))
  const signature = createHmac(alg === "HS256" ? "sha256" : "sha512", key).update(`${head}.${body}`).digest()
  return `${head}.${body}.${b64(signature)}`
}

/** An unsecured JWT (`alg: none`, empty signature). */
export function unsecuredJwt(claims: unknown): string {
  return `${b64(JSON.stringify({ alg: "none", typ: "JWT" }))}.${b64(JSON.stringify(claims))}.`
}

/** `value` as unpadded base64url. */
export const base64url = (value: string) => b64(value)

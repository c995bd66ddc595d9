/**
 * PBKDF2-HMAC-SHA256 through Web Crypto, available on every runtime (Node, Deno, Bun, workers,
 * browsers). Cloudflare Workers cap the iteration count at 100,000; their error passes through.
 * @module
 */

/** `length` bytes of PBKDF2-HMAC-SHA256 of `password` with `salt`. */
export async function pbkdf2Sha256(
  password: Uint8Array<ArrayBuffer>,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
  length: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const key = await crypto.subtle.importKey("raw", password, "PBKDF2", false, ["deriveBits"])
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, length * 8)
  return new Uint8Array(bits)
}

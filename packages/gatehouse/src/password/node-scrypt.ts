/**
 * scrypt and the constant-time comparison from `node:crypto`, for the Node build.
 * @module
 */
import { scrypt, timingSafeEqual } from "node:crypto"
import { scryptMemory, type ScryptParameters } from "./parameters.js"

/** `length` bytes of scrypt of `password` with `salt`, computed off the main thread. */
export function scryptKey(password: Uint8Array, salt: Uint8Array, parameters: ScryptParameters, length: number): Promise<Uint8Array> {
  const { logN, r, p } = parameters
  // Node refuses anything over 32 MiB unless told; N=2^17, r=8 needs 128 MiB. The parameters
  // were bounded when the hash was parsed, so allowing exactly what they need is safe.
  const options = { N: 2 ** logN, r, p, maxmem: scryptMemory(parameters) }
  return new Promise((resolve, reject) => {
    scrypt(password, salt, length, options, (error, key) => (error ? reject(error) : resolve(new Uint8Array(key.buffer, key.byteOffset, key.length))))
  })
}

/** Node's constant-time comparison, after the length check it insists on. */
export function equalKeys(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b)
}

// @ts-check
/**
 * Password hashing for the demo account: scrypt with OWASP's parameters (N=2^17, r=8, p=1), in a
 * self-describing string, compared in constant time.
 */
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"
import { promisify } from "node:util"

const derive = /** @type {(password: string, salt: Buffer, length: number, options: import("node:crypto").ScryptOptions) => Promise<Buffer>} */ (
  promisify(scrypt)
)
const PARAMS = { N: 2 ** 17, r: 8, p: 1 }
// scrypt needs 128·N·r bytes; Node's default ceiling (32 MiB) is below that for N=2^17.
const MAXMEM = 256 * 1024 * 1024

/** @param {string} password */
export async function hashPassword(password) {
  const salt = randomBytes(16)
  const key = await derive(password.normalize("NFKC"), salt, 32, { ...PARAMS, maxmem: MAXMEM })
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString("base64")}$${key.toString("base64")}`
}

/**
 * @param {string} password
 * @param {string} stored a string from {@link hashPassword}
 */
export async function verifyPassword(password, stored) {
  const [scheme, N, r, p, salt, expected] = stored.split("$")
  if (scheme !== "scrypt" || !salt || !expected) return false
  const want = Buffer.from(expected, "base64")
  const key = await derive(password.normalize("NFKC"), Buffer.from(salt, "base64"), want.length, {
    N: Number(N),
    r: Number(r),
    p: Number(p),
    maxmem: MAXMEM,
  })
  return timingSafeEqual(key, want)
}

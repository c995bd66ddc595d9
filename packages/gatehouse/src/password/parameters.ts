/**
 * What each algorithm's parameters are, the defaults new hashes get (OWASP's Password Storage
 * Cheat Sheet), the bounds a stored string must stay within, and when a stored string is weaker
 * than the defaults.
 * @module
 */
import { PasswordHashError } from "../errors.js"

/** The key derivation functions a hash string may name. */
export type PasswordAlgorithm = "scrypt" | "pbkdf2-sha256"

/** scrypt's cost parameters: N = 2^logN (CPU and memory), block size r, parallelism p. */
export interface ScryptParameters {
  readonly algorithm: "scrypt"
  readonly logN: number
  readonly r: number
  readonly p: number
}

/** PBKDF2-HMAC-SHA256's iteration count. */
export interface Pbkdf2Parameters {
  readonly algorithm: "pbkdf2-sha256"
  readonly iterations: number
}

export type KdfParameters = ScryptParameters | Pbkdf2Parameters

export const DEFAULT_PARAMETERS: { readonly [A in PasswordAlgorithm]: Extract<KdfParameters, { algorithm: A }> } = {
  scrypt: { algorithm: "scrypt", logN: 17, r: 8, p: 1 },
  "pbkdf2-sha256": { algorithm: "pbkdf2-sha256", iterations: 600_000 },
}
export const SALT_BYTES = 16
export const KEY_BYTES = 32

// A stored string is read from a database an attacker may have written to, so it must not be
// able to make one verification cost much more than a normal one: scrypt may use at most twice
// the default memory and four times the default work, PBKDF2 ten times the default iterations.
const MAX_SCRYPT_MEMORY = 2 * 128 * 2 ** 17 * 8
const MAX_SCRYPT_WORK = 4 * 2 ** 17 * 8
const MAX_PBKDF2_ITERATIONS = 10 * 600_000
const SALT_RANGE = [8, 64] as const

/** Whether `value` is one of the algorithm names. */
export function isPasswordAlgorithm(value: unknown): value is PasswordAlgorithm {
  return value === "scrypt" || value === "pbkdf2-sha256"
}

/** The bytes scrypt allocates for these parameters (OpenSSL's count: the V array and the B blocks). */
export function scryptMemory({ logN, r, p }: ScryptParameters): number {
  return 128 * r * (2 ** logN + 2) + 128 * r * p
}

/**
 * Throws a `parameters-out-of-range` {@link PasswordHashError} unless the values are within bounds.
 * The key must be exactly {@link KEY_BYTES} long: both functions' shorter outputs are prefixes of
 * their longer ones, so a key read at any stored length would let a key cut short still match.
 */
export function assertWithinBounds(parameters: KdfParameters, saltBytes: number, keyBytes: number): void {
  const outOfRange = (detail: string) => new PasswordHashError("parameters-out-of-range", `password hash parameters out of range: ${detail}`)
  if (saltBytes < SALT_RANGE[0] || saltBytes > SALT_RANGE[1]) throw outOfRange(`a ${saltBytes}-byte salt (${SALT_RANGE.join("–")} accepted)`)
  if (keyBytes !== KEY_BYTES) throw outOfRange(`a ${keyBytes}-byte key (${KEY_BYTES} accepted)`)
  if (parameters.algorithm === "scrypt") {
    const { logN, r, p } = parameters
    if (logN < 1 || r < 1 || p < 1) throw outOfRange("scrypt ln, r and p must be at least 1")
    if (128 * 2 ** logN * r > MAX_SCRYPT_MEMORY) throw outOfRange(`scrypt ln=${logN}, r=${r} needs more than ${MAX_SCRYPT_MEMORY / 2 ** 20} MiB`)
    if (2 ** logN * r * p > MAX_SCRYPT_WORK) throw outOfRange(`scrypt ln=${logN}, r=${r}, p=${p} is over four times the default work`)
  } else {
    const { iterations } = parameters
    if (iterations < 1 || iterations > MAX_PBKDF2_ITERATIONS) throw outOfRange(`i=${iterations} (1–${MAX_PBKDF2_ITERATIONS} accepted)`)
  }
}

/** Whether any parameter or the salt is below what a new hash would get. */
export function isWeakerThanDefaults(parameters: KdfParameters, saltBytes: number): boolean {
  if (saltBytes < SALT_BYTES) return true
  if (parameters.algorithm === "scrypt") {
    const wanted = DEFAULT_PARAMETERS.scrypt
    return parameters.logN < wanted.logN || parameters.r < wanted.r || parameters.p < wanted.p
  }
  return parameters.iterations < DEFAULT_PARAMETERS["pbkdf2-sha256"].iterations
}

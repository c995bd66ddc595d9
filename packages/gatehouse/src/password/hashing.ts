/**
 * hashPassword, verifyPassword and needsRehash over a runtime's key derivation. The two builds
 * (index.ts on Web Crypto, node.ts with scrypt) differ only in the {@link PasswordRuntime} they pass.
 * Every derivation of either goes through the one process-wide concurrency limit.
 * @module
 */
import { PasswordHashError, PasswordInputError } from "../errors.js"
import { DEFAULT_PARAMETERS, isPasswordAlgorithm, isWeakerThanDefaults, KEY_BYTES, SALT_BYTES, type KdfParameters, type PasswordAlgorithm } from "./parameters.js"
import { limited } from "./derivation-limit.js"
import { passwordBytes, PROBLEM_MESSAGES } from "./password-input.js"
import { formatHash, parseHash } from "./phc.js"

/** Options of `hashPassword` and `needsRehash`. */
export interface PasswordHashOptions {
  /**
   * The algorithm new hashes use. Default: `"scrypt"` on Node, `"pbkdf2-sha256"` elsewhere. Set
   * `"pbkdf2-sha256"` on Node too when the same hashes must also be verified on a Web-only runtime.
   */
  algorithm?: PasswordAlgorithm
}

/** What differs between runtimes: the default algorithm, deriving a key, comparing two keys. */
export interface PasswordRuntime {
  readonly defaultAlgorithm: PasswordAlgorithm
  derive(password: Uint8Array<ArrayBuffer>, parameters: KdfParameters, salt: Uint8Array<ArrayBuffer>, length: number): Promise<Uint8Array>
  equal(a: Uint8Array, b: Uint8Array): boolean
}

export async function hashWith(runtime: PasswordRuntime, password: unknown, options: PasswordHashOptions | undefined): Promise<string> {
  const parameters = DEFAULT_PARAMETERS[targetAlgorithm(runtime, options)]
  const input = passwordBytes(password)
  if (!input.ok) throw new PasswordInputError(input.problem, PROBLEM_MESSAGES[input.problem])
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES))
  const key = await limited(() => runtime.derive(input.bytes, parameters, salt, KEY_BYTES))
  return formatHash({ parameters, salt, key })
}

export async function verifyWith(runtime: PasswordRuntime, password: unknown, hash: string): Promise<boolean> {
  // The stored string first: a corrupt or hostile row is reported whatever the password is.
  const stored = parseHash(hash)
  // A password hashPassword would refuse was never hashed, so it matches nothing.
  const input = passwordBytes(password)
  if (!input.ok) return false
  const key = await limited(() => runtime.derive(input.bytes, stored.parameters, stored.salt, stored.key.length))
  return runtime.equal(key, stored.key)
}

export function needsRehashWith(runtime: PasswordRuntime, hash: string, options: PasswordHashOptions | undefined): boolean {
  const stored = parseHash(hash)
  if (stored.parameters.algorithm !== targetAlgorithm(runtime, options)) return true
  return isWeakerThanDefaults(stored.parameters, stored.salt.length)
}

function targetAlgorithm(runtime: PasswordRuntime, options: PasswordHashOptions | undefined): PasswordAlgorithm {
  const algorithm: unknown = options?.algorithm ?? runtime.defaultAlgorithm
  if (!isPasswordAlgorithm(algorithm)) throw new PasswordHashError("unknown-algorithm", `the algorithm option must be "scrypt" or "pbkdf2-sha256"`)
  return algorithm
}

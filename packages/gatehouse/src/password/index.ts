/**
 * Password hashing for credentials sign-in: `hashPassword` when a password is set,
 * `verifyPassword` when someone signs in, `needsRehash` to upgrade old hashes as users sign in.
 *
 * - **Algorithms** (OWASP's Password Storage Cheat Sheet): where package.json's `node` condition
 *   applies, new hashes are scrypt with N=2^17, r=8, p=1 — about 128 MiB and a few hundred
 *   milliseconds per hash, on libuv's thread pool, which Web Crypto (the JWT session checks)
 *   shares. Everywhere else (workers, edge runtimes, browsers) they are PBKDF2-HMAC-SHA256
 *   with 600,000 iterations through Web Crypto. Both use a 16-byte random salt and a 32-byte key.
 *   A PBKDF2 hash verifies on every runtime; a scrypt hash needs Node's `node:crypto` and makes
 *   the Web build throw a `needs-node` {@link PasswordHashError}. Cloudflare Workers refuse PBKDF2
 *   above 100,000 iterations (workerd issue 1346), so there Web Crypto itself rejects hashing and
 *   verifying at OWASP's count.
 * - **Format**: PHC strings that carry the algorithm and every parameter
 *   (`$scrypt$ln=17,r=8,p=1$<salt>$<key>`, `$pbkdf2-sha256$i=600000$<salt>$<key>`, base64 without
 *   padding), so hashes written with older parameters keep verifying after the defaults change,
 *   and passlib's scrypt hashes verify here.
 * - **Hostile strings**: a stored string is parsed and bounded before any work — scrypt at most
 *   256 MiB and four times the default work, PBKDF2 at most ten times the default iterations,
 *   salts of 8–64 bytes, 32-byte keys — so a database row cannot stall or exhaust the server.
 * - **Passwords** are NFKC-normalized, then UTF-8 encoded, so every Unicode spelling of the same
 *   text is the same password. They must be non-empty, at most {@link MAX_PASSWORD_LENGTH}
 *   (1024) UTF-16 code units once normalized, and free of lone surrogates; `hashPassword` throws
 *   a {@link PasswordInputError} otherwise, and `verifyPassword` answers `false`.
 * - **Concurrency**: at most {@link getPasswordHashingConcurrency} hashes and verifications run at
 *   once in the process (on Node, by default, two threads of libuv's pool stay free, so session
 *   checks never wait behind password guesses); the rest wait their turn, and past 1,000 waiting
 *   they are refused with a `busy` {@link PasswordHashError}. See {@link setPasswordHashingConcurrency}.
 * - **Errors**: a wrong password is `false`, never an exception. A stored string that cannot be
 *   used (malformed, unknown algorithm, out-of-range parameters, scrypt without Node) throws a
 *   {@link PasswordHashError}: it is a data problem to be seen in the logs, not a failed sign-in.
 *   Messages never contain the salt or key.
 *
 * @example
 * ```ts
 * import { hashPassword, verifyPassword, needsRehash } from "gatehouse-auth/password"
 *
 * const hash = await hashPassword("correct horse battery staple") // store this
 * if (await verifyPassword(input, hash) && needsRehash(hash)) await save(await hashPassword(input))
 * ```
 * @module gatehouse-auth/password
 */
import { equalBytes } from "../jwt/constant-time.js"
import { PasswordHashError } from "../errors.js"
import { concurrency, setConcurrency } from "./derivation-limit.js"
import { hashWith, needsRehashWith, verifyWith, type PasswordHashOptions, type PasswordRuntime } from "./hashing.js"
import { pbkdf2Sha256 } from "./pbkdf2.js"

export { PasswordHashError, PasswordInputError, type PasswordHashProblem, type PasswordInputProblem } from "../errors.js"
export type { PasswordHashOptions } from "./hashing.js"
export type { PasswordAlgorithm } from "./parameters.js"
export { MAX_PASSWORD_LENGTH } from "./password-input.js"

const webCrypto: PasswordRuntime = {
  defaultAlgorithm: "pbkdf2-sha256",
  derive: async (password, parameters, salt, length) => {
    if (parameters.algorithm === "scrypt") {
      throw new PasswordHashError("needs-node", "scrypt hashes need Node's node:crypto; this runtime has only Web Crypto (PBKDF2)")
    }
    return pbkdf2Sha256(password, salt, parameters.iterations, length)
  },
  equal: equalBytes,
}

/**
 * Hashes a password for storage, with a fresh random salt and the current default parameters.
 *
 * @param password - The password as typed; it is NFKC-normalized first.
 * @param options - `algorithm` overrides the runtime's default (scrypt on Node, PBKDF2 elsewhere).
 * @returns A PHC string such as `$scrypt$ln=17,r=8,p=1$…$…` to store as is.
 * @throws {@link PasswordInputError} for a password that is not a string, is empty, is longer than
 *   {@link MAX_PASSWORD_LENGTH} once normalized, or holds a lone surrogate.
 * @throws {@link PasswordHashError} `needs-node` for `algorithm: "scrypt"` where only Web Crypto exists;
 *   `busy` when 1,000 hashes wait for the concurrency limit already.
 * @example
 * ```ts
 * import { hashPassword } from "gatehouse-auth/password"
 *
 * const hash = await hashPassword(form.get("password"))
 * await db.query("UPDATE users SET password_hash = $1 WHERE id = $2", [hash, userId])
 * ```
 */
export function hashPassword(password: string, options?: PasswordHashOptions): Promise<string> {
  return hashWith(webCrypto, password, options)
}

/**
 * Whether `password` is the one `hash` was made from. The derived key is compared in constant
 * time. The hash's own algorithm and parameters are used, so hashes made with older defaults
 * still verify.
 *
 * @param password - The password as typed; a non-string, empty, too long or ill-formed one is `false`.
 * @param hash - A string from {@link hashPassword} (or another PHC scrypt / pbkdf2-sha256 writer).
 * @returns `true` for the right password, `false` for any other.
 * @throws {@link PasswordHashError} when `hash` cannot be used: `malformed`, `unknown-algorithm`,
 *   `parameters-out-of-range` (refused before any work), or `needs-node` (a scrypt hash outside
 *   Node); `busy` when 1,000 hashes wait for the concurrency limit already (nothing was checked:
 *   inside a credentials provider's `authorize`, let it propagate and the sign-in answers `503`).
 * @example
 * ```ts
 * import Credentials from "gatehouse-auth/providers/credentials"
 * import { verifyPassword } from "gatehouse-auth/password"
 *
 * Credentials({
 *   authorize: async ({ email, password }) => {
 *     const user = await findUser(String(email))
 *     // Check a stand-in hash for unknown users too, so the answer time tells nobody who exists.
 *     const ok = await verifyPassword(String(password), user?.passwordHash ?? standInHash)
 *     return user && ok ? user : null
 *   },
 * })
 * ```
 */
export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return verifyWith(webCrypto, password, hash)
}

/**
 * Whether a stored hash should be replaced by a new one the next time the password is known
 * (right after a successful {@link verifyPassword}): `true` when it uses another algorithm than
 * new hashes would (so on Node a PBKDF2 hash is upgraded to scrypt, and on a Web-only runtime a
 * scrypt hash is flagged though it cannot be verified there), or when any parameter or its salt is
 * smaller than the current defaults.
 *
 * @param hash - A stored hash string.
 * @param options - `algorithm`: the algorithm new hashes use, if not the runtime's default.
 * @throws {@link PasswordHashError} for a string {@link verifyPassword} would refuse too.
 * @example
 * ```ts
 * import { hashPassword, needsRehash, verifyPassword } from "gatehouse-auth/password"
 *
 * if (await verifyPassword(password, user.passwordHash)) {
 *   if (needsRehash(user.passwordHash)) await updateHash(user.id, await hashPassword(password))
 *   return user
 * }
 * ```
 */
export function needsRehash(hash: string, options?: PasswordHashOptions): boolean {
  return needsRehashWith(webCrypto, hash, options)
}

/**
 * Sets how many password hashes and verifications may be computed at once in this process
 * (both builds share the limit). The rest wait their turn, first come first served; past 1,000
 * waiting, `hashPassword` and `verifyPassword` reject at once with a `busy`
 * {@link PasswordHashError}, so a flood of sign-in attempts cannot grow memory without bound.
 *
 * Why a limit: a derivation holds a thread of libuv's pool (4 threads unless `UV_THREADPOOL_SIZE`
 * says otherwise) for hundreds of milliseconds, and Web Crypto, which decrypts every JWT session,
 * waits for the same threads. Eight concurrent wrong passwords used to hold every session check
 * for over a second.
 *
 * Defaults: on Node, `max(1, min(threadpool − 2, availableParallelism() − 1))`, so two pool
 * threads stay free for session checks and one core for the event loop (1 on a 2-core machine
 * with the default pool, 2 from 3 cores up; raise `UV_THREADPOOL_SIZE` to allow more). Elsewhere
 * 2: where this build runs on Node after all (a bundler that ignored the `node` condition) that
 * leaves half of the default pool free, and where derivations run on the isolate's own thread
 * (Cloudflare Workers) a limit changes only their order.
 *
 * @param limit - A whole number of at least 1; leave it out to go back to the default.
 * @throws `InvalidConfig` (from `gatehouse-auth/errors`) for anything else; the limit in force is kept.
 * @example
 * ```ts
 * import { setPasswordHashingConcurrency } from "gatehouse-auth/password"
 *
 * // A 16-core server started with UV_THREADPOOL_SIZE=16, that signs many people in at once:
 * setPasswordHashingConcurrency(12)
 * ```
 */
export function setPasswordHashingConcurrency(limit?: number): void {
  setConcurrency(limit)
}

/**
 * How many password hashes and verifications may be computed at once in this process: the limit
 * {@link setPasswordHashingConcurrency} set, else the runtime's default.
 *
 * @example
 * ```ts
 * import { getPasswordHashingConcurrency } from "gatehouse-auth/password"
 *
 * console.info(`password hashing: ${getPasswordHashingConcurrency()} at a time`)
 * ```
 */
export function getPasswordHashingConcurrency(): number {
  return concurrency()
}

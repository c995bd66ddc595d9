/**
 * The Node build of `gatehouse-auth/password` (package.json's `node` condition): new hashes are scrypt,
 * derived by `node:crypto`; PBKDF2 hashes still verify (through Web Crypto, as in the Web build).
 * The published types and documentation are index.ts's, so this file keeps exactly its API.
 * @module
 */
import type * as WebBuild from "./index.js"
import { concurrency, setConcurrency, setDefaultConcurrency } from "./derivation-limit.js"
import { hashWith, needsRehashWith, verifyWith, type PasswordHashOptions, type PasswordRuntime } from "./hashing.js"
import { nodeDefaultConcurrency } from "./node-concurrency.js"
import { equalKeys, scryptKey } from "./node-scrypt.js"
import { pbkdf2Sha256 } from "./pbkdf2.js"
import { PasswordHashError, PasswordInputError } from "../errors.js"
import { MAX_PASSWORD_LENGTH } from "./password-input.js"

export { PasswordHashError, PasswordInputError, type PasswordHashProblem, type PasswordInputProblem } from "../errors.js"
export type { PasswordHashOptions } from "./hashing.js"
export type { PasswordAlgorithm } from "./parameters.js"
export { MAX_PASSWORD_LENGTH } from "./password-input.js"

// Only this build knows libuv's pool size; it is read once, as libuv reads it once.
setDefaultConcurrency(nodeDefaultConcurrency())

const node: PasswordRuntime = {
  defaultAlgorithm: "scrypt",
  derive: (password, parameters, salt, length) =>
    parameters.algorithm === "scrypt" ? scryptKey(password, salt, parameters, length) : pbkdf2Sha256(password, salt, parameters.iterations, length),
  equal: equalKeys,
}

/** See index.ts: hashes with scrypt (N=2^17, r=8, p=1) unless `options.algorithm` says otherwise. */
export function hashPassword(password: string, options?: PasswordHashOptions): Promise<string> {
  return hashWith(node, password, options)
}

/** See index.ts: verifies scrypt and PBKDF2 hashes. */
export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return verifyWith(node, password, hash)
}

/** See index.ts: a PBKDF2 hash needs rehashing to scrypt here, unless `options.algorithm` says otherwise. */
export function needsRehash(hash: string, options?: PasswordHashOptions): boolean {
  return needsRehashWith(node, hash, options)
}

/** See index.ts: the process-wide limit; on Node it defaults to max(1, min(threadpool − 2, cores − 1)). */
export function setPasswordHashingConcurrency(limit?: number): void {
  setConcurrency(limit)
}

/** See index.ts. */
export function getPasswordHashingConcurrency(): number {
  return concurrency()
}

// Both builds are typed by index.d.ts, so this build must offer exactly the Web build's exports.
void ({
  hashPassword,
  verifyPassword,
  needsRehash,
  setPasswordHashingConcurrency,
  getPasswordHashingConcurrency,
  PasswordHashError,
  PasswordInputError,
  MAX_PASSWORD_LENGTH,
} satisfies typeof WebBuild)

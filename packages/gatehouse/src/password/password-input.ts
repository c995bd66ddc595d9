/**
 * The password as bytes: NFKC-normalized (so the composed and decomposed spellings of "é", or a
 * full-width digit and its ASCII twin, are the same password on every keyboard), then UTF-8.
 * @module
 */
import type { PasswordInputProblem } from "../errors.js"

/** The longest password accepted, in UTF-16 code units after NFKC normalization. */
export const MAX_PASSWORD_LENGTH = 1024
// Normalizing costs time in the input's length, so far longer input is refused unread. No
// character decomposes (NFD) to more than four code units, so even the decomposed spelling of a
// password within MAX_PASSWORD_LENGTH stays under this cap.
const MAX_INPUT_LENGTH = 4 * MAX_PASSWORD_LENGTH
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

const encoder = new TextEncoder()

export type PasswordBytes = { ok: true; bytes: Uint8Array<ArrayBuffer> } | { ok: false; problem: PasswordInputProblem }

/** The bytes a password is hashed as, or why it cannot be hashed. */
export function passwordBytes(password: unknown): PasswordBytes {
  if (typeof password !== "string") return { ok: false, problem: "not-a-string" }
  if (password.length === 0) return { ok: false, problem: "empty" }
  if (password.length > MAX_INPUT_LENGTH) return { ok: false, problem: "too-long" }
  // UTF-8 has no lone surrogates: the encoder would turn each into U+FFFD, so different
  // passwords would hash alike.
  if (LONE_SURROGATE.test(password)) return { ok: false, problem: "ill-formed-unicode" }
  const normalized = password.normalize("NFKC")
  if (normalized.length > MAX_PASSWORD_LENGTH) return { ok: false, problem: "too-long" }
  return { ok: true, bytes: encoder.encode(normalized) }
}

/** A sentence for each problem, for the thrown error. */
export const PROBLEM_MESSAGES: { readonly [P in PasswordInputProblem]: string } = {
  "not-a-string": "a password must be a string",
  empty: "a password must not be empty",
  "too-long": `a password may be at most ${MAX_PASSWORD_LENGTH} characters long`,
  "ill-formed-unicode": "a password must be well-formed Unicode (it holds a lone surrogate)",
}

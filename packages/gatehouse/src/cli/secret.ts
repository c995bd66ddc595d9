/**
 * `gatehouse secret`: a new `AUTH_SECRET`, and putting it into a dotenv file.
 * @module
 */
import { randomBytes } from "node:crypto"
import { appendFileSync, readFileSync, writeFileSync } from "node:fs"
import { resolve } from "node:path"
import { appendedAssignment, assignment, assigns, replaceAssignments } from "./env-file.js"

/** The variable the secret is written to, the one `setEnvDefaults` reads. */
export const SECRET_VARIABLE = "AUTH_SECRET"

/** The file written when no `--file` is given, relative to the working directory. */
export const DEFAULT_ENV_FILE = ".env.local"

/** The secret's length in random bytes: 256 bits, as `openssl rand -base64 32`. */
export const SECRET_BYTES = 32

/** A new secret: {@link SECRET_BYTES} random bytes from Node's CSPRNG, base64 (44 characters). */
export function generateSecret(): string {
  return randomBytes(SECRET_BYTES).toString("base64")
}

/** Options of {@link writeSecret}. */
export interface WriteSecretOptions {
  /** The directory a relative `file` is resolved against. */
  cwd: string
  /** The dotenv file, relative to `cwd` or absolute. Default {@link DEFAULT_ENV_FILE}. */
  file?: string | undefined
  /** The value to write, usually from {@link generateSecret}. */
  secret: string
  /** Replace an existing `AUTH_SECRET` instead of leaving the file alone. */
  force?: boolean | undefined
}

/**
 * What {@link writeSecret} did: `created` the file, `appended` a line to it, `replaced` the
 * existing assignment (with `force`), or nothing because the file already sets the secret
 * (`already-set`).
 */
export type SecretWriteOutcome = "created" | "appended" | "replaced" | "already-set"

/** The result of {@link writeSecret}: the absolute path of the file and what happened to it. */
export interface SecretWriteResult {
  path: string
  outcome: SecretWriteOutcome
}

/**
 * Puts `AUTH_SECRET="<secret>"` into a dotenv file. A new file is created readable by its owner
 * only (0600); an existing file keeps its mode and every byte except the line added or replaced.
 * An existing `AUTH_SECRET` (or `export AUTH_SECRET`) is replaced only with `force`, because a
 * new secret invalidates every session and so signs every user out.
 *
 * @throws the file system's error (with its `code`) when the file cannot be read or written.
 * @example
 * ```ts
 * writeSecret({ cwd: process.cwd(), secret: generateSecret() })
 * // → { path: "/app/.env.local", outcome: "created" }
 * ```
 */
export function writeSecret(options: WriteSecretOptions): SecretWriteResult {
  const path = resolve(options.cwd, options.file ?? DEFAULT_ENV_FILE)
  const content = readIfPresent(path)
  if (content === undefined) {
    // 0600: the file holds the key every session is signed with. "wx" fails rather than
    // overwrite a file created since we looked.
    writeFileSync(path, `${assignment(SECRET_VARIABLE, options.secret)}\n`, { mode: 0o600, flag: "wx" })
    return { path, outcome: "created" }
  }
  if (assigns(content, SECRET_VARIABLE)) {
    if (!options.force) return { path, outcome: "already-set" }
    writeFileSync(path, replaceAssignments(content, SECRET_VARIABLE, options.secret), "latin1")
    return { path, outcome: "replaced" }
  }
  // Appending, not rewriting: what is already in the file is never written again.
  appendFileSync(path, appendedAssignment(content, SECRET_VARIABLE, options.secret), "latin1")
  return { path, outcome: "appended" }
}

/** The file as Latin-1 (byte for byte, whatever its encoding), or `undefined` when there is none. */
function readIfPresent(path: string): string | undefined {
  try {
    return readFileSync(path, "latin1")
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined
    throw error
  }
}

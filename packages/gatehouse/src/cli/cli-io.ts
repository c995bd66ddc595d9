/**
 * What every `gatehouse` command writes to and resolves paths against.
 * @module
 */
import { isAbsolute, relative } from "node:path"

/** Where `main` works and writes: `process.cwd()` and the process's streams for the real CLI. */
export interface CliIO {
  /** The directory a relative `--file` (and the default `.env.local`) or folder is resolved against. */
  cwd: string
  /**
   * The environment the commands read (`DATABASE_URL`, `AUTH_SECRET`, …): `process.env` for the
   * real CLI; none when omitted, so a test sees only what it passes.
   */
  env?: Readonly<Record<string, string | undefined>>
  /** Writes text to standard output. */
  stdout(text: string): void
  /** Writes text to standard error. */
  stderr(text: string): void
}

/** The path relative to the working directory when it is inside it, else absolute. */
export function displayPath(path: string, cwd: string): string {
  const inside = relative(cwd, path)
  return inside && !inside.startsWith("..") && !isAbsolute(inside) ? inside : path
}

/**
 * A command line the command cannot run: `message` and the command's `usage` on stderr, exit code 1.
 */
export function usageError(io: CliIO, message: string, usage: string): number {
  io.stderr(`gatehouse: ${message}\n\n${usage}`)
  return 1
}

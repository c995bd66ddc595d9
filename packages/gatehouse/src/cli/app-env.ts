/**
 * The environment an app would see, for the commands that check or reach what the app reaches
 * (`migrate`, `doctor`): the process environment over `.env.local` over `.env` in the working
 * directory, as Next.js, Vite and dotenv layer them (a variable already set is never replaced).
 * @module
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { parseEnv } from "node:util"
import type { CliIO } from "./cli-io.js"

/** The dotenv files read, lowest precedence first. */
export const APP_ENV_FILES = [".env", ".env.local"] as const

/** A variable's value and where it came from (`"environment"` or the file's name). */
export interface AppEnvValue {
  value: string
  source: "environment" | (typeof APP_ENV_FILES)[number]
}

/**
 * The app's variables with their sources. A file that is missing is skipped; one that cannot be
 * read or parsed is skipped too and named in `unreadable`, for the caller to report.
 *
 * @example
 * ```ts
 * const { values } = readAppEnv({ cwd: process.cwd(), env: process.env, stdout, stderr })
 * values.get("DATABASE_URL")?.value
 * ```
 */
export function readAppEnv(io: CliIO): { values: Map<string, AppEnvValue>; unreadable: string[] } {
  const values = new Map<string, AppEnvValue>()
  const unreadable: string[] = []
  for (const file of APP_ENV_FILES) {
    let text: string
    try {
      text = readFileSync(join(io.cwd, file), "utf8")
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") unreadable.push(file)
      continue
    }
    for (const [name, value] of Object.entries(parseEnv(text))) {
      if (value !== undefined) values.set(name, { value, source: file })
    }
  }
  for (const [name, value] of Object.entries(io.env ?? {})) {
    if (value !== undefined) values.set(name, { value, source: "environment" })
  }
  return { values, unreadable }
}

/** Just the values of {@link readAppEnv}, as an `env` object. */
export function appEnv(io: CliIO): Record<string, string> {
  return envValues(readAppEnv(io).values)
}

/** The values of a {@link readAppEnv} map, without their sources. */
export function envValues(values: ReadonlyMap<string, AppEnvValue>): Record<string, string> {
  return Object.fromEntries([...values].map(([name, { value }]) => [name, value]))
}

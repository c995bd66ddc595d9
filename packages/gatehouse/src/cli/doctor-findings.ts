/**
 * What `gatehouse doctor` reports: findings, each from one check, and the environment the checks
 * read, with where each variable came from so a finding can say which file to fix.
 * @module
 */
import { envValues, type AppEnvValue } from "./app-env.js"

/** How bad a finding is: `error` fails the deploy check (exit code 1), `warn` does not. */
export type FindingLevel = "ok" | "warn" | "error"

/** One line of the report. Messages name variables and files, never a secret's value. */
export interface Finding {
  /** The check that found it: `secret`, `url`, `providers`, `database`, `store`, `node` or `env`. */
  check: string
  level: FindingLevel
  message: string
}

/** The environment as the app sees it: values by name, and their sources. */
export interface DoctorEnv {
  /** Every variable with its value and source. */
  readonly values: ReadonlyMap<string, AppEnvValue>
  /** The values alone, as the library's environment functions take them. */
  readonly env: Readonly<Record<string, string>>
}

/** The environment for the checks, from {@link readAppEnv}'s values. */
export function doctorEnv(values: ReadonlyMap<string, AppEnvValue>): DoctorEnv {
  return { values, env: envValues(values) }
}

/**
 * `NAME (from .env.local)`, or `NAME (from the environment)`: which variable, and where to change
 * it. Never the value.
 */
export function named(env: DoctorEnv, name: string): string {
  const source = env.values.get(name)?.source
  if (source === undefined) return name
  return `${name} (from ${source === "environment" ? "the environment" : source})`
}

/** Whether the variable is set to something other than the empty string (which the library treats as unset). */
export function isSet(env: DoctorEnv, name: string): boolean {
  const value = env.env[name]
  return value !== undefined && value !== ""
}

/**
 * `gatehouse doctor [--json] [--url <url> | --file <path>]`: what a deploy check needs to know, one
 * line per finding, exit code 1 when a finding is a problem. It reads the environment as the app
 * does (the process's over `.env.local` over `.env`); it has no configuration of its own.
 * @module
 */
import process from "node:process"
import type { CliArguments } from "./arguments.js"
import { APP_ENV_FILES, readAppEnv } from "./app-env.js"
import { usageError, type CliIO } from "./cli-io.js"
import { checkDatabase } from "./doctor-database.js"
import { doctorEnv, type DoctorEnv, type Finding } from "./doctor-findings.js"
import { checkNode, enginesNode } from "./doctor-node.js"
import { checkProviders } from "./doctor-providers.js"
import { checkSecret } from "./doctor-secret.js"
import { checkStore, STORE_VARIABLE } from "./doctor-store.js"
import { checkUrl } from "./doctor-url.js"
import { masked, urlSecrets } from "./redaction.js"

/** The command word. */
export const DOCTOR_COMMAND = "doctor"

/** `gatehouse doctor --help`: the checks, the exit code and the `--json` shape. */
export const doctorUsage = `Usage: gatehouse ${DOCTOR_COMMAND} [options]

Checks what a deployment needs, reading the environment as the app does (the process's
variables over ${APP_ENV_FILES[1]} over ${APP_ENV_FILES[0]} in the current directory), and prints one line per
finding: "ok", "warn" or "error", the check, and what it found. Exits 1 when any finding
is an error, else 0. No secret or password is printed.

Checks:
  secret     AUTH_SECRET (or LEGACYAUTH_SECRET, NEXTAUTH_SECRET) and AUTH_SECRET_1..3: set,
             long enough, the rotation order
  url        AUTH_URL (or LEGACYAUTH_URL, NEXTAUTH_URL), AUTH_TRUST_HOST: the trusted host,
             the auth routes' URL and base path, the cookies' __Secure-/__Host- prefixes
  providers  AUTH_<PROVIDER>_ID / _SECRET / _ISSUER / _KEY: an id without its secret
  database   the schema against what this version needs (as "migrate status"), from
             --url, --file or DATABASE_URL; skipped when none is given; only a warning
             when DATABASE_URL's database has no Gatehouse table (another adapter's)
  store      ${STORE_VARIABLE}: the Redis server answers PING; skipped when unset
  node       this Node.js against gatehouse-auth's "engines"

Options:
  --json          Print one JSON document instead:
                  { "ok": boolean, "findings": [{ "check", "level", "message" }] }
                  ("ok" is false exactly when the exit code is 1)
  --url <url>     The PostgreSQL database to check instead of DATABASE_URL
  --file <path>   The SQLite database file to check
  -h, --help      Show this help
`

/** Runs the checks and prints their findings; resolves to 1 when one is an error, else 0. */
export async function doctorCommand(args: CliArguments, io: CliIO): Promise<number> {
  const misplaced = args.force ? "--force" : args.raw ? "--raw" : args.dryRun ? "--dry-run" : args.sql ? "--sql" : undefined
  if (misplaced) return usageError(io, `option '${misplaced}' is not one of ${DOCTOR_COMMAND}'s`, doctorUsage)
  if (args.operands.length > 0) return usageError(io, `unexpected argument '${args.operands[0]}'`, doctorUsage)
  if (args.url !== undefined && args.file !== undefined) return usageError(io, "give --url or --file, not both", doctorUsage)

  const { values, unreadable } = readAppEnv(io)
  const env = doctorEnv(values)
  const findings: Finding[] = unreadable.map((file) => ({ check: "env", level: "warn", message: `${file} cannot be read; checked without it` }))
  findings.push(...checkSecret(env), ...checkUrl(env), ...checkProviders(env))
  // The two that wait on the network run side by side; each has its own deadline.
  const [database, store] = await Promise.all([checkDatabase(env, { url: args.url, file: args.file, cwd: io.cwd }), checkStore(env)])
  findings.push(...database, ...store, ...checkNode(process.versions.node, enginesNode()))

  const shown = findings.map((finding) => ({ ...finding, message: masked(finding.message, sensitiveValues(env, args.url)) }))
  const ok = !shown.some((finding) => finding.level === "error")
  if (args.json) io.stdout(`${JSON.stringify({ ok, findings: shown }, null, 2)}\n`)
  else io.stdout(report(shown))
  return ok ? 0 : 1
}

/** The findings as lines, then a summary line. */
function report(findings: readonly Finding[]): string {
  const width = Math.max(...findings.map((finding) => finding.check.length))
  const lines = findings.map((finding) => `${finding.level.padEnd(5)}  ${finding.check.padEnd(width)}  ${finding.message}`)
  const errors = findings.filter((finding) => finding.level === "error").length
  const warnings = findings.filter((finding) => finding.level === "warn").length
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`
  const summary = errors > 0 ? `${count(errors, "problem")}, ${count(warnings, "warning")}.` : warnings > 0 ? `No problems, ${count(warnings, "warning")}.` : "No problems."
  return `${lines.join("\n")}\n\n${summary}\n`
}

/**
 * Values that must never reach the output: secrets, keys, tokens and passwords, and the password of
 * any URL. The checks name variables and never print a value; this catches a driver's message that
 * echoes one anyway.
 */
function sensitiveValues(env: DoctorEnv, url: string | undefined): string[] {
  const values: string[] = []
  for (const [name, value] of Object.entries(env.env)) {
    if (/SECRET|PASSWORD|PASSWD|TOKEN|KEY/i.test(name)) values.push(value)
    if (value.includes("://")) values.push(...urlSecrets(value))
  }
  if (url !== undefined) values.push(...urlSecrets(url))
  // Short values would mask ordinary words; the longest first, so a secret containing another is masked whole.
  return [...new Set(values)].filter((value) => value.length >= 6).sort((a, b) => b.length - a.length)
}


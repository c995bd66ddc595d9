/**
 * `gatehouse migrate-from-authjs [dir] [--dry-run]`: runs the migration on a folder and prints,
 * file by file, what changed (or would) and what it left for the user.
 * @module
 */
import { existsSync, readFileSync, statSync } from "node:fs"
import { join, resolve } from "node:path"
import { displayPath, type CliIO } from "./cli-io.js"
import { ownManifest } from "./own-manifest.js"
import { migrateApp, type FileMigration, type MigrationReport } from "./migrate.js"

/** The command word. */
export const MIGRATE_COMMAND = "migrate-from-authjs"

export const migrateUsage = `Usage: gatehouse ${MIGRATE_COMMAND} [dir] [options]

Switches the Auth.js app in dir (default: the current directory) to Gatehouse:
imports, export-froms, require() and import() calls, declare module and
/// <reference types> specifiers in .ts .tsx .mts .cts .js .jsx .mjs .cjs and
.svelte files, and the next-auth / @auth/* entries of package.json. Auth.js
adapters, configuration objects and .env files are left as they are. Prints each
change with its line, and every Auth.js import it cannot map.

Options:
  --dry-run   Print what would change; write nothing
  -h, --help  Show this help
`

/** What {@link migrateCommand} is asked to do. */
export interface MigrateCommandOptions {
  /** The app's folder as given; the working directory when `undefined`. */
  dir: string | undefined
  dryRun: boolean
}

/**
 * Runs the migration and prints its report. Returns 0 when every file was read and written (the
 * imports it could not map are reported, and are no failure), 1 when the folder is missing or is
 * not an app (no `package.json`), or a file could not be read or written.
 *
 * @example
 * ```ts
 * migrateCommand({ dir: "apps/web", dryRun: true }, { cwd: process.cwd(), stdout: console.log, stderr: console.error })
 * ```
 */
export function migrateCommand(options: MigrateCommandOptions, io: CliIO): number {
  const dir = resolve(io.cwd, options.dir ?? ".")
  const shown = options.dir ?? "."
  const problem = folderProblem(dir)
  if (problem) {
    io.stderr(`gatehouse: ${shown} ${problem}\n`)
    return 1
  }
  const range = `^${ownManifest().version}`
  const report = migrateApp({ dir, dryRun: options.dryRun, range })
  io.stdout(formatReport(report, { dir: dir === resolve(io.cwd) ? "." : displayPath(dir, io.cwd), dryRun: options.dryRun, range }))
  for (const failure of report.failures) io.stderr(`gatehouse: cannot change ${failure.path}: ${failure.reason}\n`)
  return report.failures.length > 0 ? 1 : 0
}

/** Why `dir` cannot be migrated, as the end of a sentence that starts with its name; `undefined` when it can. */
function folderProblem(dir: string): string | undefined {
  let isDirectory: boolean
  try {
    isDirectory = statSync(dir).isDirectory()
  } catch {
    return "does not exist"
  }
  if (!isDirectory) return "is not a folder: name the folder of your app (where its package.json is)"
  if (!existsSync(join(dir, "package.json"))) return "has no package.json, so it is not an app: run this in your app's folder, or name that folder"
  return undefined
}


/**
 * The report as printed: each file with its changes by line, then what needs the user, then a
 * summary and the next step.
 */
export function formatReport(report: MigrationReport, context: { dir: string; dryRun: boolean; range: string }): string {
  const changed = report.files.filter((file) => file.changes.length > 0)
  const withProblems = report.files.filter((file) => file.problems.length > 0)
  const count = changed.reduce((sum, file) => sum + file.changes.length, 0)
  const lines: string[] = []
  if (count === 0) {
    lines.push(`No Auth.js imports or dependencies to change in ${context.dir}.`)
  } else {
    const unwritten = context.dryRun ? " (dry run: nothing written)" : report.written ? "" : " (nothing written: a file below could not be changed; fix it, then run this again)"
    lines.push(`${report.written ? "Changed" : "Would change"} ${count} ${count === 1 ? "specifier or dependency" : "specifiers and dependencies"} in ${changed.length} ${changed.length === 1 ? "file" : "files"} of ${context.dir}${unwritten}:`)
    for (const file of changed) {
      lines.push("", file.path)
      for (const change of file.changes) lines.push(`  ${change.line}: ${change.kind} ${change.from} ${change.to === undefined ? "removed (gatehouse-auth replaces it)" : `→ ${change.to}`}`)
    }
  }
  if (withProblems.length > 0) {
    lines.push("", "Left as they are, for you to change by hand:")
    for (const file of withProblems) for (const problem of file.problems) lines.push(`  ${formatProblem(file, problem)}`)
  }
  if (count > 0) {
    if (context.dryRun) lines.push("", "Run it again without --dry-run to write these changes.")
    else if (report.written) lines.push("", `Now install (npm install, or your package manager's) to bring in gatehouse-auth@${context.range}.`)
  }
  return `${lines.join("\n")}\n`
}

function formatProblem(file: FileMigration, problem: FileMigration["problems"][number]): string {
  return `${file.path}:${problem.line}: ${problem.subject}: ${problem.reason}`
}

/**
 * `gatehouse migrate-from-authjs`: an Auth.js app's imports, `declare module` and
 * `/// <reference types>` specifiers and `package.json` dependencies turned into Gatehouse's,
 * across its source files. Configuration objects and `.env` files are never changed: the
 * config stays as it is, and the `AUTH_*` variables mean the same.
 * @module
 */
import { readdirSync, readFileSync, writeFileSync, type Dirent } from "node:fs"
import { extname, join, relative, sep } from "node:path"
import { isAuthjsSpecifier, mapSpecifier, shippedProvider, type ProviderCheck } from "./authjs-specifiers.js"
import { findModuleReferences, type ModuleReference, type StringMention } from "./module-references.js"
import { lineOf, migratePackageJson, PackageJsonError } from "./package-json.js"
import { svelteScripts } from "./svelte-scripts.js"

/** The source files read, by extension. */
export const SOURCE_EXTENSIONS: readonly string[] = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".svelte"]

/** Folders never entered: dependencies, version control, and what frameworks and tools build or cache. */
export const SKIPPED_FOLDERS: readonly string[] = [
  "node_modules",
  ".git",
  ".hg",
  ".svn",
  ".next",
  ".svelte-kit",
  ".output",
  ".vinxi",
  ".vercel",
  ".netlify",
  ".turbo",
  ".cache",
  ".nuxt",
  "build",
  "dist",
  "out",
  "coverage",
]

/** One specifier or dependency changed. */
export interface MigrationChange {
  line: number
  /** How it was named (`import`, `declare module`, …), or the `package.json` section. */
  kind: string
  /** The specifier, or the `package.json` entry (`"next-auth": "5.0.0-beta.25"`). */
  from: string
  /** What it became; `undefined` for a `package.json` entry removed because another became `gatehouse-auth`. */
  to: string | undefined
}

/** Something left as it was that the user has to look at. */
export interface MigrationProblem {
  line: number
  /** The specifier or package concerned. */
  subject: string
  reason: string
}

/** What happened to one file, by its path relative to the app's folder (with `/`). */
export interface FileMigration {
  path: string
  changes: MigrationChange[]
  problems: MigrationProblem[]
}

/** What {@link migrateApp} did (or, in a dry run, would do). */
export interface MigrationReport {
  files: FileMigration[]
  /** Files that could not be read, changed or written: the command fails. */
  failures: { path: string; reason: string }[]
  /**
   * Whether the changes were written: not in a dry run, and not when a file could not be read or
   * changed (then nothing is, so the app is never left half switched).
   */
  written: boolean
}

/** Options of {@link migrateApp}. */
export interface MigrateOptions {
  /** The app's folder, with its `package.json`. */
  dir: string
  /** Report only: write nothing. */
  dryRun: boolean
  /** The range `gatehouse-auth` is added with (`^<this package's version>`). */
  range: string
  /** Which provider modules exist. Default: the package's own. */
  hasProvider?: ProviderCheck
}

/**
 * Rewrites the Auth.js app in `options.dir` (or, with `dryRun`, only says what it would
 * rewrite). Every file is read and changed in memory first; when one cannot be (unreadable, not
 * UTF-8, a `package.json` that is not JSON) it is listed in `failures` and nothing is written, so
 * the app is never left importing Gatehouse with `next-auth` in its dependencies, or the other way
 * round. The `package.json` files are written last.
 *
 * @example
 * ```ts
 * const report = migrateApp({ dir: "/path/to/app", dryRun: true, range: "^0.1.0" })
 * for (const file of report.files) console.log(file.path, file.changes.length)
 * ```
 */
export function migrateApp(options: MigrateOptions): MigrationReport {
  const hasProvider = options.hasProvider ?? shippedProvider
  const report: MigrationReport = { files: [], failures: [], written: false }
  const writes: { path: string; name: string; text: string }[] = []
  for (const path of sourceFiles(options.dir)) {
    const name = relative(options.dir, path).split(sep).join("/")
    let bytes: Buffer
    try {
      bytes = readFileSync(path)
    } catch (error) {
      report.failures.push({ path: name, reason: reasonOf(error) })
      continue
    }
    const text = bytes.toString("utf8")
    let migrated: { text: string; file: FileMigration }
    try {
      migrated = name === "package.json" || name.endsWith("/package.json") ? migratePackage(text, name, options.range) : migrateSource(text, name, hasProvider)
    } catch (error) {
      if (!(error instanceof PackageJsonError)) throw error
      report.failures.push({ path: name, reason: error.message })
      continue
    }
    if (migrated.file.changes.length === 0 && migrated.file.problems.length === 0) continue
    if (migrated.text !== text && !Buffer.from(text, "utf8").equals(bytes)) {
      // Decoding replaced bytes that are not UTF-8; writing the text back would change them.
      report.failures.push({ path: name, reason: "not UTF-8 text; change its imports by hand" })
      continue
    }
    report.files.push(migrated.file)
    if (migrated.text !== text) writes.push({ path, name, text: migrated.text })
  }
  if (options.dryRun || report.failures.length > 0) return report
  const isManifest = (name: string) => name === "package.json" || name.endsWith("/package.json")
  writes.sort((a, b) => Number(isManifest(a.name)) - Number(isManifest(b.name)))
  for (const { path, name, text } of writes) {
    try {
      writeFileSync(path, text)
    } catch (error) {
      report.failures.push({ path: name, reason: reasonOf(error) })
    }
  }
  report.written = true
  return report
}

/** A source file's specifiers mapped: the new text, and what changed or could not be. */
export function migrateSource(text: string, path: string, hasProvider: ProviderCheck): { text: string; file: FileMigration } {
  const file: FileMigration = { path, changes: [], problems: [] }
  const references: ModuleReference[] = []
  const mentions: StringMention[] = []
  const extension = extname(path)
  if (extension === ".svelte") {
    for (const block of svelteScripts(text)) {
      const found = findModuleReferences(text.slice(block.start, block.end), { jsx: false }, block.start)
      references.push(...found.references)
      mentions.push(...found.mentions)
    }
  } else {
    const found = findModuleReferences(text, { jsx: extension === ".tsx" || extension === ".jsx" || extension === ".js" })
    references.push(...found.references)
    mentions.push(...found.mentions)
  }

  let out = ""
  let pos = 0
  for (const reference of references) {
    const outcome = mapSpecifier(reference.specifier, hasProvider)
    if (!outcome) continue
    const line = lineOf(text, reference.start)
    if ("unmapped" in outcome) {
      file.problems.push({ line, subject: reference.specifier, reason: outcome.unmapped })
      continue
    }
    file.changes.push({ line, kind: reference.kind, from: JSON.stringify(reference.specifier), to: JSON.stringify(outcome.to) })
    if (reference.escaped) {
      out += text.slice(pos, reference.literalStart) + reference.quote + outcome.to + reference.quote
      pos = reference.literalEnd
    } else {
      out += text.slice(pos, reference.start) + outcome.to
      pos = reference.end
    }
  }
  out += text.slice(pos)

  for (const mention of mentions) {
    if (!isAuthjsSpecifier(mention.value)) continue
    const where = mention.kind === "jsdoc" ? "in a JSDoc comment" : "in a string that is not an import"
    file.problems.push({ line: lineOf(text, mention.start), subject: mention.value, reason: `named ${where}; left as it is` })
  }
  file.problems.sort((a, b) => a.line - b.line)
  return { text: out, file }
}

function migratePackage(text: string, path: string, range: string): { text: string; file: FileMigration } {
  const migrated = migratePackageJson(text, range)
  const file: FileMigration = {
    path,
    changes: migrated.changes.map((change) => ({
      line: change.line,
      kind: change.section,
      from: `${JSON.stringify(change.name)}: ${JSON.stringify(change.version)}`,
      to: change.replacedBy === undefined ? undefined : `"gatehouse-auth": ${JSON.stringify(change.replacedBy)}`,
    })),
    problems: migrated.notices.map((notice) => ({ line: notice.line, subject: notice.name, reason: `in ${notice.section}: no Gatehouse integration for it; left as it is` })),
  }
  return { text: migrated.text, file }
}

/** The source files and `package.json` files under `dir`, in a stable order, skipping {@link SKIPPED_FOLDERS} and symbolic links. */
function* sourceFiles(dir: string): Generator<string> {
  let entries: Dirent[]
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch {
    return
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  for (const entry of entries) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.includes(entry.name)) yield* sourceFiles(path)
    } else if (entry.isFile() && (entry.name === "package.json" || SOURCE_EXTENSIONS.includes(extname(entry.name)))) {
      yield path
    }
  }
}

function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  if (code === "EACCES" || code === "EPERM") return "permission denied"
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]!
}

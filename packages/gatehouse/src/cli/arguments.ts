/**
 * Reading the `gatehouse` command line. A handful of options need no parser library, and reading them
 * here lets every mistake be reported as one short line of our own. Which options and operands
 * a command takes is the command's to check.
 * @module
 */

/** What a `gatehouse …` command line asks for. */
export interface CliArguments {
  /** The command word (`"secret"`), wherever it stands among the options; `undefined` when none. */
  command: string | undefined
  /** The words after the command that are not options (`migrate-from-authjs`'s folder), in order. */
  operands: string[]
  /** `-h` / `--help`. */
  help: boolean
  /** `--force`: replace an existing secret. */
  force: boolean
  /** `--raw`: print the secret only. */
  raw: boolean
  /** `--file <path>` / `--file=<path>`, as given. */
  file: string | undefined
  /** `--dry-run`: report, write nothing. */
  dryRun: boolean
  /** `--sql`: print the SQL a schema change would run, change nothing. */
  sql: boolean
  /** `--url <connection string>` / `--url=<…>`, as given: the database to use instead of `DATABASE_URL`. */
  url: string | undefined
  /** `--json`: print the result as JSON (for CI), not as lines for people. */
  json: boolean
}

/** A command line that cannot be run. The message is one line, shown above the usage text. */
export class UsageError extends Error {
  override name = "UsageError"
}

/**
 * The options, command and operands of `argv` (without `node` and the script). Options may come
 * before or after the command; a repeated `--file` takes the last value. `--` ends the options:
 * every word after it is the command or an operand (a folder named `-x`).
 *
 * @throws {@link UsageError} for an unknown option, `--file` without a path, or a value given
 * to a flag (`--force=yes`).
 * @example
 * ```ts
 * parseArguments(["secret", "--file=.env"]) // → { command: "secret", file: ".env", … }
 * ```
 */
export function parseArguments(argv: readonly string[]): CliArguments {
  const parsed: CliArguments = { command: undefined, operands: [], help: false, force: false, raw: false, file: undefined, dryRun: false, sql: false, url: undefined, json: false }
  let optionsEnded = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (optionsEnded) {
      addWord(parsed, arg)
      continue
    }
    if (arg === "--") {
      optionsEnded = true
      continue
    }
    const equals = arg.startsWith("--") ? arg.indexOf("=") : -1
    const name = equals === -1 ? arg : arg.slice(0, equals)
    const inline = equals === -1 ? undefined : arg.slice(equals + 1)
    switch (name) {
      case "-h":
      case "--help":
      case "--force":
      case "--raw":
      case "--dry-run":
      case "--sql":
      case "--json":
        if (inline !== undefined) throw new UsageError(`option '${name}' takes no value`)
        if (name === "--force") parsed.force = true
        else if (name === "--raw") parsed.raw = true
        else if (name === "--dry-run") parsed.dryRun = true
        else if (name === "--sql") parsed.sql = true
        else if (name === "--json") parsed.json = true
        else parsed.help = true
        break
      case "--file":
      case "--url": {
        // A following option is a forgotten value, not a file named "--raw"; `--file=-x` still works.
        const value = inline ?? (argv[i + 1]?.startsWith("-") ? undefined : argv[++i])
        if (!value) throw new UsageError(`option '${name}' needs ${name === "--file" ? "a path" : "a connection string"}`)
        if (name === "--file") parsed.file = value
        else parsed.url = value
        break
      }
      default:
        if (arg.startsWith("-") && arg !== "-") throw new UsageError(`unknown option '${arg}'`)
        addWord(parsed, arg)
    }
  }
  return parsed
}

/** The first word is the command, the others its operands. */
function addWord(parsed: CliArguments, word: string): void {
  if (parsed.command === undefined) parsed.command = word
  else parsed.operands.push(word)
}

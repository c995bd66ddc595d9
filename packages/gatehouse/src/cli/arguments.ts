/**
 * Reading the `gatehouse` command line. Four options need no parser library, and reading them
 * here lets every mistake be reported as one short line of our own.
 * @module
 */

/** What a `gatehouse …` command line asks for. */
export interface CliArguments {
  /** The command word (`"secret"`), wherever it stands among the options; `undefined` when none. */
  command: string | undefined
  /** `-h` / `--help`. */
  help: boolean
  /** `--force`: replace an existing secret. */
  force: boolean
  /** `--raw`: print the secret only. */
  raw: boolean
  /** `--file <path>` / `--file=<path>`, as given. */
  file: string | undefined
}

/** A command line that cannot be run. The message is one line, shown above the usage text. */
export class UsageError extends Error {
  override name = "UsageError"
}

/**
 * The options and command of `argv` (without `node` and the script). Options may come before or
 * after the command; a repeated `--file` takes the last value.
 *
 * @throws {@link UsageError} for an unknown option, a second command word, `--file` without a
 * path, or a value given to a flag (`--force=yes`).
 * @example
 * ```ts
 * parseArguments(["secret", "--file=.env"]) // → { command: "secret", file: ".env", … }
 * ```
 */
export function parseArguments(argv: readonly string[]): CliArguments {
  const parsed: CliArguments = { command: undefined, help: false, force: false, raw: false, file: undefined }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    const equals = arg.startsWith("--") ? arg.indexOf("=") : -1
    const name = equals === -1 ? arg : arg.slice(0, equals)
    const inline = equals === -1 ? undefined : arg.slice(equals + 1)
    switch (name) {
      case "-h":
      case "--help":
      case "--force":
      case "--raw":
        if (inline !== undefined) throw new UsageError(`option '${name}' takes no value`)
        if (name === "--force") parsed.force = true
        else if (name === "--raw") parsed.raw = true
        else parsed.help = true
        break
      case "--file": {
        // A following option is a forgotten path, not a file named "--raw"; `--file=-x` still works.
        const value = inline ?? (argv[i + 1]?.startsWith("-") ? undefined : argv[++i])
        if (!value) throw new UsageError("option '--file' needs a path")
        parsed.file = value
        break
      }
      default:
        if (arg.startsWith("-") && arg !== "-") throw new UsageError(`unknown option '${arg}'`)
        if (parsed.command !== undefined) throw new UsageError(`unexpected argument '${arg}'`)
        parsed.command = arg
    }
  }
  return parsed
}

/**
 * Capturing everything Gatehouse could log (a recording logger, and console spies for the
 * built-in logger and any stray console call), rendering it the way a log shipper would (Errors
 * with their stacks, own fields and whole `cause` chains), and searching it for the secret values
 * a run has seen — whole, and by every 16-character piece, so a truncated or split token counts
 * too.
 */
import { inspect } from "node:util"
import { vi } from "vitest"
import type { LoggerInstance } from "../../src/types.js"

/** One thing written to a log. */
export interface CapturedEntry {
  /** Where it was written: `logger.error`, `console.warn`, … */
  source: string
  /** What the test was doing. */
  during: string
  args: unknown[]
}

/** The shortest piece of a secret that counts as a leak. */
export const PIECE = 16

const CONSOLE_METHODS = ["log", "info", "warn", "error", "debug", "trace"] as const

/** Everything logged while installed, through a logger it hands out and through `console`. */
export class LogCapture {
  readonly entries: CapturedEntry[] = []
  during = "setup"

  /** A logger recording every level. */
  readonly logger: LoggerInstance = {
    error: (code, ...message) => this.entries.push({ source: "logger.error", during: this.during, args: [code, ...message] }),
    warn: (code, ...message) => this.entries.push({ source: "logger.warn", during: this.during, args: [code, ...message] }),
    debug: (code, ...message) => this.entries.push({ source: "logger.debug", during: this.during, args: [code, ...message] }),
  }

  /** Replaces every console method with a recorder (nothing reaches the terminal). */
  spyOnConsole(): void {
    for (const method of CONSOLE_METHODS) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        this.entries.push({ source: `console.${method}`, during: this.during, args })
      })
    }
  }

  /** The codes (first argument) of the entries, for assertions that the runs did log. */
  codes(): string[] {
    return this.entries.map((entry) => String(entry.args[0]))
  }
}

/**
 * Every string reachable from `value`: an Error's name, message, stack, own fields and cause
 * (recursively), objects' keys and values, URLs, headers, Maps and Sets; plus `util.inspect` with
 * hidden fields, which is what `console` would print.
 */
export function render(value: unknown): string {
  const out: string[] = []
  const seen = new Set<unknown>()
  const walk = (item: unknown, depth: number): void => {
    if (depth > 12) return
    if (typeof item === "string") {
      out.push(item)
      return
    }
    if (item === null || item === undefined || typeof item === "number" || typeof item === "boolean" || typeof item === "bigint") {
      out.push(String(item))
      return
    }
    if (typeof item === "symbol" || typeof item === "function") {
      out.push(String(item))
      return
    }
    if (seen.has(item)) return
    seen.add(item)
    if (item instanceof URL) out.push(item.href)
    if (item instanceof Headers) for (const [name, headerValue] of item) out.push(`${name}: ${headerValue}`)
    if (item instanceof Request || item instanceof Response) {
      out.push(item.url)
      walk(item.headers, depth + 1)
    }
    if (item instanceof Map) for (const [key, entry] of item) (walk(key, depth + 1), walk(entry, depth + 1))
    if (item instanceof Set || Array.isArray(item)) for (const entry of item) walk(entry, depth + 1)
    if (ArrayBuffer.isView(item)) out.push(Buffer.from(item.buffer, item.byteOffset, item.byteLength).toString("utf8"))
    if (item instanceof Error) {
      out.push(item.name, item.message, item.stack ?? "")
      walk(item.cause, depth + 1)
    }
    // Own keys, hidden ones included (an Error's `cause`, fields defined non-enumerable).
    for (const key of Reflect.ownKeys(item)) {
      if (typeof key === "string") out.push(key)
      let field: unknown
      try {
        field = (item as Record<PropertyKey, unknown>)[key]
      } catch {
        continue
      }
      walk(field, depth + 1)
    }
  }
  walk(value, 0)
  out.push(inspect(value, { showHidden: true, depth: 12, maxArrayLength: Infinity, maxStringLength: Infinity, breakLength: Infinity, getters: false }))
  return out.join("\n")
}

/** A secret and the pieces of it that count as a leak. */
interface Secret {
  label: string
  value: string
  /** Substrings searched piece by piece (the whole value, or the non-public parts of a token). */
  sensitive: string[]
}

/** Where a secret turned up. */
export interface Leak {
  secret: string
  /** `whole` or the leaked piece. */
  match: string
  source: string
  during: string
  excerpt: string
}

/** Whether `value` looks like a compact JWS/JWE, whose first part is a public JSON header. */
function compactHeaderLength(value: string): number | undefined {
  const parts = value.split(".")
  if (parts.length !== 3 && parts.length !== 5) return undefined
  try {
    const header = JSON.parse(Buffer.from(parts[0]!, "base64url").toString("utf8")) as unknown
    return header !== null && typeof header === "object" && "alg" in header ? parts[0]!.length : undefined
  } catch {
    return undefined
  }
}

/** The secret values seen during a run. */
export class SecretRegistry {
  private readonly secrets = new Map<string, Secret>()

  /**
   * Remembers `value` under `label`. A compact token is searched without its header (public, and
   * the same for every token of one key); with `wholeOnly`, only the exact value counts (a link
   * whose origin and path are public).
   */
  remember(label: string, value: string | null | undefined, options: { wholeOnly?: boolean } = {}): void {
    if (typeof value !== "string" || value === "") return
    const key = `${label}\u0000${value}`
    if (this.secrets.has(key)) return
    const headerLength = compactHeaderLength(value)
    const sensitive = options.wholeOnly ? [] : headerLength === undefined ? [value] : value.slice(headerLength + 1).split(".").filter(Boolean)
    this.secrets.set(key, { label, value, sensitive })
  }

  /** Remembers the values of Set-Cookie lines (not deletions); the CSRF cookie as its token and hash. */
  rememberCookies(lines: Iterable<string>, skip: RegExp = /callback-url/): void {
    for (const line of lines) {
      const [pair = ""] = line.split(";")
      const eq = pair.indexOf("=")
      const name = pair.slice(0, eq)
      const value = decodeURIComponent(pair.slice(eq + 1))
      if (value === "" || skip.test(name)) continue
      if (name.includes("csrf-token")) {
        const [token, hash] = value.split("|")
        this.remember("CSRF token (from its cookie)", token)
        this.remember("CSRF cookie hash", hash)
      }
      this.remember(`cookie ${name}`, value)
    }
  }

  /** The labels remembered so far, each once. */
  labels(): string[] {
    return [...new Set([...this.secrets.values()].map((secret) => secret.label))]
  }

  get size(): number {
    return this.secrets.size
  }

  /** Every place in `entries` where a secret, or a 16-character piece of one, appears. */
  findIn(entries: readonly CapturedEntry[]): Leak[] {
    // Index every piece of every secret, then slide over the logs once.
    const pieces = new Map<string, string>()
    for (const secret of this.secrets.values()) {
      for (const part of secret.sensitive) {
        for (let i = 0; i + PIECE <= part.length; i++) pieces.set(part.slice(i, i + PIECE), secret.label)
      }
    }
    const leaks: Leak[] = []
    for (const entry of entries) {
      const text = render(entry.args)
      // One report per secret and entry: the whole value if it is there, else its first piece.
      const reported = new Set<string>()
      const report = (secret: string, match: string, at: number) => {
        reported.add(secret)
        leaks.push({ secret, match, source: entry.source, during: entry.during, excerpt: text.slice(Math.max(0, at - 60), at + PIECE + 60) })
      }
      for (const secret of this.secrets.values()) {
        const at = text.indexOf(secret.value)
        if (at !== -1 && !reported.has(secret.label)) report(secret.label, "whole", at)
      }
      for (let i = 0; i + PIECE <= text.length; i++) {
        const label = pieces.get(text.slice(i, i + PIECE))
        if (label !== undefined && !reported.has(label)) report(label, text.slice(i, i + PIECE), i)
      }
    }
    return leaks
  }
}

/** A leak report a person can act on. */
export function describeLeaks(leaks: readonly Leak[]): string {
  return leaks.map((leak) => `${leak.secret} (${leak.match}) in ${leak.source} during "${leak.during}": …${leak.excerpt}…`).join("\n")
}

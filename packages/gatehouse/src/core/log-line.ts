/**
 * One log event as one line: what the built-in logger prints and what `jsonLogger` writes are
 * made from the same summary of a level's `(code, ...message)`, so a line never spans two lines
 * of the log whatever a message, a driver's error or a client quoted in it carries.
 * @module
 */

/** The longest text (each part, each cause) a line carries; some quote what a client sent. */
export const MAX_PART = 500

/** How many wrapped errors a line follows before it stops (a cause of a cause of a cause). */
const MAX_CAUSES = 3

/** A level's message parts summarised: the text, what the first error among them wraps, its stack. */
interface LineSummary {
  /** The parts as one line: strings as they are, an error as its message, anything else as JSON. */
  readonly message: string
  /** What the first error wraps, `Name: message` for each link (`; ` between them), on the same line. */
  readonly cause?: string
  /** The first error's stack as the runtime gives it (several lines): for debug output only. */
  readonly stack?: string
}

/**
 * `parts` (a level's `...message`) summarised under `code`. An error whose name is not the code
 * (a foreign `TypeError` logged as `Error`) keeps its name in the text. Never throws: a part that
 * cannot be read becomes `?`.
 */
export function summarise(code: string, parts: readonly unknown[]): LineSummary {
  let cause: string | undefined
  let stack: string | undefined
  const texts = parts.map((part) => {
    if (!(part instanceof Error)) return safely(() => describe(part))
    if (cause === undefined) cause = safely(() => causeChain(part)) || undefined
    if (stack === undefined) stack = safely(() => (typeof part.stack === "string" ? part.stack : ""), "") || undefined
    return safely(() => {
      const name = typeof part.name === "string" ? part.name : "Error"
      const message = typeof part.message === "string" ? part.message : ""
      return clipped(name === code ? message : message === "" ? name : `${name}: ${message}`)
    })
  })
  return { message: texts.join(" "), ...(cause !== undefined && { cause }), ...(stack !== undefined && { stack }) }
}

/** The one-line text of a summary: the message, then its cause in parentheses. */
export function lineText(summary: LineSummary): string {
  return summary.cause === undefined ? summary.message : `${summary.message} (cause: ${summary.cause})`
}

/**
 * `text` with what it may quote of secrets hidden (see {@link redacted}), cut at {@link MAX_PART},
 * control characters escaped so that no one can split or forge lines.
 */
export function clipped(text: string): string {
  const shown = redacted(text)
  return escapeControls(shown.length > MAX_PART ? `${shown.slice(0, MAX_PART)}…` : shown)
}

/** A URL's password: `scheme://user:password@` (up to the last `@` before the path). */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*):[^\s/?#]*@/gi

/** A password in a query string or connection string (`?password=…`, `&sslpassword=…`). */
const QUERY_PASSWORD = /((?:^|[?&;\s])(?:ssl)?pass(?:word)?=)[^&;\s]*/gi

/** The bound values a query builder appends to a failed query (Drizzle's `Failed query: … params: …`). */
const QUERY_PARAMS = /(^|\s)params:[\s\S]*$/

/**
 * `text` without what a driver's message quotes of secrets: a URL's password masked, a failed
 * query's bound values cut (linking an account binds its tokens). Done before the cut at
 * {@link MAX_PART}, so a cut cannot leave half a password unmasked.
 */
function redacted(text: string): string {
  return text.replace(URL_PASSWORD, "$1:***@").replace(QUERY_PASSWORD, "$1***").replace(QUERY_PARAMS, "$1params: (not logged)")
}

function escapeControls(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (char) =>
    char === "\n" ? "\\n" : char === "\r" ? "\\r" : `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  )
}

/** `make()`, or `fallback` when it throws: a getter or a cause an app made up must not fail the request being logged. */
export function safely(make: () => string, fallback = "?"): string {
  try {
    return make()
  } catch {
    return fallback
  }
}

/**
 * The errors `error` wraps, outermost first. Gatehouse's errors keep the wrapped exception in
 * `cause.err` and upstream detail (a provider id, an OAuth `error` value) beside it in the cause
 * record: its plain values are named too. Other errors keep it in `cause`.
 */
function causeChain(error: Error): string {
  const links: string[] = []
  let current: unknown = (error as { cause?: unknown }).cause
  const seen = new Set<unknown>([error])
  while (current !== undefined && current !== null && links.length < MAX_CAUSES && !seen.has(current)) {
    seen.add(current)
    if (current instanceof Error) {
      // An error made from another (`new AdapterError(driverError)`) took its message: said once.
      if (current.message !== error.message) links.push(clipped(current.message === "" ? current.name : `${current.name}: ${current.message}`))
      current = (current as { cause?: unknown }).cause
      continue
    }
    if (typeof current !== "object") {
      links.push(clipped(String(current)))
      break
    }
    const { err, ...detail } = current as Record<string, unknown>
    const plain = Object.entries(detail).filter(([, value]) => ["string", "number", "boolean"].includes(typeof value))
    if (plain.length > 0) links.push(clipped(plain.map(([key, value]) => `${key}=${String(value)}`).join(" ")))
    current = err
  }
  return links.join("; ")
}

function describe(part: unknown): string {
  if (typeof part === "string") return clipped(part)
  if (part === undefined || typeof part === "function" || typeof part === "symbol") return String(part)
  const json = JSON.stringify(part, (_key, value: unknown) => (typeof value === "bigint" ? String(value) : value))
  return clipped(json ?? String(part))
}

/**
 * What the CLI does to text before a person sees it: an error cut to its first line (a driver's
 * message may run on with a stack or a query), a URL without its password or query, and every
 * spelling of a URL's password (or a secret) replaced by `***`. The one place the commands redact.
 * @module
 */

/** An error's message, first line only: a driver's message may go on with a stack or context. */
export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.split("\n")[0]!.trim() || (error instanceof Error ? error.name : "unknown error")
}

/** The URL as it may be shown: the password replaced by `***`, no query (which may carry one too). */
export function maskedUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password) parsed.password = "***"
    parsed.search = ""
    parsed.hash = ""
    return parsed.href
  } catch {
    return "the database URL"
  }
}

/**
 * Every spelling of the URL's password: as written, percent-decoded, and the value of any query
 * parameter whose name says pass (`?password=`, `?sslpassword=`). Nothing for text that is no URL.
 */
export function urlSecrets(url: string): string[] {
  try {
    const parsed = new URL(url)
    let decoded = parsed.password
    try {
      decoded = decodeURIComponent(parsed.password)
    } catch {
      // A malformed escape: the password as written is the spelling to hide.
    }
    const inQuery = [...parsed.searchParams].filter(([key]) => /pass/i.test(key)).map(([, value]) => value)
    return [parsed.password, decoded, ...inQuery].filter((value) => value.length > 0)
  } catch {
    return []
  }
}

/** `text` with each of `secrets` replaced by `***`, the longest first (a secret containing another goes whole). */
export function masked(text: string, secrets: readonly string[]): string {
  return [...secrets].sort((a, b) => b.length - a.length).reduce((result, secret) => (secret === "" ? result : result.split(secret).join("***")), text)
}

/** `text` with every spelling of the URL's password replaced by `***`. */
export function scrubbed(text: string, url: string): string {
  return masked(text, urlSecrets(url))
}

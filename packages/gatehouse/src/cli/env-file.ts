/**
 * Finding, replacing and appending one variable in the text of a dotenv file, read the way
 * dotenv (and so Next.js, Vite and `node --env-file`) reads it, without touching any other byte.
 *
 * The text is expected as Latin-1 (one character per byte), so a file in any ASCII-compatible
 * encoding survives a round trip unchanged: the patterns here only ever look at ASCII.
 * @module
 */

/**
 * One assignment of `name`: at a line start (after a UTF-8 byte order mark, as Latin-1),
 * indentation, optional `export`, then `=` (spaces allowed around it) or dotenv's `name: value`.
 * A quoted value runs to its closing quote, across line ends as dotenv reads it, so replacing
 * a multi-line value leaves none of it behind; the rest of that last line goes with it.
 * `# name=…` is a comment and does not match.
 */
function assignmentPattern(name: string): RegExp {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new TypeError(`Not a variable name: ${name}`)
  const quoted = String.raw`'(?:\\'|[^'])*'|"(?:\\"|[^"])*"|\x60(?:\\\x60|[^\x60])*\x60`
  return new RegExp(String.raw`^(\xEF\xBB\xBF)?([ \t]*(?:export[ \t]+)?)${name}(?:[ \t]*=|:[ \t])[ \t]*(?:${quoted})?[^\r\n]*`, "gm")
}

/** `name="value"`: double quotes, as `npx auth secret` writes it. */
export function assignment(name: string, value: string): string {
  return `${name}="${value}"`
}

/** Whether the dotenv text assigns `name` (also as `export name=…`); comments do not count. */
export function assigns(content: string, name: string): boolean {
  return assignmentPattern(name).test(content)
}

/**
 * The dotenv text with every assignment of `name` set to `value`, in place: indentation and
 * `export` stay, every other line is returned exactly as it was. (dotenv lets the last of
 * several assignments win; replacing all of them leaves no stale value to confuse a reader.)
 */
export function replaceAssignments(content: string, name: string, value: string): string {
  return content.replace(assignmentPattern(name), (_match, bom: string | undefined, lead: string) => `${bom ?? ""}${lead}${assignment(name, value)}`)
}

/**
 * What to append to the dotenv text to assign `name` on a line of its own: a line break first
 * when the text does not end with one, and the file's own line ending (CRLF when it uses CRLF).
 */
export function appendedAssignment(content: string, name: string, value: string): string {
  const eol = content.includes("\r\n") ? "\r\n" : "\n"
  const separator = content === "" || content.endsWith("\n") ? "" : eol
  return `${separator}${assignment(name, value)}${eol}`
}

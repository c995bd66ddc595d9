/**
 * The `<script>` blocks of a Svelte component: the instance script and the module script
 * (`<script module>`, Svelte 4's `<script context="module">`), in either language. Imports live
 * only there; the markup and `<style>` are never lexed as code.
 * @module
 */

/** A script block: `start`/`end` delimit its content, between `<script …>` and `</script>`. */
export interface ScriptBlock {
  start: number
  end: number
}

/**
 * The script blocks of a Svelte file, in order. HTML comments and `<style>` blocks are skipped, so
 * a commented-out `<script>` is not one. An unclosed `<script>` runs to the end of the file.
 *
 * @example
 * ```ts
 * svelteScripts(`<script lang="ts">import x from "y"</script><p>hi</p>`) // → [{ start: 18, end: 36 }]
 * ```
 */
export function svelteScripts(source: string): ScriptBlock[] {
  const blocks: ScriptBlock[] = []
  let pos = 0
  while (pos < source.length) {
    const open = source.indexOf("<", pos)
    if (open === -1) break
    if (source.startsWith("<!--", open)) {
      const close = source.indexOf("-->", open + 4)
      pos = close === -1 ? source.length : close + 3
      continue
    }
    const tag = startsTag(source, open, "script") ? "script" : startsTag(source, open, "style") ? "style" : undefined
    if (!tag) {
      pos = open + 1
      continue
    }
    const tagEnd = openingTagEnd(source, open + 1 + tag.length)
    if (tagEnd === -1) break
    const selfClosing = source[tagEnd - 1] === "/"
    const contentStart = tagEnd + 1
    if (selfClosing) {
      pos = contentStart
      continue
    }
    const closing = closingTag(source, tag, contentStart)
    const contentEnd = closing === -1 ? source.length : closing
    if (tag === "script") blocks.push({ start: contentStart, end: contentEnd })
    pos = closing === -1 ? source.length : closing + tag.length + 2
  }
  return blocks
}

/**
 * Whether `<name` starts at `at` (in any case), followed by a character that ends a tag name.
 * Compared in place: lower-casing the whole source would move every position after a character
 * whose lower case is longer (`İ`), and the blocks would be cut in the wrong places.
 */
function startsTag(source: string, at: number, name: string): boolean {
  if (source[at] !== "<" || source.slice(at + 1, at + 1 + name.length).toLowerCase() !== name) return false
  const after = source[at + 1 + name.length]
  return after === undefined || after === ">" || after === "/" || after === " " || after === "\t" || after === "\n" || after === "\r" || after === "\f"
}

/** Where `</tag` (in any case) starts at or after `from`, or -1. */
function closingTag(source: string, tag: string, from: number): number {
  const pattern = new RegExp(`</${tag}`, "gi")
  pattern.lastIndex = from
  return pattern.exec(source)?.index ?? -1
}

/** The position of the `>` that ends an opening tag whose attributes start at `from`; quoted values may hold `>`. */
function openingTagEnd(source: string, from: number): number {
  let quote: string | undefined
  for (let pos = from; pos < source.length; pos++) {
    const char = source[pos]
    if (quote) {
      if (char === quote) quote = undefined
    } else if (char === '"' || char === "'") {
      quote = char
    } else if (char === ">") {
      return pos
    }
  }
  return -1
}

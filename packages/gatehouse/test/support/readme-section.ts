/**
 * The README's framework sections as the pasted-README tests read them: a section's code blocks,
 * the file a block names on its first line, a shell block's commands. One reader, so every
 * framework's test pastes by the same rule the README follows.
 */
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

const README = fileURLToPath(new URL("../../../../README.md", import.meta.url))

/** A fenced block of the README. */
export interface CodeBlock {
  /** The fence's language (`ts`, `tsx`, `svelte`, `sh`, …). */
  language: string
  code: string
}

/** The README section headed `## title`, up to the next `## ` heading. */
function section(title: string): string {
  const readme = readFileSync(README, "utf8")
  const start = readme.indexOf(`## ${title}\n`)
  if (start === -1) throw new Error(`README has no section "${title}"`)
  const end = readme.indexOf("\n## ", start + title.length)
  return readme.slice(start, end === -1 ? undefined : end)
}

/** The code blocks of the README section headed `## title`, in order. */
export function codeBlocks(title: string): CodeBlock[] {
  return [...section(title).matchAll(/```(\w+)\n([\s\S]*?)```/g)].map(([, language, code]) => ({ language: language!, code: code! }))
}

/**
 * The text of the section's list item that starts with `**lead**` (`- **SvelteKit 3** …`), its
 * lines joined by single spaces: for tests that apply what a bullet tells the reader to do.
 */
export function bullet(title: string, lead: string): string {
  const item = new RegExp(`^- \\*\\*${lead.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\*\\*[^\\n]*(?:\\n  [^\\n]*)*`, "m").exec(section(title))
  if (!item) throw new Error(`README section "${title}" has no bullet "**${lead}**"`)
  return item[0].replace(/\s*\n\s*/g, " ")
}

/**
 * The file a block says it is, on its first line: `// src/lib/auth.ts`, `// app/page.tsx`,
 * `<!-- src/routes/+page.svelte -->`; `undefined` for a block that names none.
 */
export function fileOf(code: string): string | undefined {
  return /^(?:\/\/|<!--)\s*([\w.$[\]()@+-]+(?:\/[\w.$[\]()@+-]+)*\.[a-z]+)\s*(?:-->)?\s*$/.exec(code.split("\n")[0] ?? "")?.[1]
}

/** The commands of a shell block, one per line, comments dropped. */
export function commands(code: string): string[] {
  return code
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter(Boolean)
}

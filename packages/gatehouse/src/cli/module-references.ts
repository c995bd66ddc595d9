/**
 * Every place a JavaScript or TypeScript source names a module, found on its tokens (see
 * `module-lexer.ts`): static and type imports, `export … from`, dynamic `import()` (types'
 * `import("…")` too), `require()` and `require.resolve()`, `import x = require()`,
 * `declare module "…"`, `/// <reference types="…" />`, and the module argument of Vitest's and
 * Jest's module mocks (`vi.mock("…")`), which must follow the imports they mock. Also the string
 * literals and JSDoc comments that merely contain a specifier, for the caller to report.
 * @module
 */
import { lex, type Comment, type LexOptions, type Token } from "./module-lexer.js"

/** How a module is named. */
export type ReferenceKind = "import" | "export" | "dynamic import" | "require" | "import =" | "declare module" | "reference types" | "mock"

/** A module specifier in the source: `start`/`end` cover the specifier's text only, inside its quotes. */
export interface ModuleReference {
  kind: ReferenceKind
  specifier: string
  start: number
  end: number
  /** Whether the literal's text differs from its value (escapes): then the whole literal is written anew. */
  escaped: boolean
  /** The literal's quote character, for writing it anew. */
  quote: string
  /** Where the literal starts and ends, quotes included. */
  literalStart: number
  literalEnd: number
}

/** A string literal or JSDoc comment that is not a module reference but whose text a caller may want to know of. */
export interface StringMention {
  /** `string`: a string literal of the code; `jsdoc`: a module named in a `/** … *\/` comment (`import("…")` types, `@import`). */
  kind: "string" | "jsdoc"
  value: string
  start: number
}

/** What {@link findModuleReferences} finds. */
export interface SourceModules {
  references: ModuleReference[]
  /** Every other string literal, and the modules JSDoc comments name. */
  mentions: StringMention[]
}

const MOCKERS = new Set(["vi", "jest"])
const MOCK_METHODS = new Set(["mock", "doMock", "unmock", "doUnmock", "importActual", "importMock", "requireActual", "requireMock", "createMockFromModule", "setMock"])

/**
 * The module references of `source` (a whole file, or a Svelte `<script>` block's content at
 * `offset` in its file: positions are then offsets into the file).
 *
 * @example
 * ```ts
 * findModuleReferences(`import NextAuth from "next-auth"\n// import "next-auth/react"`, { jsx: false }).references
 * // → [{ kind: "import", specifier: "next-auth", start: 22, end: 31, … }]
 * ```
 */
export function findModuleReferences(source: string, options: LexOptions, offset = 0): SourceModules {
  const { tokens, comments } = lex(source, options)
  const references: ModuleReference[] = []
  const used = new Set<Token>()
  const add = (kind: ReferenceKind, token: Token | undefined) => {
    if (!token || !isFixedString(token) || used.has(token)) return false
    const quote = source[token.start]!
    // An unterminated literal is broken code: nothing to rewrite with confidence.
    if (token.end - token.start < 2 || source[token.end - 1] !== quote) return false
    used.add(token)
    const inner = source.slice(token.start + 1, token.end - 1)
    references.push({
      kind,
      specifier: token.value,
      start: offset + token.start + 1,
      end: offset + token.end - 1,
      escaped: inner !== token.value,
      quote,
      literalStart: offset + token.start,
      literalEnd: offset + token.end,
    })
    return true
  }

  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!
    if (token.kind !== "name" || token.member) continue
    const next = tokens[i + 1]
    switch (token.value) {
      case "import":
        if (next?.kind === "string") add("import", next)
        else if (isPunct(next, "(")) addCall("dynamic import", i + 1)
        else if (!isPunct(next, ".")) importClause(i + 1)
        break
      case "export":
        exportClause(i + 1)
        break
      case "require":
        if (isPunct(next, "(")) addCall("require", i + 1)
        else if (isPunct(next, ".") && tokens[i + 2]?.value === "resolve" && isPunct(tokens[i + 3], "(")) addCall("require", i + 3)
        break
      case "declare":
        if (next?.kind === "name" && next.value === "module" && tokens[i + 2]?.kind === "string") add("declare module", tokens[i + 2])
        break
      default:
        if (MOCKERS.has(token.value) && isPunct(next, ".") && MOCK_METHODS.has(tokens[i + 2]?.value ?? "") && tokens[i + 2]?.kind === "name" && isPunct(tokens[i + 3], "(")) {
          addCall("mock", i + 3)
        }
    }
  }

  /** `( "specifier" )` or `( "specifier", …)` at `open`. */
  function addCall(kind: ReferenceKind, open: number) {
    const argument = tokens[open + 1]
    const after = tokens[open + 2]
    if (isPunct(after, ")") || isPunct(after, ",")) add(kind, argument)
  }

  /** After `import`: bindings up to `from "…"`, or `x = require("…")`. */
  function importClause(from: number) {
    let depth = 0
    for (let j = from; j < tokens.length && j < from + 10_000; j++) {
      const token = tokens[j]!
      if (token.kind === "punct") {
        if (token.value === "{") depth++
        else if (token.value === "}") depth--
        else if (depth === 0 && token.value === "=") {
          if (tokens[j + 1]?.value === "require" && tokens[j + 1]?.kind === "name" && isPunct(tokens[j + 2], "(")) addCall("import =", j + 2)
          return
        } else if (depth === 0 && token.value !== "*" && token.value !== ",") return
        if (depth < 0) return
      } else if (token.kind === "name") {
        if (depth === 0 && token.value === "from" && tokens[j + 1]?.kind === "string") {
          add("import", tokens[j + 1])
          return
        }
      } else if (token.kind !== "string" || depth === 0) {
        return
      }
    }
  }

  /** After `export`: `* [as x] from "…"`, `{ … } from "…"`, with `type` before either. */
  function exportClause(from: number) {
    let j = from
    if (tokens[j]?.kind === "name" && tokens[j]!.value === "type") j++
    if (isPunct(tokens[j], "*")) {
      j++
      if (tokens[j]?.value === "as" && tokens[j]?.kind === "name") j += 2
    } else if (isPunct(tokens[j], "{")) {
      let depth = 0
      for (; j < tokens.length; j++) {
        if (isPunct(tokens[j], "{")) depth++
        else if (isPunct(tokens[j], "}") && --depth === 0) break
        else if (tokens[j]!.kind !== "name" && tokens[j]!.kind !== "string" && !isPunct(tokens[j], ",")) return
      }
      j++
    } else {
      return
    }
    if (tokens[j]?.kind === "name" && tokens[j]!.value === "from") add("export", tokens[j + 1])
  }

  for (const directive of referenceDirectives(source, comments, tokens[0]?.start ?? source.length)) {
    references.push({ ...directive, start: offset + directive.start, end: offset + directive.end, literalStart: offset + directive.literalStart, literalEnd: offset + directive.literalEnd })
  }
  references.sort((a, b) => a.start - b.start)

  const mentions: StringMention[] = []
  for (const token of tokens) {
    if (!used.has(token) && isFixedString(token)) mentions.push({ kind: "string", value: token.value, start: offset + token.start })
  }
  for (const comment of comments) {
    if (comment.block && source.startsWith("/**", comment.start)) {
      for (const quoted of quotedTexts(source, comment)) mentions.push({ ...quoted, start: offset + quoted.start })
    }
  }
  mentions.sort((a, b) => a.start - b.start)
  return { references, mentions }
}

function isPunct(token: Token | undefined, value: string): boolean {
  return token?.kind === "punct" && token.value === value
}

/** A string literal, or a template without substitutions: a specifier written out. */
function isFixedString(token: Token): boolean {
  return token.kind === "string" || (token.kind === "template" && token.substitutions === false)
}

/**
 * `/// <reference types="…" />` among the comments before the first token: TypeScript reads
 * triple-slash directives there only, anywhere else they are plain comments.
 */
function referenceDirectives(source: string, comments: Comment[], firstToken: number): ModuleReference[] {
  const found: ModuleReference[] = []
  for (const comment of comments) {
    if (comment.start >= firstToken) break
    if (comment.block || !source.startsWith("///", comment.start)) continue
    let pos = skipSpaces(source, comment.start + 3, comment.end)
    if (!source.startsWith("<reference", pos)) continue
    pos += "<reference".length
    for (;;) {
      pos = skipSpaces(source, pos, comment.end)
      let nameEnd = pos
      while (nameEnd < comment.end && isAttributeNameChar(source[nameEnd]!)) nameEnd++
      if (nameEnd === pos) break
      const name = source.slice(pos, nameEnd)
      const equals = skipSpaces(source, nameEnd, comment.end)
      if (source[equals] !== "=") break
      const valueStart = skipSpaces(source, equals + 1, comment.end)
      const quote = source[valueStart]
      if (quote !== '"' && quote !== "'") break
      const valueEnd = source.indexOf(quote, valueStart + 1)
      if (valueEnd === -1 || valueEnd >= comment.end) break
      if (name === "types") {
        const specifier = source.slice(valueStart + 1, valueEnd)
        found.push({ kind: "reference types", specifier, start: valueStart + 1, end: valueEnd, escaped: false, quote, literalStart: valueStart, literalEnd: valueEnd + 1 })
      }
      pos = valueEnd + 1
    }
  }
  return found
}

function skipSpaces(source: string, from: number, end: number): number {
  let pos = from
  while (pos < end && (source[pos] === " " || source[pos] === "\t")) pos++
  return pos
}

function isAttributeNameChar(char: string): boolean {
  return (char >= "a" && char <= "z") || (char >= "A" && char <= "Z") || (char >= "0" && char <= "9") || char === "-" || char === "_"
}

/**
 * The module names of a JSDoc comment: the quoted text of an `import("…")` type, and of
 * `from "…"` in a comment with an `@import` tag. Other quoted prose is not one.
 */
function quotedTexts(source: string, comment: Comment): StringMention[] {
  const found: StringMention[] = []
  const end = comment.end - 2
  const hasImportTag = source.slice(comment.start, comment.end).includes("@import")
  for (let pos = comment.start + 3; pos < end; pos++) {
    const quote = source[pos]
    if (quote !== '"' && quote !== "'" && quote !== "`") continue
    let close = pos + 1
    while (close < end && source[close] !== quote && source[close] !== "\n") close++
    if (source[close] !== quote) continue
    let before = pos - 1
    while (before > comment.start && (source[before] === " " || source[before] === "\t")) before--
    const typeImport = source[before] === "(" && endsWithWord(source, before, "import")
    const importTag = hasImportTag && endsWithWord(source, before + 1, "from")
    if (typeImport || importTag) found.push({ kind: "jsdoc", value: source.slice(pos + 1, close), start: pos })
    pos = close
  }
  return found
}

/** Whether `word` ends just before `end`, not as the tail of a longer name. */
function endsWithWord(source: string, end: number, word: string): boolean {
  let stop = end
  while (stop > 0 && (source[stop - 1] === " " || source[stop - 1] === "\t")) stop--
  const start = stop - word.length
  if (start < 0 || source.slice(start, stop) !== word) return false
  const char = source[start - 1] ?? ""
  return !((char >= "a" && char <= "z") || (char >= "A" && char <= "Z") || (char >= "0" && char <= "9") || char === "_" || char === "$" || char === ".")
}

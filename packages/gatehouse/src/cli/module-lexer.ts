/**
 * A lexer for JavaScript and TypeScript source, JSX included: it splits a file into the tokens
 * that matter for finding module specifiers (names, string literals, templates, punctuators) and
 * its comments, so that nothing inside a comment, a template, a regular expression or JSX text is
 * ever taken for code, and no string is ever taken for a comment.
 *
 * Why our own: es-module-lexer (what Vite uses) does not lex JSX (an apostrophe in JSX text throws
 * it off, and its maintainer declines JSX and TSX as a goal) and knows neither `declare module`,
 * `import x = require()` nor triple-slash directives; TypeScript's scanner is in a 23 MB package
 * no app should download to run this command. The lexical grammar needed here is small: where
 * strings, comments, templates, regular expressions and JSX begin and end. What this lexer finds
 * is compared with what TypeScript's own parser finds, file by file, in the tests.
 *
 * Two places need a guess a lexer without a parser must make, as every such lexer does: whether
 * a `/` starts a regular expression or divides, and (in JSX files) whether a `<` starts an
 * element. Both are decided by the token before: an operand (a name, a literal, a closing
 * bracket) means division or comparison; an operator or a keyword such as `return` means an
 * expression starts. A JSX element that does not close is taken back and read as a `<`.
 * @module
 */

/** What a token is. `template` is a whole template literal; its substitutions are tokens of their own, after it. */
export type TokenKind = "name" | "string" | "template" | "number" | "regex" | "punct" | "jsx"

/** A token of the source: `start` and `end` are offsets into it. */
export interface Token {
  kind: TokenKind
  start: number
  end: number
  /**
   * A name's text, a punctuator's characters, a string's value with its escapes decoded, a
   * template's text when it has no substitutions (else `""`).
   */
  value: string
  /** Templates: whether it has `${…}` substitutions (and so is no fixed text). */
  substitutions?: boolean
  /** `)` and `}`: whether an expression may start after it (the end of `if (…)` or of a block). */
  expressionAfter?: boolean
  /** Names: whether it follows `.` or `?.`, so it is a property (`x.import`), not a keyword or a variable. */
  member?: boolean
}

/** A comment: `//…` (`block: false`) or `/*…*\/`, from its first slash to its end. */
export interface Comment {
  start: number
  end: number
  block: boolean
}

/** The tokens and comments of a source, in order. */
export interface LexedSource {
  tokens: Token[]
  comments: Comment[]
}

/** How to lex. */
export interface LexOptions {
  /** Whether `<` may start a JSX element (`.jsx`, `.tsx` and `.js` files; never `.ts`, where it starts a type assertion). */
  jsx: boolean
}

/** Names after which an expression starts, so a `/` is a regular expression and a `<` may be JSX. */
const EXPRESSION_KEYWORDS = new Set(["return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield", "await", "default"])
/** Names whose parenthesised part is followed by a statement, not an operator: `if (x) /re/.test(y)`. */
const CONTROL_KEYWORDS = new Set(["if", "while", "for", "with"])
/** Names followed by a block, never by an object literal. */
const BLOCK_KEYWORDS = new Set(["else", "do", "try", "finally"])
/** Punctuators longer than one character that the rules above need to see whole. */
const LONG_PUNCTUATORS = ["...", "=>", "++", "--", "?."]

interface Bracket {
  char: "(" | "[" | "{"
  /** `(`: after if/while/for/with; `{`: a block rather than an object literal. */
  statement: boolean
}

/** Thrown inside the lexer when a JSX element turns out not to be one; the element is taken back. */
class NotJsx extends Error {}

/**
 * The tokens and comments of `source`. Never throws: unterminated strings, comments and templates
 * end at the end of their line or of the source, as an editor would show them.
 *
 * @example
 * ```ts
 * lex(`import x from "next-auth" // "next-auth/react"`, { jsx: false }).tokens.map((t) => t.value)
 * // → ["import", "x", "from", "next-auth"]
 * ```
 */
export function lex(source: string, options: LexOptions): LexedSource {
  const lexer = new Lexer(source, options.jsx)
  lexer.code(false)
  return { tokens: lexer.tokens, comments: lexer.comments }
}

class Lexer {
  pos = 0
  readonly tokens: Token[] = []
  readonly comments: Comment[] = []
  /** The token before the current position, for the regular expression and JSX decisions. */
  last: Token | undefined
  /** Where a JSX element was tried and turned out to be none: whether one starts at a position does not depend on what came before. */
  readonly notJsxAt = new Set<number>()
  /** Characters read by JSX attempts taken back; past a bound (minified code full of `<`), no more are tried. */
  jsxWaste = 0

  constructor(
    readonly source: string,
    readonly jsx: boolean,
  ) {
    // A hashbang line is no token; it is kept as a comment so nothing in it is read.
    if (source.startsWith("#!")) {
      this.pos = lineEnd(source, 0)
      this.comments.push({ start: 0, end: this.pos, block: false })
    }
  }

  /**
   * Code up to the end of the source or, when `nested`, up to and including the `}` that closes
   * the `${` or JSX `{` the caller consumed. Returns whether that `}` was found.
   */
  code(nested: boolean): boolean {
    const brackets: Bracket[] = []
    const { source } = this
    while (this.skipTrivia()) {
      const start = this.pos
      const char = source[start]!
      if (char === '"' || char === "'") {
        this.string(char)
      } else if (char === "`") {
        this.template()
      } else if (isIdentifierStart(char) || (char === "#" && isIdentifierStart(source[start + 1] ?? "")) || char === "\\") {
        const member = this.last?.kind === "punct" && (this.last.value === "." || this.last.value === "?.")
        this.pos = identifierEnd(source, start + 1)
        this.push("name", start, source.slice(start, this.pos)).member = member
      } else if (isDigit(char) || (char === "." && isDigit(source[start + 1] ?? ""))) {
        this.pos = numberEnd(source, start)
        this.push("number", start, source.slice(start, this.pos))
      } else if (char === "/" && this.expressionAllowed() && this.regex()) {
        // read by regex()
      } else if (char === "<" && this.jsx && this.expressionAllowed() && this.tryJsx()) {
        // read by tryJsx()
      } else if (char === "(" || char === "[" || char === "{") {
        const statement = char === "(" ? this.isKeyword(CONTROL_KEYWORDS) : char === "{" && this.opensBlock()
        brackets.push({ char, statement })
        this.pos++
        this.push("punct", start, char)
      } else if (char === ")" || char === "]" || char === "}") {
        if (char === "}" && brackets.length === 0 && nested) {
          this.pos++
          this.push("punct", start, char)
          return true
        }
        // A stray closer is tolerated (unbalanced code still lexes); it closes nothing.
        const open = brackets.length > 0 && closerOf(brackets.at(-1)!.char) === char ? brackets.pop() : undefined
        this.pos++
        this.push("punct", start, char).expressionAfter = char !== "]" && (open?.statement ?? false)
      } else {
        const long = LONG_PUNCTUATORS.find((punctuator) => source.startsWith(punctuator, start) && !(punctuator === "?." && isDigit(source[start + 2] ?? "")))
        this.pos += long?.length ?? 1
        this.push("punct", start, long ?? char)
      }
    }
    return !nested
  }

  /** Skips whitespace and comments; returns whether a token follows. */
  skipTrivia(): boolean {
    const { source } = this
    for (;;) {
      const char = source[this.pos]
      if (char === undefined) return false
      if (isWhitespace(char)) {
        this.pos++
      } else if (char === "/" && source[this.pos + 1] === "/") {
        const end = lineEnd(source, this.pos)
        this.comments.push({ start: this.pos, end, block: false })
        this.pos = end
      } else if (char === "/" && source[this.pos + 1] === "*") {
        const close = source.indexOf("*/", this.pos + 2)
        const end = close === -1 ? source.length : close + 2
        this.comments.push({ start: this.pos, end, block: true })
        this.pos = end
      } else {
        return true
      }
    }
  }

  push(kind: TokenKind, start: number, value: string): Token {
    const token: Token = { kind, start, end: this.pos, value }
    this.tokens.push(token)
    this.last = token
    return token
  }

  /** Whether an expression may start here: a `/` begins a regular expression, a `<` JSX. */
  expressionAllowed(): boolean {
    const last = this.last
    if (last === undefined) return true
    switch (last.kind) {
      case "name":
        return this.isKeyword(EXPRESSION_KEYWORDS)
      case "punct":
        if (last.value === ")" || last.value === "}") return last.expressionAfter === true
        return last.value !== "]" && last.value !== "++" && last.value !== "--"
      default:
        return false
    }
  }

  /** Whether the `{` here opens a block (function body, statement block) rather than an object literal. */
  opensBlock(): boolean {
    const last = this.last
    if (last === undefined) return true
    if (last.kind === "punct" && (last.value === ")" || last.value === "=>" || last.value === ";" || last.value === "{" || last.value === "}")) return true
    if (this.isKeyword(BLOCK_KEYWORDS)) return true
    return !this.expressionAllowed()
  }

  /** Whether the token before is a name in `keywords` used as a keyword (not as a property). */
  isKeyword(keywords: ReadonlySet<string>): boolean {
    const last = this.last
    return last?.kind === "name" && last.member !== true && keywords.has(last.value)
  }

  /** A string literal opened by `quote`; its value is decoded. An unescaped line end ends it (unterminated). */
  string(quote: string): void {
    const { source } = this
    const start = this.pos
    let pos = start + 1
    let escaped = false
    for (; pos < source.length; pos++) {
      const char = source[pos]!
      if (char === "\\") {
        escaped = true
        pos++
        if (source[pos] === "\r" && source[pos + 1] === "\n") pos++
      } else if (char === quote) {
        pos++
        break
      } else if (char === "\n" || char === "\r") {
        break
      }
    }
    this.pos = pos
    const closed = source[pos - 1] === quote && pos - 1 > start
    const raw = source.slice(start + 1, closed ? pos - 1 : pos)
    this.push("string", start, escaped ? cook(raw) : raw)
  }

  /** A template literal; the code of its substitutions is lexed where it stands. */
  template(): void {
    const { source } = this
    const token = this.push("template", this.pos, "")
    let pos = this.pos + 1
    let substitutions = false
    let escaped = false
    while (pos < source.length) {
      const char = source[pos]!
      if (char === "\\") {
        escaped = true
        pos += 2
      } else if (char === "`") {
        pos++
        break
      } else if (char === "$" && source[pos + 1] === "{") {
        substitutions = true
        this.pos = pos + 2
        this.last = undefined
        this.code(true)
        pos = this.pos
      } else {
        pos++
      }
    }
    this.pos = Math.min(pos, source.length)
    token.end = this.pos
    token.substitutions = substitutions
    if (!substitutions) {
      const raw = source.slice(token.start + 1, source[this.pos - 1] === "`" && this.pos - 1 > token.start ? this.pos - 1 : this.pos)
      token.value = escaped ? cook(raw) : raw
    }
    this.last = token
  }

  /** A regular expression literal, if one starts here (it must end on its line); else nothing is read. */
  regex(): boolean {
    const { source } = this
    const start = this.pos
    let inClass = false
    for (let pos = start + 1; pos < source.length; pos++) {
      const char = source[pos]!
      if (char === "\n" || char === "\r" || char === "\u2028" || char === "\u2029") return false
      if (char === "\\") pos++
      else if (char === "[") inClass = true
      else if (char === "]") inClass = false
      else if (char === "/" && !inClass) {
        this.pos = identifierEnd(source, pos + 1)
        this.push("regex", start, source.slice(start, this.pos))
        return true
      }
    }
    return false
  }

  /** A JSX element starting at this `<`, read whole; when it is none, everything read is taken back. */
  tryJsx(): boolean {
    if (this.notJsxAt.has(this.pos) || this.jsxWaste > 4 * this.source.length + 100_000) return false
    const saved = { pos: this.pos, tokens: this.tokens.length, comments: this.comments.length, last: this.last }
    const token: Token = { kind: "jsx", start: this.pos, end: this.pos, value: "" }
    this.tokens.push(token)
    try {
      this.jsxElement()
      token.end = this.pos
      this.last = token
      return true
    } catch (error) {
      if (!(error instanceof NotJsx)) throw error
      this.jsxWaste += this.pos - saved.pos
      this.notJsxAt.add(saved.pos)
      this.pos = saved.pos
      this.tokens.length = saved.tokens
      this.comments.length = saved.comments
      this.last = saved.last
      return false
    }
  }

  /** `<name attributes>children</name>`, `<name />` or `<>children</>`, from the `<`. */
  jsxElement(): void {
    const { source } = this
    this.pos++
    this.jsxSpace()
    if (source[this.pos] === ">") {
      this.pos++
      this.jsxChildren()
      return
    }
    if (!this.jsxName()) throw new NotJsx()
    // TypeScript generics in a .tsx file: `<T,>(x: T) => x`, `<T extends U>(…)`.
    this.jsxSpace()
    if (source[this.pos] === "," || (source.startsWith("extends", this.pos) && isWhitespace(source[this.pos + 7] ?? ""))) throw new NotJsx()
    for (;;) {
      this.jsxSpace()
      const char = source[this.pos]
      if (char === undefined) throw new NotJsx()
      if (char === "/" && source[this.pos + 1] === ">") {
        this.pos += 2
        return
      }
      if (char === ">") {
        this.pos++
        this.jsxChildren()
        return
      }
      if (char === "{") {
        this.jsxExpression()
      } else if (isIdentifierStart(char)) {
        this.jsxName()
        this.jsxSpace()
        if (source[this.pos] === "=") {
          this.pos++
          this.jsxSpace()
          const value = source[this.pos]
          if (value === '"' || value === "'") {
            const close = source.indexOf(value, this.pos + 1)
            if (close === -1) throw new NotJsx()
            this.pos = close + 1
          } else if (value === "{") {
            this.jsxExpression()
          } else if (value === "<") {
            this.jsxElement()
          } else {
            throw new NotJsx()
          }
        }
      } else {
        throw new NotJsx()
      }
    }
  }

  /** Text, `{expressions}` and elements, up to and including the closing tag. JSX text holds no `>` or `}` (both must be written `{">"}`). */
  jsxChildren(): void {
    const { source } = this
    for (;;) {
      const char = source[this.pos]
      if (char === undefined || char === ">" || char === "}") throw new NotJsx()
      if (char === "{") {
        this.jsxExpression()
      } else if (char === "<") {
        let next = this.pos + 1
        while (isWhitespace(source[next] ?? "")) next++
        if (source[next] === "/") {
          const close = source.indexOf(">", next)
          if (close === -1) throw new NotJsx()
          this.pos = close + 1
          return
        }
        this.jsxElement()
      } else {
        this.pos++
      }
    }
  }

  /** `{ … }` inside JSX: code up to its `}`, which must be there. */
  jsxExpression(): void {
    this.pos++
    this.last = undefined
    if (!this.code(true)) throw new NotJsx()
  }

  /** A JSX tag or attribute name (`div`, `Foo.Bar`, `svg:rect`, `aria-label`); returns whether there was one. */
  jsxName(): boolean {
    const { source } = this
    const start = this.pos
    while (this.pos < source.length) {
      const char = source[this.pos]!
      if (isIdentifierPart(char) || char === "-" || char === "." || char === ":") this.pos++
      else break
    }
    return this.pos > start
  }

  /** Whitespace and comments between the parts of a JSX tag. */
  jsxSpace(): void {
    this.skipTrivia()
  }
}

function closerOf(open: "(" | "[" | "{"): ")" | "]" | "}" {
  return open === "(" ? ")" : open === "[" ? "]" : "}"
}

function lineEnd(source: string, from: number): number {
  for (let pos = from; pos < source.length; pos++) {
    const char = source[pos]
    if (char === "\n" || char === "\r" || char === "\u2028" || char === "\u2029") return pos
  }
  return source.length
}

function isWhitespace(char: string): boolean {
  return char === " " || char === "\t" || char === "\n" || char === "\r" || char === "\v" || char === "\f" || char === "\u00a0" || char === "\ufeff" || char === "\u2028" || char === "\u2029" || (char > "\u007f" && char.trim() === "")
}

function isDigit(char: string): boolean {
  return char >= "0" && char <= "9"
}

function isHexDigit(char: string): boolean {
  return isDigit(char) || (char >= "a" && char <= "f") || (char >= "A" && char <= "F")
}

function isIdentifierStart(char: string): boolean {
  return (char >= "a" && char <= "z") || (char >= "A" && char <= "Z") || char === "_" || char === "$" || (char > "\u007f" && !isWhitespace(char))
}

function isIdentifierPart(char: string): boolean {
  return isIdentifierStart(char) || isDigit(char)
}

/** The end of an identifier (or of a regular expression's flags) whose first character is before `from`. `\u` escapes count. */
function identifierEnd(source: string, from: number): number {
  let pos = from
  while (pos < source.length) {
    const char = source[pos]!
    if (isIdentifierPart(char)) pos++
    else if (char === "\\" && source[pos + 1] === "u") pos += 2
    else break
  }
  return pos
}

/** The end of a numeric literal: digits, letters (hex, exponent, `n`), `_`, `.`, and a sign after an exponent. */
function numberEnd(source: string, from: number): number {
  let pos = from
  while (pos < source.length) {
    const char = source[pos]!
    const hex = source[from] === "0" && (source[from + 1] === "x" || source[from + 1] === "X")
    const exponentSign = (char === "+" || char === "-") && (source[pos - 1] === "e" || source[pos - 1] === "E") && !hex
    if (isIdentifierPart(char) || char === "." || exponentSign) pos++
    else break
  }
  return pos
}

const SIMPLE_ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", v: "\v", "0": "\0" }

/** A string literal's text with its escape sequences decoded. */
function cook(raw: string): string {
  let out = ""
  for (let pos = 0; pos < raw.length; pos++) {
    const char = raw[pos]!
    if (char !== "\\") {
      out += char
      continue
    }
    const next = raw[++pos]
    if (next === undefined) break
    if (next === "\r" || next === "\n" || next === "\u2028" || next === "\u2029") {
      if (next === "\r" && raw[pos + 1] === "\n") pos++
      continue
    }
    if (next === "x" || next === "u") {
      const braced = next === "u" && raw[pos + 1] === "{"
      const digits = braced ? raw.slice(pos + 2, raw.indexOf("}", pos)) : raw.slice(pos + 1, pos + (next === "x" ? 3 : 5))
      const code = digits !== "" && [...digits].every(isHexDigit) ? Number.parseInt(digits, 16) : Number.NaN
      if (Number.isInteger(code) && code <= 0x10ffff) {
        out += String.fromCodePoint(code)
        pos += braced ? digits.length + 2 : digits.length
        continue
      }
    }
    out += SIMPLE_ESCAPES[next] ?? next
  }
  return out
}

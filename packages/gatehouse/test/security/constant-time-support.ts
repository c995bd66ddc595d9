/**
 * A static scan of the library's sources for comparisons that could leak a secret through timing:
 * `===`, `!==`, `==`, `!=`, and `startsWith`, `endsWith`, `includes`, `indexOf` and
 * `localeCompare` calls, where one side is named like a secret (token, hash, tag, csrf, secret,
 * verifier, challenge, …) and the other is not a public constant. Parsed with the TypeScript
 * compiler, so comments, strings and type positions never count.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import ts from "typescript"

/** Words that make a name secret-like once the name is split into its camelCase / snake_case words. */
const SECRET_WORDS = new Set([
  "token",
  "tokens",
  "hash",
  "hashed",
  "digest",
  "tag",
  "mac",
  "hmac",
  "csrf",
  "secret",
  "secrets",
  "verifier",
  "challenge",
  "nonce",
  "state",
  "code",
  "password",
  "signature",
  "otp",
])

/** Methods whose comparison exits at the first differing character. */
const COMPARING_METHODS = new Set(["startsWith", "endsWith", "includes", "indexOf", "localeCompare"])

/** Methods that hand back (a form of) their receiver, so the receiver's name is what is compared. */
const TRANSPARENT_METHODS = new Set(["toString", "valueOf", "trim", "toLowerCase", "toUpperCase", "normalize", "slice", "substring"])

const EQUALITY = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
])

/** One comparison the scan flagged. */
export interface Finding {
  /** Path relative to src/, with forward slashes. */
  file: string
  line: number
  /** The comparison's source text, whitespace collapsed: the allow-list's key within the file. */
  text: string
}

/** The words of an identifier: `sessionToken` → session, token; `CSRF_TOKEN` → csrf, token. */
export function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase())
}

/** The name an expression's value goes by: `a.b.sessionToken` → sessionToken, `params.get("state")` → state. */
function nameOf(node: ts.Expression): string | undefined {
  if (ts.isIdentifier(node)) return node.text
  if (ts.isPropertyAccessExpression(node)) return node.name.text
  if (ts.isElementAccessExpression(node)) {
    const argument = node.argumentExpression
    return ts.isStringLiteralLike(argument) ? argument.text : nameOf(node.expression)
  }
  if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
    const method = node.expression.name.text
    const [first] = node.arguments
    if (method === "get" && first && ts.isStringLiteralLike(first)) return first.text
    if (TRANSPARENT_METHODS.has(method)) return nameOf(node.expression.expression)
    return method
  }
  if (
    ts.isParenthesizedExpression(node) ||
    ts.isNonNullExpression(node) ||
    ts.isAsExpression(node) ||
    ts.isSatisfiesExpression(node) ||
    ts.isTypeAssertionExpression(node) ||
    ts.isAwaitExpression(node)
  ) {
    return nameOf(node.expression)
  }
  return undefined
}

function isSecretLike(node: ts.Expression): boolean {
  const name = nameOf(node)
  return name !== undefined && wordsOf(name).some((word) => SECRET_WORDS.has(word))
}

/**
 * Whether comparing with `node` can leak nothing secret: a literal, `undefined`, a `typeof`, or a
 * length or size (lengths are public; every constant-time comparison shows them too).
 */
function isPublicConstant(node: ts.Expression): boolean {
  if (ts.isParenthesizedExpression(node)) return isPublicConstant(node.expression)
  if (ts.isStringLiteralLike(node) || ts.isNumericLiteral(node) || ts.isBigIntLiteral(node)) return true
  if (node.kind === ts.SyntaxKind.TrueKeyword || node.kind === ts.SyntaxKind.FalseKeyword || node.kind === ts.SyntaxKind.NullKeyword) return true
  if (ts.isIdentifier(node) && node.text === "undefined") return true
  if (ts.isTypeOfExpression(node)) return true
  if (ts.isPrefixUnaryExpression(node) && ts.isNumericLiteral(node.operand)) return true
  if (ts.isPropertyAccessExpression(node) && (node.name.text === "length" || node.name.text === "size")) return true
  return false
}

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim()
}

/** Every flagged comparison in one source text. */
export function scanSource(file: string, code: string): Finding[] {
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const findings: Finding[] = []
  const flag = (node: ts.Node) => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1
    findings.push({ file, line, text: collapse(node.getText(source)) })
  }
  const visit = (node: ts.Node): void => {
    if (ts.isBinaryExpression(node) && EQUALITY.has(node.operatorToken.kind)) {
      const { left, right } = node
      if (!isPublicConstant(left) && !isPublicConstant(right) && (isSecretLike(left) || isSecretLike(right))) flag(node)
    } else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && COMPARING_METHODS.has(node.expression.name.text)) {
      const receiver = node.expression.expression
      const [argument] = node.arguments
      if (argument && !isPublicConstant(argument) && !isPublicConstant(receiver) && (isSecretLike(receiver) || isSecretLike(argument))) flag(node)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return findings
}

/** Every `.ts` file under `dir`. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [path] : []
  })
}

/** Every flagged comparison under `srcDir`, files named relative to it. */
export function scanSources(srcDir: string): Finding[] {
  return sourceFiles(srcDir).flatMap((path) => scanSource(relative(srcDir, path).split("\\").join("/"), readFileSync(path, "utf8")))
}

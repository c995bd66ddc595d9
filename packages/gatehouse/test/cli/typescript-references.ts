/**
 * The module references TypeScript's own parser finds in a source: the oracle the codemod's
 * lexer is compared with. Each reference is its kind's family, the specifier, and the offset of
 * the specifier's text (inside the quotes).
 */
import ts from "typescript"

export interface OracleReference {
  specifier: string
  start: number
}

const MOCKERS = new Set(["vi", "jest"])
const MOCK_METHODS = new Set(["mock", "doMock", "unmock", "doUnmock", "importActual", "importMock", "requireActual", "requireMock", "createMockFromModule", "setMock"])

/** `ScriptKind` by file name, as `tsc` picks it. */
function scriptKind(fileName: string): ts.ScriptKind {
  if (fileName.endsWith(".tsx")) return ts.ScriptKind.TSX
  if (fileName.endsWith(".jsx") || fileName.endsWith(".js")) return ts.ScriptKind.JSX
  if (fileName.endsWith(".mjs") || fileName.endsWith(".cjs")) return ts.ScriptKind.JS
  return ts.ScriptKind.TS
}

/** Every module specifier TypeScript's parser sees in `source`, in order, and whether it parsed without syntax errors. */
export function typescriptReferences(fileName: string, source: string): { references: OracleReference[]; syntaxErrors: number } {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, scriptKind(fileName))
  const references: OracleReference[] = []
  const literal = (node: ts.Node | undefined) => {
    if (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))) references.push({ specifier: node.text, start: node.getStart(file) + 1 })
  }
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) literal(node.moduleSpecifier)
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) literal(node.moduleReference.expression)
    else if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name) && node.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.DeclareKeyword)) literal(node.name)
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal(node.argument.literal)
    else if (ts.isCallExpression(node) && node.arguments.length > 0) {
      const callee = node.expression
      const isImport = callee.kind === ts.SyntaxKind.ImportKeyword
      const isRequire = ts.isIdentifier(callee) && callee.text === "require"
      const isResolve = ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === "require" && callee.name.text === "resolve"
      const isMock = ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && MOCKERS.has(callee.expression.text) && MOCK_METHODS.has(callee.name.text)
      if (isImport || isRequire || isResolve || isMock) literal(node.arguments[0])
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  for (const directive of file.typeReferenceDirectives) references.push({ specifier: directive.fileName, start: directive.pos })
  references.sort((a, b) => a.start - b.start)
  const syntaxErrors = (file as unknown as { parseDiagnostics: readonly unknown[] }).parseDiagnostics.length
  return { references, syntaxErrors }
}

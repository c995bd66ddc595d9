/**
 * Type-checking code as an application would, against the package as npm publishes it: a
 * consumer folder whose `node_modules` holds gatehouse-auth unpacked from the packed tarball
 * (packed-package.ts), and beside it what an app has installed (its type packages, React,
 * Express, oauth4webapi), linked from the workspace; then the TypeScript compiler over files
 * written into a fresh folder inside it. Each check is a program of its own, so one case's module
 * augmentation cannot leak into another's.
 */
import { execFileSync } from "node:child_process"
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { packedPackage } from "./packed-package.js"

const workspaceModules = fileURLToPath(new URL("../../../../node_modules", import.meta.url))
/** What an app has beside gatehouse-auth, linked from the workspace's node_modules. */
const LINKED = ["@types", "oauth4webapi", "react", "express", "expect-type"]

let consumer: string | undefined
let cases = 0

/** The consumer folder, made once per test process. */
function consumerDir(): string {
  if (consumer) return consumer
  const dir = mkdtempSync(join(tmpdir(), "gatehouse-consumer-"))
  const target = join(dir, "node_modules", "gatehouse-auth")
  mkdirSync(target, { recursive: true })
  execFileSync("tar", ["-xzf", packedPackage(), "-C", target, "--strip-components=1"])
  for (const name of LINKED) symlinkSync(join(workspaceModules, name), join(dir, "node_modules", name), "dir")
  // The app is ESM, as every app importing this ESM-only package is under node16 resolution.
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }))
  consumer = dir
  return dir
}

/** How the consumer resolves modules: TypeScript's `moduleResolution`. */
export type Resolution = "node10" | "node16" | "bundler"

const RESOLUTION: Record<Resolution, Pick<ts.CompilerOptions, "module" | "moduleResolution">> = {
  node10: { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Node10 },
  node16: { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 },
  bundler: { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler },
}

/**
 * Writes `files` (path → source) into a new folder of the consumer and type-checks them
 * together, strict, as an application's `tsc --noEmit` would. Returns every diagnostic as
 * `file(line,col): message`, empty when the code compiles.
 */
export function typeCheck(files: Record<string, string>, resolution: Resolution = "bundler"): string[] {
  const dir = join(consumerDir(), `case-${++cases}`)
  const roots = Object.entries(files).map(([path, source]) => {
    const file = join(dir, path)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, source)
    return file
  })
  const program = ts.createProgram(roots, {
    ...RESOLUTION[resolution],
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    jsx: ts.JsxEmit.ReactJSX,
    types: ["node"],
  })
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => formatDiagnostic(diagnostic, dir))
}

/** One diagnostic as `file(line,col): message`, its file relative to `root`. */
export function formatDiagnostic(diagnostic: ts.Diagnostic, root: string): string {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")
  if (!diagnostic.file || diagnostic.start === undefined) return message
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start)
  return `${relative(root, diagnostic.file.fileName)}(${line + 1},${character + 1}): ${message}`
}

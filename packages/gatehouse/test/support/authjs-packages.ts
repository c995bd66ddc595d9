/**
 * Auth.js's own packages (next-auth, @auth/express, @auth/sveltekit, @auth/solid-start and their
 * @auth/core), installed at test time into a folder of their own (test/compat/authjs-packages),
 * never into the workspace: next-auth would bring Next into the root lockfile, which this
 * registry cannot serve for other platforms. Peer dependencies (Next, React, SvelteKit, Solid)
 * are left out; what reads these packages' declarations needs only their own files, and the
 * Next app's check links Next and React from examples/next.
 */
import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { withBuildLock } from "./example-app.js"

const folder = fileURLToPath(new URL("../compat/authjs-packages", import.meta.url))

/** The `node_modules` folder holding Auth.js's packages, installed (once per change of their versions). */
export function installAuthjsPackages(): string {
  const modules = join(folder, "node_modules")
  const stampFile = join(modules, ".gatehouse-install-stamp")
  const wanted = createHash("sha256").update(readFileSync(join(folder, "package.json"))).digest("hex")
  withBuildLock(() => {
    if (existsSync(stampFile) && readFileSync(stampFile, "utf8") === wanted) return
    // --no-save: no lockfile is written; --legacy-peer-deps: no Next, React, Kit or Solid.
    execFileSync("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--legacy-peer-deps", "--loglevel=error"], {
      cwd: folder,
      stdio: "pipe",
      encoding: "utf8",
    })
    writeFileSync(stampFile, wanted)
  })
  return modules
}

/** One name a module exports, and whether it is a value (a function, class, constant) or a type only. */
export interface ExportedName {
  name: string
  value: boolean
}

/**
 * The names each of `declarationFiles` exports, read by the TypeScript compiler (re-exports
 * followed), in alphabetical order; `default` for a default export. One program reads them all.
 */
export function exportedNames(declarationFiles: readonly string[]): Map<string, ExportedName[]> {
  const program = ts.createProgram(declarationFiles, {
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  })
  const checker = program.getTypeChecker()
  const read = (file: string): ExportedName[] => {
    const source = program.getSourceFile(file)
    const moduleSymbol = source && checker.getSymbolAtLocation(source)
    if (!moduleSymbol) throw new Error(`${file} is not a module`)
    return checker
      .getExportsOfModule(moduleSymbol)
      .map((symbol) => {
        const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
        // A re-export whose target does not resolve (next-auth/react's SignInAuthorizationParams
        // names a type its module lacks) can only be imported as a type.
        const resolved = (target.declarations?.length ?? 0) > 0
        return { name: symbol.name, value: resolved && (target.flags & ts.SymbolFlags.Value) !== 0 }
      })
      .sort((a, b) => a.name.localeCompare(b.name))
  }
  return new Map(declarationFiles.map((file) => [file, read(file)]))
}

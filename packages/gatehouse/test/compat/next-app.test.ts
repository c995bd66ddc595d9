/**
 * A next-auth v5 app switches to Gatehouse by changing its imports, and `next build`'s type check
 * passes: the Auth.js-style app in fixtures/next-app (auth.ts with callbacks and module
 * augmentation, the proxy, a route handler wrapped in auth(), server components, SessionProvider
 * and useSession, getToken) is type-checked first as it is, against next-auth (so it is valid
 * Auth.js code), then with its imports switched by the documented mapping, against the packed
 * gatehouse-auth; both with Next's route types generated (`next typegen`) and Next's and React's
 * types from examples/next.
 */
import { cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import { execFileSync } from "node:child_process"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { beforeAll, describe, expect, it } from "vitest"
import { installAuthjsPackages } from "../support/authjs-packages.js"
import { installExampleApp } from "../support/example-app.js"
import { formatDiagnostic } from "../support/type-check.js"

const fixture = fileURLToPath(new URL("./fixtures/next-app", import.meta.url))
const exampleApp = fileURLToPath(new URL("../../../../examples/next", import.meta.url))

/** The switch, as the README's "Coming from Auth.js" maps each specifier. */
function switched(specifier: string): string {
  if (specifier === "next-auth") return "gatehouse-auth/next"
  if (specifier.startsWith("next-auth/")) return `gatehouse-auth/${specifier.slice("next-auth/".length)}`
  return specifier
}

/** The fixture's files, copied to a new folder, its specifiers passed through `rename`. */
function copyFixture(rename: (specifier: string) => string): string {
  const dir = mkdtempSync(join(tmpdir(), "gatehouse-next-app-"))
  cpSync(fixture, dir, { recursive: true })
  const visit = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name)
      if (entry.isDirectory()) visit(path)
      else if (/\.tsx?$/.test(entry.name)) {
        // The fixture's only quoted next-auth strings are module specifiers.
        writeFileSync(path, readFileSync(path, "utf8").replace(/"(next-auth(?:\/[a-z0-9-]+)*)"/g, (_, specifier: string) => `"${rename(specifier)}"`))
      }
    }
  }
  visit(dir)
  return dir
}

/** Links each of `from`'s packages into `dir`/node_modules, skipping those already there or in `except`. */
function linkPackages(dir: string, from: string, except: readonly string[] = []): void {
  mkdirSync(join(dir, "node_modules"), { recursive: true })
  for (const name of readdirSync(from)) {
    if (name.startsWith(".") || except.includes(name)) continue
    if (name.startsWith("@")) {
      mkdirSync(join(dir, "node_modules", name), { recursive: true })
      for (const scoped of readdirSync(join(from, name))) {
        const path = `${name}/${scoped}`
        if (except.includes(path)) continue
        try {
          symlinkSync(join(from, path), join(dir, "node_modules", path), "dir")
        } catch {
          // already linked from another source
        }
      }
      continue
    }
    try {
      symlinkSync(join(from, name), join(dir, "node_modules", name), "dir")
    } catch {
      // already linked from another source
    }
  }
}

/** `next typegen`, then the app's tsconfig through the compiler: every diagnostic. */
function typeCheckApp(dir: string, options: ts.CompilerOptions = {}): string[] {
  execFileSync(process.execPath, [join(dir, "node_modules/next/dist/bin/next"), "typegen"], {
    cwd: dir,
    stdio: "pipe",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  })
  const parsed = ts.getParsedCommandLineOfConfigFile(join(dir, "tsconfig.json"), options, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"))
    },
  })!
  const program = ts.createProgram(parsed.fileNames, parsed.options)
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => formatDiagnostic(diagnostic, dir))
}

let authjsModules: string
const exampleModules = join(exampleApp, "node_modules")

beforeAll(() => {
  installExampleApp({ dir: exampleApp })
  authjsModules = installAuthjsPackages()
}, 600_000)

describe("an Auth.js Next app, switched to Gatehouse by its imports", () => {
  it("type-checks as written, against next-auth", () => {
    const dir = copyFixture((specifier) => specifier)
    linkPackages(dir, authjsModules)
    linkPackages(dir, exampleModules, ["gatehouse-auth"])
    // Linked packages resolve their own imports (next-auth's of next) from the app's node_modules.
    expect(typeCheckApp(dir, { preserveSymlinks: true })).toEqual([])
  }, 120_000)

  it("type-checks with its imports switched, against the packed gatehouse-auth", () => {
    const dir = copyFixture(switched)
    const source = readFileSync(join(dir, "auth.ts"), "utf8")
    expect(source).toContain('declare module "gatehouse-auth/next"')
    expect(source).not.toContain('"next-auth')
    symlinkSync(exampleModules, join(dir, "node_modules"), "dir")
    // The package as npm unpacked it from the tarball, not a link to the workspace's sources.
    expect(lstatSync(join(exampleModules, "gatehouse-auth")).isSymbolicLink()).toBe(false)
    expect(typeCheckApp(dir)).toEqual([])
  }, 120_000)
})

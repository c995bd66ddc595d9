/**
 * The codemod's lexer against TypeScript's own parser, file by file: on every source of this
 * repository (the package, its tests, the example apps, the benchmarks, the Auth.js-style apps
 * the codemod is tested on), both must find the same module specifiers at the same places.
 * TypeScript is a development dependency only; the codemod ships without it.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { extname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { findModuleReferences } from "../../src/cli/module-references.js"
import { svelteScripts } from "../../src/cli/svelte-scripts.js"
import { typescriptReferences } from "./typescript-references.js"

const repository = fileURLToPath(new URL("../../../../", import.meta.url))
const roots = ["packages/gatehouse/src", "packages/gatehouse/test", "examples", "bench"]
const CODE = new Set([".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"])
const SKIP = new Set(["node_modules", ".next", ".svelte-kit", ".output", ".vinxi", "build", "dist", ".build", "results"])

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) {
      if (!SKIP.has(name)) yield* files(path)
    } else if (CODE.has(extname(name)) || name.endsWith(".svelte")) {
      yield path
    }
  }
}

const corpus = roots.flatMap((root) => [...files(join(repository, root))])

/** `start:specifier` lines, for a readable difference. */
function listed(references: readonly { start: number; specifier: string }[]): string {
  return references.map((reference) => `${reference.start}:${reference.specifier}`).join("\n")
}

describe("the lexer against TypeScript's parser", () => {
  it("has a corpus with every kind of file in it", () => {
    const kinds = new Set(corpus.map((path) => (path.endsWith(".d.ts") ? ".d.ts" : extname(path))))
    for (const kind of [".ts", ".tsx", ".d.ts", ".js", ".mjs", ".svelte"]) expect(kinds).toContain(kind)
    expect(corpus.length).toBeGreaterThan(300)
  })

  it("finds the module specifiers TypeScript finds, at the same offsets, in every file", () => {
    const differences: string[] = []
    for (const path of corpus.filter((file) => !file.endsWith(".svelte"))) {
      const source = readFileSync(path, "utf8")
      const oracle = typescriptReferences(path, source)
      expect(oracle.syntaxErrors, `${path} should parse`).toBe(0)
      const extension = extname(path)
      const mine = findModuleReferences(source, { jsx: extension === ".tsx" || extension === ".jsx" || extension === ".js" }).references
      if (listed(mine) !== listed(oracle.references)) differences.push(`${relative(repository, path)}\n  lexer:      ${listed(mine)}\n  TypeScript: ${listed(oracle.references)}`)
    }
    expect(differences).toEqual([])
  })

  it("finds what TypeScript finds in each script block of every Svelte component", () => {
    const differences: string[] = []
    for (const path of corpus.filter((file) => file.endsWith(".svelte"))) {
      const source = readFileSync(path, "utf8")
      for (const block of svelteScripts(source)) {
        const script = source.slice(block.start, block.end)
        const mine = findModuleReferences(script, { jsx: false }).references
        const oracle = typescriptReferences(`${path}.ts`, script)
        if (listed(mine) !== listed(oracle.references)) differences.push(`${relative(repository, path)}@${block.start}`)
      }
    }
    expect(differences).toEqual([])
  })

  it("agrees with TypeScript on a component using JSX the ways apps do", () => {
    const component = [
      `"use client"`,
      `import { useSession } from "next-auth/react"`,
      `import type { ReactNode } from "react"`,
      `const Row = <T,>({ item }: { item: T }) => <li>{String(item)}</li>`,
      `export function Card({ children, href }: { children?: ReactNode; href: string }) {`,
      `  const { data, status } = useSession()`,
      `  const ratio = data ? 1 / 2 : 3 / 4`,
      `  const matches = /<a href="[^"]*">/g.test(href) && href.length < 10 && ratio > 0`,
      `  if (status === "loading") return <p>Loading… don't click "twice"</p>`,
      `  return (`,
      `    <section className={\`card \${status}\`} data-x='a "quoted" value' onClick={() => ratio > 1 && void import("next-auth/webauthn")}>`,
      `      {/* import "next-auth/jwt" */}`,
      `      <a href={href} title="// not a comment">Files in app/* and http://example.com</a>`,
      `      {matches ? <Row item={1} /> : <><Row item="two" /></>}`,
      `      {["a", "b"].map((key) => (<span key={key}>{key}{"}"}{"</span>"}</span>))}`,
      `      <Trans>It's <b>bold</b> &amp; {children}</Trans>`,
      `    </section>`,
      `  )`,
      `}`,
      `const later = () => import("@auth/core/providers/github")`,
      ``,
    ].join("\n")
    const mine = findModuleReferences(component, { jsx: true }).references
    const oracle = typescriptReferences("card.tsx", component)
    expect(oracle.syntaxErrors).toBe(0)
    expect(listed(mine)).toBe(listed(oracle.references))
    expect(mine.map((reference) => reference.specifier)).toEqual(["next-auth/react", "react", "next-auth/webauthn", "@auth/core/providers/github"])
  })

  it("is compared with an oracle that sees syntax errors and every form", () => {
    expect(typescriptReferences("broken.ts", "const = (;").syntaxErrors).toBeGreaterThan(0)
    const all = `/// <reference types="a" />\nimport b from "b"\nexport * from "c"\nimport d = require("d")\nconst e = import("e")\nrequire("f")\ndeclare module "g" {}\ntype H = import("h").H\nvi.mock("i")\n`
    expect(typescriptReferences("all.ts", all).references.map((reference) => reference.specifier)).toEqual(["a", "b", "c", "d", "e", "f", "g", "h", "i"])
    expect(findModuleReferences(all, { jsx: false }).references.map((reference) => reference.specifier)).toEqual(["a", "b", "c", "d", "e", "f", "g", "h", "i"])
  })
})

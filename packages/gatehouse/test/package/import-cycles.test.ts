/**
 * No import circles in src/, at two scales: between modules, and between the folders (and the
 * top-level modules) of src/. A circle means neither side can be read, tested or loaded without the
 * other, and type-only imports count too: the types are part of what a reader must follow.
 */
import { describe, expect, it } from "vitest"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const src = fileURLToPath(new URL("../../src", import.meta.url))

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : []
  })
}

/** Each module (path relative to src/) and the modules it imports, `import type` and `import("…")` types included. */
const imports = new Map(
  sources(src).map((file) => {
    const code = readFileSync(file, "utf8")
    const targets = [...code.matchAll(/(?:from|import)\s*\(?\s*["'](\.[^"']+)["']/g)].map((match) =>
      relative(src, resolve(dirname(file), match[1]!)).replace(/\.js$/, ".ts"),
    )
    return [relative(src, file), [...new Set(targets)]] as const
  }),
)

/** The folder a module is in (`core/`), or the module itself when it sits at the top of src/. */
function topLevel(module: string): string {
  const slash = module.indexOf("/")
  return slash === -1 ? module : module.slice(0, slash + 1)
}

/** The same imports between top-level folders and modules, an import within one left out. */
const folderImports = new Map<string, string[]>()
for (const [from, targets] of imports) {
  const outward = targets.map(topLevel).filter((to) => to !== topLevel(from))
  folderImports.set(topLevel(from), [...new Set([...(folderImports.get(topLevel(from)) ?? []), ...outward])])
}

/** One circle per import that closes one, as `a → b → a`, by depth-first search. */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = []
  const done = new Set<string>()
  const path: string[] = []
  const visit = (node: string): void => {
    path.push(node)
    for (const next of graph.get(node) ?? []) {
      const onPath = path.indexOf(next)
      if (onPath !== -1) found.push([...path.slice(onPath), next].join(" → "))
      else if (!done.has(next) && graph.has(next)) visit(next)
    }
    path.pop()
    done.add(node)
  }
  for (const node of [...graph.keys()].sort()) if (!done.has(node)) visit(node)
  return found
}

describe("import circles", () => {
  it("reads the imports of every module", () => {
    expect(imports.size).toBeGreaterThan(100)
    expect(imports.get("types.ts")?.length).toBeGreaterThan(0)
  })

  it("finds a circle where there is one", () => {
    expect(circles(new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["a"]]]))).toEqual(["a → b → c → a"])
  })

  it("has no circle between modules", () => {
    expect(circles(imports)).toEqual([])
  })

  it("has no circle between the folders and top-level modules of src/", () => {
    expect(circles(folderImports)).toEqual([])
  })
})

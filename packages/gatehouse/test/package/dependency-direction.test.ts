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

/** Every relative import of every source file, as paths relative to src/. */
const edges = sources(src).flatMap((file) => {
  const code = readFileSync(file, "utf8")
  const from = relative(src, file)
  return [...code.matchAll(/(?:from|import)\s*\(?\s*["'](\.[^"']+)["']/g)].map((match) => ({
    from,
    to: relative(src, resolve(dirname(file), match[1]!)).replace(/\.js$/, ".ts"),
  }))
})

const integrations = ["next/", "express/", "sveltekit/", "solid-start/", "tanstack-start/"]

describe("dependency direction", () => {
  it("finds the imports it checks", () => {
    expect(edges.length).toBeGreaterThan(20)
  })

  it("keeps providers free of core", () => {
    expect(edges.filter((e) => e.from.startsWith("providers/") && e.to.startsWith("core/"))).toEqual([])
  })

  it("keeps core free of integrations and concrete providers", () => {
    const bad = edges.filter(
      (e) => e.from.startsWith("core/") && (integrations.some((i) => e.to.startsWith(i)) || (e.to.startsWith("providers/") && e.to !== "providers/types.ts")),
    )
    expect(bad).toEqual([])
  })

  it("keeps the shared stores free of core and providers: a store is a leaf the core is given", () => {
    const fromStores = edges.filter((e) => e.from.startsWith("stores/"))
    expect(fromStores.length).toBeGreaterThan(0)
    expect(fromStores.filter((e) => !e.to.startsWith("stores/") && e.to !== "errors.ts")).toEqual([])
  })

  it("keeps jwt free of core, providers and pages", () => {
    expect(edges.filter((e) => e.from.startsWith("jwt/") && /^(core|providers)\//.test(e.to))).toEqual([])
  })

  it("keeps the integration kernel free of the integrations built on it", () => {
    expect(edges.filter((e) => e.from.startsWith("framework/") && integrations.some((i) => e.to.startsWith(i)))).toEqual([])
  })

  it("lets integrations reach the library only through its public API: the entry points and the integration kernel", () => {
    const publicApi = ["index.ts", "types.ts", "errors.ts", "jwt/index.ts", "framework/index.ts"]
    // An integration's browser module (`<integration>/client.ts`) wraps the browser client, and only it may.
    const allowed = (e: { from: string; to: string }) => publicApi.includes(e.to) || (e.to === "client/index.ts" && e.from.endsWith("/client.ts"))
    const fromIntegrations = edges.filter((e) => integrations.some((i) => e.from.startsWith(i)))
    expect(fromIntegrations.length).toBeGreaterThan(0)
    const bad = fromIntegrations.filter((e) => !allowed(e) && !e.to.startsWith(e.from.slice(0, e.from.indexOf("/") + 1)))
    expect(bad).toEqual([])
  })

  it("keeps an integration's browser module off its server code and the kernel, so it bundles small", () => {
    const fromClients = edges.filter((e) => integrations.some((i) => e.from === `${i}client.ts`))
    expect(fromClients.length).toBeGreaterThan(0)
    expect(fromClients.filter((e) => e.to !== "client/index.ts" && e.to !== "types.ts")).toEqual([])
  })

  it("lets the React bindings import only the browser client and the types (and React)", () => {
    const fromReact = edges.filter((e) => e.from.startsWith("react/"))
    expect(fromReact.length).toBeGreaterThan(0)
    expect(fromReact.filter((e) => e.to !== "client/index.ts" && e.to !== "types.ts" && !e.to.startsWith("react/"))).toEqual([])
  })

  it("keeps the second-factor client (gatehouse-auth/client/two-factor) on types of the base client alone", () => {
    const fromTwoFactor = edges.filter((e) => e.from === "client/two-factor.ts")
    expect(fromTwoFactor.map((e) => e.to)).toEqual(["client/index.ts"])
    expect(readFileSync(join(src, "client/two-factor.ts"), "utf8")).toMatch(/^import type \{[^}]*\} from "\.\/index\.js"$/m)
  })

  it("keeps the organizations client (gatehouse-auth/client/organizations) on types of the base client alone", () => {
    const fromOrganizations = edges.filter((e) => e.from === "client/organizations.ts")
    expect(fromOrganizations.map((e) => e.to)).toEqual(["client/index.ts"])
  })

  it("keeps can of the core a leaf the browser's copy can match: no runtime import", () => {
    expect(readFileSync(join(src, "core/organizations/can.ts"), "utf8")).not.toMatch(/^\s*import\s(?!type\s)/m)
  })

  it("keeps each browser client module free of runtime imports, so each bundles (and is served) alone", () => {
    // gatehouse-auth/webauthn is a browser client module too, apart so that the base client stays small.
    const client = [...sources(join(src, "client")), ...sources(join(src, "webauthn"))]
    expect(client.length).toBeGreaterThan(2)
    // Type-only imports are erased from the build; anything else would make a module need another.
    const importing = client.filter((file) => /^\s*import\s(?!type\s)/m.test(readFileSync(file, "utf8")))
    expect(importing.map((file) => relative(src, file))).toEqual([])
    expect(edges.filter((e) => e.from.startsWith("client/") && !e.to.startsWith("client/"))).toEqual([])
    expect(edges.filter((e) => e.from.startsWith("webauthn/") && !e.to.startsWith("client/") && !e.to.startsWith("webauthn/"))).toEqual([])
  })
})

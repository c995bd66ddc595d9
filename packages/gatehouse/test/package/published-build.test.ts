import { beforeAll, describe, expect, it } from "vitest"
import { execFileSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { packedFiles } from "../support/packed-package.js"

const packageDir = fileURLToPath(new URL("../..", import.meta.url))
const dist = join(packageDir, "dist")
// Node-only code may live only in these subpaths; everything else must run on any Web runtime.
const nodeOnly = ["adapters/sqlite", "adapters/postgres", "express", "next", "sveltekit", "solid-start", "testing", "cli", "password/node", "primitives/node"]

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : [path]
  })
}

describe("the built package", () => {
  it("has been built (npm test builds first)", () => {
    expect(existsSync(join(dist, "index.js")), "run `npm run build` before the tests").toBe(true)
  })

  it("has no node: import, Buffer or process in the core subpaths", () => {
    const core = files(dist).filter((file) => file.endsWith(".js") && !nodeOnly.some((dir) => relative(dist, file).startsWith(dir)))
    expect(core.length).toBeGreaterThan(5)
    const offenders = core.filter((file) => {
      // Doc comments may mention process.env as an example; only code counts.
      const code = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "")
        // The React bindings name AUTH_URL as bundlers replace it (Next inlines these at build), read inside try.
        .replace(/\bprocess\.env\.(NEXT_PUBLIC_AUTH_URL|AUTH_URL)\b/g, "")
      return /\bfrom\s*["']node:|\bimport\s*\(\s*["']node:|\brequire\s*\(|\bBuffer\.|\bprocess\./.test(code)
    })
    expect(offenders.map((file) => relative(dist, file))).toEqual([])
  })

  it("signs in through Auth and gatehouse-auth/providers/credentials in a plain Node ESM script", () => {
    const script = `
      import { Auth } from "gatehouse-auth"
      import Credentials from "gatehouse-auth/providers/credentials"
      const config = { secret: "s".repeat(40), trustHost: true, providers: [Credentials({ authorize: () => ({ id: "1" }) })] }
      const response = await Auth(new Request("https://app.test/auth/providers"), config)
      console.log(Object.keys(await response.json()).join())
    `
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: packageDir, encoding: "utf8" })
    expect(out.trim()).toBe("credentials")
  })

  it("imports encode, decode and getToken from gatehouse-auth/jwt in a plain Node ESM script", () => {
    const script = `
      import { encode, decode, getToken } from "gatehouse-auth/jwt"
      const token = await encode({ token: { sub: "esm" }, secret: "plain-node-script-secret-0123456789abcdef", salt: "s" })
      const claims = await decode({ token, secret: "plain-node-script-secret-0123456789abcdef", salt: "s" })
      console.log(typeof getToken, claims.sub)
    `
    const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: packageDir, encoding: "utf8" })
    expect(output.trim()).toBe("function esm")
  })

  it("gives Node the node:crypto primitives and a browser bundle the Web Crypto ones (#primitives)", async () => {
    const script = `console.log(import.meta.resolve("#primitives"))`
    const resolved = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: packageDir, encoding: "utf8" })
    expect(resolved.trim()).toMatch(/\/dist\/primitives\/node\.js$/)
    const { build } = await import("esbuild")
    const bundled = await build({ entryPoints: [join(dist, "jwt/index.js")], bundle: true, platform: "browser", format: "esm", write: false, metafile: true, logLevel: "silent" })
    const inputs = Object.keys(bundled.metafile.inputs)
    expect(inputs.some((input) => input.endsWith("primitives/web.js"))).toBe(true)
    expect(inputs.some((input) => input.endsWith("primitives/node.js"))).toBe(false)
  })

  it("keeps the adapters' internal modules out of reach: only memory, sqlite and postgres are subpaths", () => {
    const script = (specifier: string) => `try { console.log(import.meta.resolve(${JSON.stringify(specifier)})) } catch (error) { console.log(error.code) }`
    const resolve = (specifier: string) => execFileSync(process.execPath, ["--input-type=module", "-e", script(specifier)], { cwd: packageDir, encoding: "utf8" }).trim()
    for (const adapter of ["memory", "sqlite", "postgres"]) expect(resolve(`gatehouse-auth/adapters/${adapter}`)).toMatch(new RegExp(`/dist/adapters/${adapter}\\.js$`))
    for (const internal of ["hashed-session-token", "sqlite-schema", "postgres-schema", "index"]) {
      expect(resolve(`gatehouse-auth/adapters/${internal}`), internal).toBe("ERR_PACKAGE_PATH_NOT_EXPORTED")
    }
  })

  it("exports each subpath with types first", () => {
    const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"))
    expect(manifest.type).toBe("module")
    expect(manifest.sideEffects).toBe(false)
    expect(manifest.files).toEqual(["dist", "README.md", "LICENSE", "CHANGELOG.md"])
    expect(Object.keys(manifest.dependencies).sort()).toEqual(["oauth4webapi"])
    for (const [subpath, target] of Object.entries<Record<string, string> | string>(manifest.exports)) {
      if (typeof target === "string") continue
      expect(Object.keys(target)[0], subpath).toBe("types")
      // A pattern export must resolve at least the subpath we document for it.
      const documented: Record<string, string> = { "./providers/*": "credentials" }
      const file = target.default!.replace("*", documented[subpath] ?? "*")
      expect(existsSync(join(packageDir, file)), `${subpath} → ${file}`).toBe(true)
    }
  })
})

describe("the published tarball (npm pack --dry-run)", () => {
  const repositoryRoot = join(packageDir, "../..")
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"))
  let packed: string[] = []
  beforeAll(() => {
    packed = packedFiles()
  }, 60_000)

  it("holds README.md, LICENSE, CHANGELOG.md, package.json and dist/ and nothing else", () => {
    expect(packed.filter((file) => !file.startsWith("dist/"))).toEqual(["CHANGELOG.md", "LICENSE", "README.md", "package.json"])
    // All of the build, nothing beside it: dist/ as built is dist/ as packed.
    expect(packed.filter((file) => file.startsWith("dist/"))).toEqual(files(dist).map((file) => relative(packageDir, file).split("\\").join("/")).sort())
  })

  it("holds no tests, TypeScript sources, source maps or build info", () => {
    const unneeded = /(^|\/)(test|tests|__tests__|src)\/|\.(test|spec)\.|(?<!\.d)\.ts$|\.map$|\.tsbuildinfo$/
    expect(packed.filter((file) => unneeded.test(file))).toEqual([])
  })

  it("carries the repository's README, CHANGELOG and MIT licence, and says MIT in package.json", () => {
    for (const name of ["README.md", "LICENSE", "CHANGELOG.md"]) {
      expect(readFileSync(join(packageDir, name), "utf8"), name).toBe(readFileSync(join(repositoryRoot, name), "utf8"))
    }
    const licence = readFileSync(join(repositoryRoot, "LICENSE"), "utf8")
    expect(licence).toMatch(/^MIT License\n\nCopyright \(c\) 2026 The Gatehouse authors\n/)
    expect(manifest.license).toBe("MIT")
  })

  it("holds every file its package.json points at (exports, imports, bin, types, typesVersions)", () => {
    const targets = (value: unknown): string[] =>
      typeof value === "string" ? [value] : Array.isArray(value) ? value.flatMap(targets) : value && typeof value === "object" ? Object.values(value).flatMap(targets) : []
    // A pattern must resolve at least the subpath documented for it.
    // Except the `gatehouse-source` condition of the `imports` map: the repository's own, set
    // only by its tsconfig so the source type-checks before a build; no tool of a user's sets it.
    // (TypeScript `paths` instead would reach esbuild too, which then bundles src/ for dist/.)
    const imports = Object.values<Record<string, string>>(manifest.imports).map(({ "gatehouse-source": _source, ...rest }) => rest)
    const referenced = [manifest.types, manifest.exports, imports, manifest.bin, manifest.typesVersions]
      .flatMap(targets)
      .map((target) => target.replace("*", "credentials").replace(/^\.\//, ""))
    expect(referenced.length).toBeGreaterThan(50)
    expect(referenced.filter((target) => !packed.includes(target))).toEqual([])
  })
})

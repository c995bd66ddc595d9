/**
 * `gatehouse migrate-from-authjs [dir] [--dry-run]` on small apps in temporary folders: what it
 * prints, what it writes (nothing in a dry run, nothing the second time), what it never enters or
 * changes (dependencies, build output, configs, .env), and its exit codes; in-process and as the
 * built executable.
 */
import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { main } from "../../src/cli/main.js"

const builtCli = fileURLToPath(new URL("../../dist/cli/index.js", import.meta.url))
const VERSION = (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version

let dir: string

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "gatehouse-migrate-"))
})

afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

async function run(...args: string[]) {
  let stdout = ""
  let stderr = ""
  const code = await main(args, { cwd: dir, stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text) })
  return { code, stdout, stderr }
}

/** Writes `files` (path → text or bytes) under the app folder. */
function write(files: Record<string, string | Buffer>, root = join(dir, "app")): string {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), content)
  }
  return root
}

/** Every file under `root` with its bytes and modification time: what a dry run must leave as it found. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {}
  const visit = (path: string) => {
    const stats = statSync(path)
    if (stats.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name))
    else out[relative(root, path)] = `${stats.mtimeMs} ${readFileSync(path).toString("base64")}`
  }
  visit(root)
  return out
}

const NEXT_APP = {
  "package.json": `{\n  "name": "app",\n  "dependencies": {\n    "next": "16.0.0",\n    "next-auth": "5.0.0-beta.25",\n    "@auth/prisma-adapter": "2.7.0"\n  }\n}\n`,
  "auth.ts": `import NextAuth, { type DefaultSession } from "next-auth"\nimport GitHub from "next-auth/providers/github"\nimport { PrismaAdapter } from "@auth/prisma-adapter"\n\nexport const { handlers, auth } = NextAuth({ providers: [GitHub] })\n\ndeclare module "next-auth" {\n  interface Session {\n    user: { role: string } & DefaultSession["user"]\n  }\n}\n`,
  "app/providers.tsx": `"use client"\nimport { SessionProvider } from "next-auth/react"\nexport const Providers = ({ children }) => <SessionProvider>{children}</SessionProvider>\n`,
  "middleware.js": `export { default } from "next-auth/middleware"\n`,
  "next.config.mjs": `export default { serverExternalPackages: ["better-sqlite3"] }\n`,
  ".env.local": `AUTH_SECRET=s3cr3t-value-never-printed\nNEXTAUTH_URL=http://localhost:3000\nNEXTAUTH_SECRET=another-s3cr3t\n`,
}

describe("gatehouse migrate-from-authjs", () => {
  it("rewrites the app and prints each change by file and line, then what it left", async () => {
    const app = write(NEXT_APP)
    const { code, stdout, stderr } = await run("migrate-from-authjs", "app")
    expect(stderr).toBe("")
    expect(code).toBe(0)
    expect(stdout).toBe(
      [
        "Changed 5 specifiers and dependencies in 3 files of app:",
        "",
        "app/providers.tsx",
        '  2: import "next-auth/react" → "gatehouse-auth/react"',
        "",
        "auth.ts",
        '  1: import "next-auth" → "gatehouse-auth/next"',
        '  2: import "next-auth/providers/github" → "gatehouse-auth/providers/github"',
        '  7: declare module "next-auth" → "gatehouse-auth/next"',
        "",
        "package.json",
        `  5: dependencies "next-auth": "5.0.0-beta.25" → "gatehouse-auth": "^${VERSION}"`,
        "",
        "Left as they are, for you to change by hand:",
        "  middleware.js:1: next-auth/middleware: next-auth v4's middleware (v5 throws on it); export `auth` from your auth.ts as `proxy` (or `middleware`) instead",
        "",
        `Now install (npm install, or your package manager's) to bring in gatehouse-auth@^${VERSION}.`,
        "",
      ].join("\n"),
    )
    expect(readFileSync(join(app, "auth.ts"), "utf8")).toBe(NEXT_APP["auth.ts"].replaceAll('"next-auth"', '"gatehouse-auth/next"').replace('"next-auth/providers/github"', '"gatehouse-auth/providers/github"'))
    expect(readFileSync(join(app, "app/providers.tsx"), "utf8")).toContain('from "gatehouse-auth/react"')
    expect(JSON.parse(readFileSync(join(app, "package.json"), "utf8"))).toEqual({ name: "app", dependencies: { next: "16.0.0", "gatehouse-auth": `^${VERSION}`, "@auth/prisma-adapter": "2.7.0" } })
  })

  it("leaves configs, .env files and what it cannot map byte for byte as they were, and prints no value from .env", async () => {
    const app = write(NEXT_APP)
    const { stdout, stderr } = await run("migrate-from-authjs", "app")
    for (const value of ["s3cr3t", "localhost:3000"]) expect(stdout + stderr).not.toContain(value)
    for (const file of ["next.config.mjs", ".env.local", "middleware.js"] as const) expect(readFileSync(join(app, file), "utf8")).toBe(NEXT_APP[file])
  })

  it("prints the same report in a dry run and writes nothing", async () => {
    const app = write(NEXT_APP)
    const before = snapshot(app)
    const dry = await run("migrate-from-authjs", "app", "--dry-run")
    expect(dry.code).toBe(0)
    expect(snapshot(app)).toEqual(before)
    const real = await run("migrate-from-authjs", "app")
    const body = (text: string) => text.split("\n").slice(1, -2).join("\n")
    expect(dry.stdout.split("\n")[0]).toBe("Would change 5 specifiers and dependencies in 3 files of app (dry run: nothing written):")
    expect(dry.stdout).toMatch(/\nRun it again without --dry-run to write these changes\.\n$/)
    expect(body(dry.stdout)).toBe(body(real.stdout))
  })

  it("changes nothing on a second run, and says so", async () => {
    const app = write(NEXT_APP)
    await run("migrate-from-authjs", "app")
    const after = snapshot(app)
    const second = await run("migrate-from-authjs", "app")
    expect(second.code).toBe(0)
    expect(snapshot(app)).toEqual(after)
    expect(second.stdout.split("\n")[0]).toBe("No Auth.js imports or dependencies to change in app.")
    expect(second.stdout).not.toContain("→")
  })

  it("works in the current folder when given none", async () => {
    write({ "package.json": `{ "dependencies": { "@auth/express": "0.12.3" } }`, "src/app.ts": `import { ExpressAuth } from "@auth/express"\n` }, dir)
    const { code, stdout } = await run("migrate-from-authjs")
    expect(code).toBe(0)
    expect(stdout).toContain("of .:")
    expect(readFileSync(join(dir, "src/app.ts"), "utf8")).toBe(`import { ExpressAuth } from "gatehouse-auth/express"\n`)
  })

  it("never enters dependencies, version control, build output or symbolic links", async () => {
    const untouched = `import NextAuth from "next-auth"\n`
    const app = write({
      "package.json": "{}",
      "src/auth.ts": untouched,
      ...Object.fromEntries(["node_modules/x/index.js", ".git/hooks/a.js", ".next/server/app.js", ".svelte-kit/output/a.js", "build/index.js", "dist/index.js", ".output/server/index.mjs", ".vinxi/a.js"].map((path) => [path, untouched])),
    })
    mkdirSync(join(dir, "elsewhere"))
    writeFileSync(join(dir, "elsewhere", "linked.ts"), untouched)
    symlinkSync(join(dir, "elsewhere"), join(app, "linked"))
    const { stdout } = await run("migrate-from-authjs", "app")
    expect(stdout.match(/→/g)).toHaveLength(1)
    expect(stdout).toContain("src/auth.ts")
    expect(readFileSync(join(app, "node_modules/x/index.js"), "utf8")).toBe(untouched)
    expect(readFileSync(join(app, "dist/index.js"), "utf8")).toBe(untouched)
    expect(readFileSync(join(dir, "elsewhere", "linked.ts"), "utf8")).toBe(untouched)
  })

  it("rewrites the package.json of every workspace package under the folder", async () => {
    const app = write({
      "package.json": `{ "workspaces": ["apps/*"] }`,
      "apps/web/package.json": `{ "dependencies": { "next-auth": "5.0.0-beta.25" } }`,
      "apps/api/package.json": `{ "dependencies": { "@auth/express": "0.12.3" } }`,
    })
    await run("migrate-from-authjs", "app")
    for (const name of ["web", "api"]) expect(JSON.parse(readFileSync(join(app, "apps", name, "package.json"), "utf8"))).toEqual({ dependencies: { "gatehouse-auth": `^${VERSION}` } })
  })

  it("fails with exit 1 on a file that is not UTF-8, naming it, and writes nothing, so the app is not left half switched", async () => {
    const latin1 = Buffer.concat([Buffer.from('import NextAuth from "next-auth"\n// caf'), Buffer.from([0xe9]), Buffer.from("\n")])
    const manifest = `{ "dependencies": { "next-auth": "5.0.0-beta.25" } }\n`
    const app = write({ "package.json": manifest, "a.ts": latin1, "b.ts": `import NextAuth from "next-auth"\n` })
    const { code, stdout, stderr } = await run("migrate-from-authjs", "app")
    expect(code).toBe(1)
    expect(stderr).toBe("gatehouse: cannot change a.ts: not UTF-8 text; change its imports by hand\n")
    expect(stdout.split("\n")[0]).toBe("Would change 2 specifiers and dependencies in 2 files of app (nothing written: a file below could not be changed; fix it, then run this again):")
    expect(stdout).not.toContain("Now install")
    expect(readFileSync(join(app, "a.ts")).equals(latin1)).toBe(true)
    expect(readFileSync(join(app, "b.ts"), "utf8")).toBe(`import NextAuth from "next-auth"\n`)
    expect(readFileSync(join(app, "package.json"), "utf8")).toBe(manifest)
  })

  it("fails with exit 1 on a package.json that is not JSON, leaving it", async () => {
    const app = write({ "package.json": `{ "dependencies": { "next-auth": "5" }, }` })
    const { code, stderr } = await run("migrate-from-authjs", "app")
    expect(code).toBe(1)
    expect(stderr).toBe("gatehouse: cannot change package.json: package.json is not valid JSON (at line 1)\n")
    expect(readFileSync(join(app, "package.json"), "utf8")).toBe(`{ "dependencies": { "next-auth": "5" }, }`)
  })

  it.each([
    [["missing"], "gatehouse: missing does not exist\n"],
    [["file.txt"], "gatehouse: file.txt is not a folder: name the folder of your app (where its package.json is)\n"],
    [["empty"], "gatehouse: empty has no package.json, so it is not an app: run this in your app's folder, or name that folder\n"],
  ])("refuses %s with one line and exit 1, writing nothing", async (args, message) => {
    writeFileSync(join(dir, "file.txt"), "")
    mkdirSync(join(dir, "empty"))
    writeFileSync(join(dir, "empty", "auth.ts"), `import NextAuth from "next-auth"\n`)
    const { code, stdout, stderr } = await run("migrate-from-authjs", ...args)
    expect(code).toBe(1)
    expect(stdout).toBe("")
    expect(stderr).toBe(message)
    expect(readFileSync(join(dir, "empty", "auth.ts"), "utf8")).toBe(`import NextAuth from "next-auth"\n`)
  })

  it.each([
    [["a", "b"], "unexpected argument 'b': give one folder"],
    [["--force"], "option '--force' is not one of migrate-from-authjs's"],
    [["--file", "x"], "option '--file' is not one of migrate-from-authjs's"],
    [["--dry-run=yes"], "option '--dry-run' takes no value"],
    [["--write"], "unknown option '--write'"],
  ])("rejects %j with its usage, exit 1", async (args, message) => {
    const { code, stdout, stderr } = await run("migrate-from-authjs", ...args)
    expect(code).toBe(1)
    expect(stdout).toBe("")
    expect(stderr).toMatch(new RegExp(`^gatehouse: ${message.replace(/[()[\]]/g, "\\$&")}\n\nUsage: gatehouse migrate-from-authjs \\[dir\\]`))
  })

  it("prints its usage for --help, and is listed in the commands", async () => {
    const { code, stdout } = await run("migrate-from-authjs", "--help")
    expect(code).toBe(0)
    expect(stdout).toMatch(/^Usage: gatehouse migrate-from-authjs \[dir\] \[options\]\n/)
    expect(stdout).toContain("--dry-run")
    expect((await run("--help")).stdout).toContain("migrate-from-authjs")
  })

  it("takes a folder named like an option after --", async () => {
    write({ "package.json": `{ "dependencies": { "next-auth": "5" } }` }, join(dir, "-app"))
    const { code } = await run("migrate-from-authjs", "--", "-app")
    expect(code).toBe(0)
    expect(readFileSync(join(dir, "-app", "package.json"), "utf8")).toContain("gatehouse-auth")
  })
})

describe("the built executable", () => {
  it("prints the same report as the in-process command, and exits 0", async () => {
    write(NEXT_APP)
    const inProcess = await run("migrate-from-authjs", "app", "--dry-run")
    const child = spawnSync(builtCli, ["migrate-from-authjs", "app", "--dry-run"], { cwd: dir, encoding: "utf8" })
    expect(child.status).toBe(0)
    expect(child.stderr).toBe("")
    expect(child.stdout).toBe(inProcess.stdout)
  })

  it("exits 1 with one line, no stack, for a folder that is not an app", async () => {
    const child = spawnSync(process.execPath, [builtCli, "migrate-from-authjs", "nowhere"], { cwd: dir, encoding: "utf8" })
    expect(child.status).toBe(1)
    expect(child.stderr).toBe("gatehouse: nowhere does not exist\n")
  })
})

/**
 * The README's Express quick start, run as a new user runs it: its commands in a new folder (the
 * `npm install` taking the packed package instead of the registry's), its `app.js` as written,
 * started the way it says; the sign-in page must answer 200. So the quick start cannot drift from
 * what works.
 */
import { execSync, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { packedPackage } from "../support/packed-package.js"
import { codeBlocks, commands } from "../support/readme-section.js"

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
    server.on("error", reject)
  })
}

describe("the README's Express quick start", () => {
  const stops: (() => void)[] = []
  afterAll(() => stops.forEach((stop) => stop()))

  it("runs as written in a new folder: its sign-in page answers 200", async () => {
    const [setup, app, run, ...rest] = codeBlocks("Quick start with Express")
    expect([setup?.language, app?.language, run?.language]).toEqual(["sh", "js", "sh"])
    expect(rest.filter((block) => block.language !== "text")).toEqual([])

    const folder = mkdtempSync(join(tmpdir(), "gatehouse-quick-start-"))
    const tarball = packedPackage()
    for (const command of commands(setup!.code)) {
      // The one substitution: the package comes from this build, not from the registry.
      const line = command.replace(/(npm install .*)\bgatehouse-auth\b/, `$1${tarball}`)
      execSync(line, { cwd: folder, stdio: "pipe", env: { ...process.env, npm_config_audit: "false", npm_config_fund: "false" } })
    }
    expect(readFileSync(join(folder, ".env.local"), "utf8")).toMatch(/^AUTH_SECRET=\S{40,}/m)
    writeFileSync(join(folder, "app.js"), app!.code)

    const [start] = commands(run!.code)
    expect(start).toBe("node --env-file=.env.local app.js")
    const port = await freePort()
    const child = spawn(process.execPath, start!.split(" ").slice(1), { cwd: folder, env: { ...process.env, PORT: String(port), NODE_ENV: "development" }, stdio: "pipe" })
    let output = ""
    child.stdout.on("data", (chunk) => (output += chunk))
    child.stderr.on("data", (chunk) => (output += chunk))
    stops.push(() => child.kill())

    const base = `http://localhost:${port}`
    let page: Response | undefined
    for (let tries = 0; tries < 100 && !page; tries++) {
      page = await fetch(`${base}/auth/signin`).catch(() => undefined)
      if (!page) await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(page?.status, output).toBe(200)
    expect(await page!.text()).toContain("Sign in with GitHub")
    expect(await (await fetch(`${base}/`)).json()).toEqual({ user: null, signIn: "/auth/signin" })
    expect((await fetch(`${base}/api/x`)).status).toBe(401)
    expect(existsSync(join(folder, "node_modules", "gatehouse-auth", "dist", "express", "index.js"))).toBe(true)
  }, 180_000)
})

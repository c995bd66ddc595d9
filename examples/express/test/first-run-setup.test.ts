/** What the demo does on first run before anything listens: the secret and the demo password. */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { loadEnvFile } from "../src/env-file.js"
import { hashPassword, verifyPassword } from "../src/password.js"

const dirs: string[] = []
function envPath(): string {
  const dir = mkdtempSync(join(tmpdir(), "gatehouse-demo-env-"))
  dirs.push(dir)
  return join(dir, ".env")
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe("the demo's .env", () => {
  it("gets a new 32-byte AUTH_SECRET on first run, readable only by its owner, and keeps it afterwards", () => {
    const path = envPath()
    const first: Record<string, string | undefined> = {}
    expect(loadEnvFile(path, first)).toEqual({ created: true })
    expect(Buffer.from(first.AUTH_SECRET!, "base64")).toHaveLength(32)
    expect(statSync(path).mode & 0o777).toBe(0o600)

    const second: Record<string, string | undefined> = {}
    expect(loadEnvFile(path, second)).toEqual({ created: false })
    expect(second.AUTH_SECRET).toBe(first.AUTH_SECRET)
  })

  it("adds the secret after what the file already holds, and loads the rest of it too", () => {
    const path = envPath()
    writeFileSync(path, "PORT=4000")
    const env: Record<string, string | undefined> = {}
    loadEnvFile(path, env)
    expect(env.PORT).toBe("4000")
    expect(readFileSync(path, "utf8")).toMatch(/^PORT=4000\nAUTH_SECRET="[^"]{44}"/)
  })

  it("writes nothing when the environment already has a secret, and lets set variables win", () => {
    const path = envPath()
    writeFileSync(path, "PORT=4000\n")
    const env: Record<string, string | undefined> = { AUTH_SECRET: "from-the-shell", PORT: "5000" }
    expect(loadEnvFile(path, env)).toEqual({ created: false })
    expect(readFileSync(path, "utf8")).toBe("PORT=4000\n")
    expect(env).toEqual({ AUTH_SECRET: "from-the-shell", PORT: "5000" })
  })
})

describe("the demo account's password hash", () => {
  it("is scrypt with OWASP's parameters and a random salt, and verifies only the right password", async () => {
    const [one, two] = await Promise.all([hashPassword("correct horse"), hashPassword("correct horse")])
    expect(one).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/)
    expect(one).not.toBe(two)
    expect(await verifyPassword("correct horse", one)).toBe(true)
    expect(await verifyPassword("correct horsE", one)).toBe(false)
    expect(await verifyPassword("correct horse", "md5$abc")).toBe(false)
  })
})

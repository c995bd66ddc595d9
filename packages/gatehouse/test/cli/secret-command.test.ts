import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { main } from "../../src/cli/main.js"

const builtCli = fileURLToPath(new URL("../../dist/cli/index.js", import.meta.url))
const base64Of32Bytes = /^[A-Za-z0-9+/]{43}=$/

let dir: string

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "gatehouse-cli-"))
})

afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

/** `gatehouse …args` in-process, in the temporary directory. */
async function run(...args: string[]) {
  let stdout = ""
  let stderr = ""
  const code = await main(args, { cwd: dir, stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text) })
  return { code, stdout, stderr }
}

function envLocal(): string {
  return readFileSync(join(dir, ".env.local"), "utf8")
}

/** The value of the only `AUTH_SECRET="…"` line of some dotenv text. */
function secretIn(content: string): string {
  const values = [...content.matchAll(/AUTH_SECRET="([^"]*)"/g)].map((match) => match[1]!)
  expect(values).toHaveLength(1)
  return values[0]!
}

function expectStrongSecret(secret: string) {
  expect(secret).toMatch(base64Of32Bytes)
  const bytes = Buffer.from(secret, "base64")
  expect(bytes).toHaveLength(32)
  expect(bytes.toString("base64")).toBe(secret)
}

describe("gatehouse secret --raw", () => {
  it("prints only a base64 secret of 32 random bytes and a newline", async () => {
    const { code, stdout, stderr } = await run("secret", "--raw")
    expect(code).toBe(0)
    expect(stderr).toBe("")
    expect(stdout.endsWith("\n")).toBe(true)
    expectStrongSecret(stdout.slice(0, -1))
  })

  it("prints a different secret on every run", async () => {
    const secrets = new Set(await Promise.all(Array.from({ length: 5 }, async () => (await run("secret", "--raw")).stdout)))
    expect(secrets.size).toBe(5)
  })

  it("writes no file", async () => {
    await run("secret", "--raw")
    expect(readdirSync(dir)).toEqual([])
  })

  it("refuses --file and --force, which would have it write", async () => {
    for (const args of [["--raw", "--file", "x.env"], ["--raw", "--force"]]) {
      const { code, stderr } = await run("secret", ...args)
      expect(code).toBe(1)
      expect(stderr).toMatch(/^gatehouse: --raw writes no file/)
    }
    expect(readdirSync(dir)).toEqual([])
  })
})

describe("gatehouse secret", () => {
  it("creates .env.local with AUTH_SECRET, readable by its owner only", async () => {
    const { code, stdout, stderr } = await run("secret")
    expect(code).toBe(0)
    expect(stderr).toBe("")
    expect(stdout).toBe("Created .env.local with AUTH_SECRET.\n")
    const content = envLocal()
    expect(content).toMatch(/^AUTH_SECRET="[^"]+"\n$/)
    expectStrongSecret(secretIn(content))
    expect(statSync(join(dir, ".env.local")).mode & 0o777).toBe(0o600)
  })

  it("does not print the secret it writes", async () => {
    const { stdout } = await run("secret")
    expect(stdout).not.toContain(secretIn(envLocal()))
  })

  it("writes a different secret into each new file", async () => {
    await run("secret")
    const first = secretIn(envLocal())
    rmSync(join(dir, ".env.local"))
    await run("secret")
    expect(secretIn(envLocal())).not.toBe(first)
  })

  it("appends to an existing .env.local, keeping every byte already in it", async () => {
    // No final newline, and bytes that are not UTF-8: both must come back exactly.
    const before = Buffer.concat([Buffer.from("DATABASE_URL=postgres://db\n# café\nNAME="), Buffer.from([0xff, 0xfe]), Buffer.from("x")])
    writeFileSync(join(dir, ".env.local"), before, { mode: 0o644 })
    const { code, stdout } = await run("secret")
    expect(code).toBe(0)
    expect(stdout).toBe("Added AUTH_SECRET to .env.local.\n")
    const after = readFileSync(join(dir, ".env.local"))
    expect(after.subarray(0, before.length).equals(before)).toBe(true)
    expect(after.subarray(before.length).toString()).toMatch(/^\nAUTH_SECRET="[A-Za-z0-9+/]{43}="\n$/)
    expect(statSync(join(dir, ".env.local")).mode & 0o777).toBe(0o644)
  })

  it("appends with the file's own CRLF line endings", async () => {
    writeFileSync(join(dir, ".env.local"), "A=1\r\n")
    await run("secret")
    expect(envLocal()).toMatch(/^A=1\r\nAUTH_SECRET="[^"]+"\r\n$/)
  })

  it.each([
    ["AUTH_SECRET=old", "a plain assignment"],
    ['AUTH_SECRET="old"', "a quoted value"],
    ["export AUTH_SECRET=old", "export"],
    ["  export\tAUTH_SECRET = old", "whitespace around export and ="],
    ["AUTH_SECRET: old", "dotenv's colon form"],
  ])("refuses to replace an existing %s (%s), exit 1, file unchanged", async (line) => {
    const before = `A=1\n${line}\nB=2\n`
    writeFileSync(join(dir, ".env.local"), before)
    const { code, stdout, stderr } = await run("secret")
    expect(code).toBe(1)
    expect(stdout).toBe("")
    expect(stderr).toBe(".env.local already sets AUTH_SECRET; left unchanged. Pass --force to replace it (this signs every user out).\n")
    expect(envLocal()).toBe(before)
  })

  it("does not take a comment or a longer name for an AUTH_SECRET", async () => {
    const before = "# AUTH_SECRET=commented\nNEXT_AUTH_SECRET=a\nAUTH_SECRET_OLD=b\n"
    writeFileSync(join(dir, ".env.local"), before)
    expect((await run("secret")).code).toBe(0)
    expect(envLocal().startsWith(before)).toBe(true)
    secretIn(envLocal().slice(before.length))
  })
})

describe("gatehouse secret --force", () => {
  it("replaces only the AUTH_SECRET line, keeping indentation, export and line endings", async () => {
    writeFileSync(join(dir, ".env.local"), "A=1\r\n  export AUTH_SECRET=old # rotate yearly\r\nB=2\r\n", { mode: 0o640 })
    const { code, stdout } = await run("secret", "--force")
    expect(code).toBe(0)
    expect(stdout).toMatch(/^Replaced AUTH_SECRET in \.env\.local\. .*every user signs in again\.\n$/)
    const content = envLocal()
    expect(content).toMatch(/^A=1\r\n {2}export AUTH_SECRET="[A-Za-z0-9+/]{43}="\r\nB=2\r\n$/)
    expectStrongSecret(secretIn(content))
    expect(statSync(join(dir, ".env.local")).mode & 0o777).toBe(0o640)
  })

  it("keeps bytes that are not UTF-8 on the other lines", async () => {
    const before = Buffer.concat([Buffer.from("NAME="), Buffer.from([0xe9, 0xff]), Buffer.from("\nAUTH_SECRET=old\n")])
    writeFileSync(join(dir, ".env.local"), before)
    await run("secret", "--force")
    const after = readFileSync(join(dir, ".env.local"))
    expect(after.subarray(0, 8).equals(before.subarray(0, 8))).toBe(true)
    expect(after.subarray(8).toString()).toMatch(/^AUTH_SECRET="[^"]+"\n$/)
  })

  it("replaces a quoted value that spans lines as a whole", async () => {
    writeFileSync(join(dir, ".env.local"), 'AUTH_SECRET="first\nsecond"\nB=2\n')
    await run("secret", "--force")
    expect(envLocal()).toMatch(/^AUTH_SECRET="[A-Za-z0-9+/]{43}="\nB=2\n$/)
  })

  it("writes a new secret, not the old one", async () => {
    await run("secret")
    const first = secretIn(envLocal())
    await run("secret", "--force")
    expect(secretIn(envLocal())).not.toBe(first)
  })

  it("adds the secret as usual when there is none to replace", async () => {
    writeFileSync(join(dir, ".env.local"), "A=1\n")
    expect((await run("secret", "--force")).stdout).toBe("Added AUTH_SECRET to .env.local.\n")
    expect(envLocal()).toMatch(/^A=1\nAUTH_SECRET="[^"]+"\n$/)
  })
})

describe("gatehouse secret --file", () => {
  it("writes to the given file instead of .env.local, in either spelling", async () => {
    mkdirSync(join(dir, "config"))
    expect((await run("secret", "--file", "config/.env")).stdout).toBe(`Created ${join("config", ".env")} with AUTH_SECRET.\n`)
    expect((await run("secret", "--file=.env.production")).code).toBe(0)
    expect(existsSync(join(dir, ".env.local"))).toBe(false)
    for (const file of ["config/.env", ".env.production"]) {
      expectStrongSecret(secretIn(readFileSync(join(dir, file), "utf8")))
      expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600)
    }
  })

  it("takes an absolute path and names it in the notice", async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), "gatehouse-cli-elsewhere-"))
    try {
      const file = join(elsewhere, ".env")
      expect((await run("secret", "--file", file)).stdout).toBe(`Created ${file} with AUTH_SECRET.\n`)
      expectStrongSecret(secretIn(readFileSync(file, "utf8")))
    } finally {
      rmSync(elsewhere, { recursive: true, force: true })
    }
  })

  it("refuses an existing AUTH_SECRET in that file too", async () => {
    writeFileSync(join(dir, ".env"), "AUTH_SECRET=old\n")
    const { code, stderr } = await run("secret", "--file", ".env")
    expect(code).toBe(1)
    expect(stderr).toMatch(/^\.env already sets AUTH_SECRET/)
    expect(readFileSync(join(dir, ".env"), "utf8")).toBe("AUTH_SECRET=old\n")
  })

  it.each([
    ["missing/.env", "its directory does not exist"],
    [".", "it is a directory"],
    ["file/.env", "a part of its path is not a directory"],
  ])("reports an unwritable path (%s) in one line and exits 1", async (file, why) => {
    writeFileSync(join(dir, "file"), "")
    const { code, stdout, stderr } = await run("secret", "--file", file)
    expect(code).toBe(1)
    expect(stdout).toBe("")
    expect(stderr).toBe(`gatehouse: cannot write AUTH_SECRET to ${file}: ${why}\n`)
  })

  it("needs a path", async () => {
    for (const args of [["--file"], ["--file="], ["--file", "--force"]]) {
      const { code, stderr } = await run("secret", ...args)
      expect(code).toBe(1)
      expect(stderr).toMatch(/^gatehouse: option '--file' needs a path\n\nUsage: gatehouse secret/)
    }
    expect(readdirSync(dir)).toEqual([])
  })
})

describe("gatehouse usage", () => {
  it.each([["--help"], ["-h"]])("prints the commands for %s, exit 0", async (flag) => {
    const { code, stdout, stderr } = await run(flag)
    expect(code).toBe(0)
    expect(stderr).toBe("")
    expect(stdout).toMatch(/^Usage: gatehouse <command>/)
    expect(stdout).toContain("secret")
  })

  it("prints the secret options for secret --help, exit 0, writing nothing", async () => {
    const { code, stdout } = await run("secret", "--help")
    expect(code).toBe(0)
    expect(stdout).toMatch(/^Usage: gatehouse secret \[options\]/)
    for (const option of ["--file <path>", "--force", "--raw", "--help"]) expect(stdout).toContain(option)
    expect(readdirSync(dir)).toEqual([])
  })

  it("prints the usage on stderr with no command, exit 1", async () => {
    const { code, stdout, stderr } = await run()
    expect(code).toBe(1)
    expect(stdout).toBe("")
    expect(stderr).toMatch(/^Usage: gatehouse <command>/)
  })

  it("rejects an unknown command with the usage on stderr, exit 1", async () => {
    const { code, stdout, stderr } = await run("generate")
    expect(code).toBe(1)
    expect(stdout).toBe("")
    expect(stderr).toMatch(/^gatehouse: unknown command 'generate'\n\nUsage: gatehouse <command>/)
  })

  it.each([["--bogus"], ["-f"], ["--force=yes"], ["extra"]])("rejects %s with the usage on stderr, exit 1, writing nothing", async (arg) => {
    const { code, stdout, stderr } = await run("secret", arg)
    expect(code).toBe(1)
    expect(stdout).toBe("")
    expect(stderr).toMatch(/^gatehouse: (unknown option|option '--force' takes no value|unexpected argument)/)
    expect(stderr).toContain("Usage: gatehouse secret")
    expect(readdirSync(dir)).toEqual([])
  })

  it("rejects secret options without the command", async () => {
    const { code, stderr } = await run("--raw")
    expect(code).toBe(1)
    expect(stderr).toMatch(/^gatehouse: missing command\n/)
  })
})

describe("the built gatehouse executable", () => {
  it("has been built with its shebang (npm test builds first)", async () => {
    expect(existsSync(builtCli), "run `npm run build` before the tests").toBe(true)
    expect(readFileSync(builtCli, "utf8").split("\n")[0]).toBe("#!/usr/bin/env node")
  })

  it("runs by itself, as npx runs it through node_modules/.bin (executable, with its shebang)", async () => {
    const child = spawnSync(builtCli, ["secret", "--raw"], { cwd: dir, encoding: "utf8" })
    expect(child.error).toBeUndefined()
    expect(child.status).toBe(0)
    expectStrongSecret(child.stdout.trimEnd())
  })

  it("prints a raw secret as a child process, exit 0", async () => {
    const child = spawnSync(process.execPath, [builtCli, "secret", "--raw"], { cwd: dir, encoding: "utf8" })
    expect(child.stderr).toBe("")
    expect(child.status).toBe(0)
    expectStrongSecret(child.stdout.trimEnd())
    expect(readdirSync(dir)).toEqual([])
  })

  it("exits 1 on an unknown option, with no stack trace", async () => {
    const child = spawnSync(process.execPath, [builtCli, "secret", "--bogus"], { cwd: dir, encoding: "utf8" })
    expect(child.status).toBe(1)
    expect(child.stdout).toBe("")
    expect(child.stderr).toMatch(/^gatehouse: unknown option '--bogus'\n/)
    expect(child.stderr).not.toMatch(/\n\s+at /)
  })
})

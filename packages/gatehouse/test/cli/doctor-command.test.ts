import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { appFolder, doctor, doctorJson, strongSecret, writeEnvFiles } from "./doctor-support.js"

const app = appFolder()

describe("gatehouse doctor: exit code and output", () => {
  it("exits 0 with one line per finding and a summary when nothing is a problem", async () => {
    const { code, stdout, stderr } = await doctor(app.dir, { AUTH_SECRET: strongSecret() })
    expect(code).toBe(0)
    expect(stderr).toBe("")
    const lines = stdout.trimEnd().split("\n")
    expect(lines.at(-1)).toMatch(/^No problems/)
    const findings = lines.slice(0, lines.indexOf(""))
    for (const line of findings) expect(line).toMatch(/^(ok|warn|error) +(secret|url|providers|database|store|node|env) +\S/)
    for (const check of ["secret", "url", "providers", "database", "store", "node"]) expect(findings.some((line) => line.split(/ +/)[1] === check)).toBe(true)
  })

  it("exits 1 and counts the problem when a finding is an error", async () => {
    const { code, stdout } = await doctor(app.dir, {})
    expect(code).toBe(1)
    expect(stdout).toMatch(/^error +secret +no secret/m)
    expect(stdout.trimEnd().split("\n").at(-1)).toMatch(/^1 problem, \d+ warnings?\.$/)
  })

  it("exits 0 on warnings alone", async () => {
    const { code, stdout } = await doctor(app.dir, { AUTH_SECRET: "too-short" })
    expect(code).toBe(0)
    expect(stdout).toMatch(/^warn +secret +AUTH_SECRET \(from the environment\): The secret is shorter than 32 characters/m)
    expect(stdout.trimEnd().split("\n").at(-1)).toMatch(/^No problems, 1 warning\.$/)
  })
})

describe("gatehouse doctor --json", () => {
  it("prints one JSON document: ok and the findings, each with check, level and message", async () => {
    const { code, report, stdout } = await doctorJson(app.dir, { AUTH_SECRET: strongSecret() })
    expect(code).toBe(0)
    expect(Object.keys(report).sort()).toEqual(["findings", "ok"])
    expect(report.ok).toBe(true)
    expect(report.findings.length).toBeGreaterThanOrEqual(6)
    for (const finding of report.findings) {
      expect(Object.keys(finding).sort()).toEqual(["check", "level", "message"])
      expect(["ok", "warn", "error"]).toContain(finding.level)
      expect(finding.message).not.toBe("")
    }
    expect(stdout).not.toMatch(/No problems/)
  })

  it("says ok: false exactly when the exit code is 1", async () => {
    const { code, report } = await doctorJson(app.dir, {})
    expect(code).toBe(1)
    expect(report.ok).toBe(false)
    expect(report.findings.filter((finding) => finding.level === "error").map((finding) => finding.check)).toEqual(["secret"])
  })
})

describe("gatehouse doctor reads the environment as the app does", () => {
  it("takes the process's variables over .env.local over .env, and names where each came from", async () => {
    writeEnvFiles(app.dir, { ".env": `AUTH_SECRET=${strongSecret()}\nAUTH_SECRET_1=${strongSecret()}\nAUTH_URL=https://from-env-file.test\n`, ".env.local": `AUTH_SECRET_1=${strongSecret()}\n` })
    const { of } = await doctorJson(app.dir, { AUTH_URL: "https://from-process.test" })
    expect(of("secret")[0]!.message).toBe("AUTH_SECRET_1 (from .env.local) encrypts; AUTH_SECRET (from .env) still decrypts older tokens (rotation)")
    expect(of("url").map((finding) => finding.message).join("\n")).toContain("AUTH_URL (from the environment): auth routes at https://from-process.test/auth/")
  })

  it("reports a dotenv file it cannot read as a warning and checks without it", async () => {
    // A folder where the file should be: unreadable for everyone, root included.
    mkdirSync(join(app.dir, ".env.local"))
    writeEnvFiles(app.dir, { ".env": `AUTH_SECRET=${strongSecret()}\n` })
    const { of, code } = await doctorJson(app.dir, {})
    expect(of("env")).toEqual([{ check: "env", level: "warn", message: ".env.local cannot be read; checked without it" }])
    expect(of("secret")[0]).toMatchObject({ level: "ok", message: "AUTH_SECRET (from .env) encrypts" })
    expect(code).toBe(0)
  })
})

describe("gatehouse doctor never prints a secret or a password", () => {
  it("names the secret variables but never their values, as text or JSON", async () => {
    const secret = strongSecret()
    const rotated = strongSecret()
    const short = "shortbutsecret"
    writeEnvFiles(app.dir, { ".env": `AUTH_SECRET_2=${rotated}\nNEXTAUTH_SECRET=${short}\nAUTH_GITHUB_SECRET=ghsecretvalue123\n` })
    const env = { AUTH_SECRET: secret, AUTH_SECRET_9: "unreadrotation99" }
    const outputs = [await doctor(app.dir, env), await doctor(app.dir, env, "--json")]
    for (const { stdout, stderr } of outputs) {
      expect(stdout).toContain("AUTH_SECRET_2 (from .env)")
      expect(stdout).toContain("NEXTAUTH_SECRET (from .env)")
      for (const value of [secret, rotated, short, "ghsecretvalue123", "unreadrotation99"]) {
        expect(stdout).not.toContain(value)
        expect(stderr).not.toContain(value)
      }
    }
  })
})

describe("gatehouse doctor's options", () => {
  it("refuses options that are not its own, and stray arguments, as usage errors", async () => {
    for (const args of [["--force"], ["--sql"], ["--dry-run"], ["--raw"], ["extra"]]) {
      const { code, stdout, stderr } = await doctor(app.dir, {}, ...args)
      expect(code).toBe(1)
      expect(stdout).toBe("")
      expect(stderr).toMatch(/^gatehouse: (option '--[a-z-]+' is not one of doctor's|unexpected argument 'extra')\n\nUsage: gatehouse doctor/)
    }
  })

  it("refuses --url with --file", async () => {
    const { code, stderr } = await doctor(app.dir, {}, "--url", "postgres://localhost/db", "--file", "app.db")
    expect(code).toBe(1)
    expect(stderr).toMatch(/^gatehouse: give --url or --file, not both\n/)
  })

  it("documents the checks, the exit code and the JSON shape in --help", async () => {
    const { code, stdout } = await doctor(app.dir, {}, "--help")
    expect(code).toBe(0)
    expect(stdout).toMatch(/^Usage: gatehouse doctor/)
    expect(stdout).toContain('{ "ok": boolean, "findings": [{ "check", "level", "message" }] }')
    expect(stdout).toMatch(/Exits 1 when any finding\s+is an error/)
  })
})

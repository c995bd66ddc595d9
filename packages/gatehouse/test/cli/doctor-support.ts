/** Running `gatehouse doctor` in-process in a temporary app folder, and reading its report. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, beforeEach } from "vitest"
import { main } from "../../src/cli/main.js"

/** One finding as `--json` prints it. */
export interface JsonFinding {
  check: string
  level: "ok" | "warn" | "error"
  message: string
}

/** A fresh app folder per test (removed after it); read `dir` inside tests. */
export function appFolder(): { readonly dir: string } {
  let dir = ""
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "gatehouse-doctor-"))
  })
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true })
  })
  return {
    get dir() {
      return dir
    },
  }
}

/** Writes dotenv files into the folder: `{ ".env": "A=1\n" }`. */
export function writeEnvFiles(dir: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content)
}

/** `gatehouse doctor …args` in `dir`, seeing only `env` as its process environment. */
export async function doctor(dir: string, env: Record<string, string>, ...args: string[]) {
  let stdout = ""
  let stderr = ""
  const code = await main(["doctor", ...args], { cwd: dir, env, stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text) })
  return { code, stdout, stderr }
}

/** `gatehouse doctor --json …args`: the exit code and the parsed document. */
export async function doctorJson(dir: string, env: Record<string, string>, ...args: string[]) {
  const { code, stdout, stderr } = await doctor(dir, env, "--json", ...args)
  const report = JSON.parse(stdout) as { ok: boolean; findings: JsonFinding[] }
  return { code, stderr, stdout, report, of: (check: string) => report.findings.filter((finding) => finding.check === check) }
}

/** A secret of the length `npx gatehouse-auth secret` makes (44 characters). */
export function strongSecret(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64")
}

import { spawnSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { checkNode, satisfies } from "../../src/cli/doctor-node.js"
import { appFolder, doctorJson, strongSecret } from "./doctor-support.js"

const app = appFolder()
const builtCli = fileURLToPath(new URL("../../dist/cli/index.js", import.meta.url))
const engines = (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { engines: { node: string } }).engines.node

describe("gatehouse doctor: the Node.js version", () => {
  it("checks this Node.js against gatehouse-auth's own engines.node", async () => {
    const { code, of } = await doctorJson(app.dir, { AUTH_SECRET: strongSecret() })
    expect(code).toBe(0)
    expect(of("node")).toEqual([{ check: "node", level: "ok", message: `Node.js ${process.versions.node} is within ${engines}` }])
  })

  it("is a problem for a version outside the range, and a warning for a range it cannot read", () => {
    expect(checkNode("18.20.4", ">=20.19")).toEqual([{ check: "node", level: "error", message: "Node.js 18.20.4 is outside gatehouse-auth's supported range >=20.19" }])
    expect(checkNode("20.19.0", ">=20.19")).toEqual([{ check: "node", level: "ok", message: "Node.js 20.19.0 is within >=20.19" }])
    expect(checkNode("22.1.0", "latest")[0]).toMatchObject({ level: "warn", message: 'Node.js 22.1.0; cannot read the required range "latest"' })
  })

  it("reads the range forms engines fields use", () => {
    const cases: [string, string, boolean][] = [
      ["20.18.3", ">=20.19", false],
      ["20.19.0", ">=20.19", true],
      ["24.0.0", ">=20.19", true],
      ["21.7.0", "^20.19.0 || >=22.12.0", false],
      ["20.20.1", "^20.19.0 || >=22.12.0", true],
      ["22.12.0", "^20.19.0 || >=22.12.0", true],
      ["22.11.9", ">=22.12 <25", false],
      ["25.0.0", ">=22.12 <25", false],
      ["24.9.1", ">=22.12 <25", true],
      ["20.5.0", "20.x", true],
      ["21.0.0", "20", false],
      ["20.19.9", "~20.19", true],
      ["20.20.0", "~20.19.0", false],
      ["21.0.0", ">20", true],
      ["20.99.0", ">20", false],
      ["20.99.0", "<=20", true],
      ["22.0.0-nightly", ">=20.19", true],
    ]
    for (const [version, range, expected] of cases) expect([version, range, satisfies(version, range)]).toEqual([version, range, expected])
  })

  it("finds engines.node from the built CLI (dist/), as npx runs it", () => {
    expect(existsSync(builtCli), "run `npm run build` before the tests").toBe(true)
    const child = spawnSync(process.execPath, [builtCli, "doctor", "--json"], { cwd: app.dir, encoding: "utf8", env: { PATH: process.env.PATH, AUTH_SECRET: strongSecret() } })
    expect(child.stderr).toBe("")
    expect(child.status).toBe(0)
    const report = JSON.parse(child.stdout) as { findings: { check: string; level: string; message: string }[] }
    expect(report.findings.filter((finding) => finding.check === "node")).toEqual([{ check: "node", level: "ok", message: `Node.js ${process.versions.node} is within ${engines}` }])
  })
})

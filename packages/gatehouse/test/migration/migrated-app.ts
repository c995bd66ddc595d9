/**
 * An Auth.js app of test/fixtures/authjs-apps switched to Gatehouse by the built codemod, as a
 * user would: the fixture copied to a fresh folder, `gatehouse-auth migrate-from-authjs` run on
 * it (twice: the second run must find nothing), and the result put in a folder of its own under
 * the system's temp folder, where it is type-checked, built and started like the example apps
 * (test/support/example-app.ts: one build, kept while its inputs are unchanged). Its node_modules
 * are the matching example app's, installed from that app's lockfile with the packed package and
 * linked in: the same frameworks at the same versions, without a second install.
 */
import { spawnSync } from "node:child_process"
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { borrowExampleModules } from "../support/example-app.js"

const builtCli = fileURLToPath(new URL("../../dist/cli/index.js", import.meta.url))

/** The package's version: the codemod adds `gatehouse-auth@^VERSION`. */
export const VERSION = (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version

/** Where each switched app is built and kept between runs. */
export function migratedAppDir(name: string): string {
  return join(tmpdir(), "gatehouse-authjs-apps", name)
}

/** What the codemod printed, and its exit codes, on the first and the second run. */
export interface Migration {
  status: number | null
  stdout: string
  stderr: string
  second: { status: number | null; stdout: string }
}

/** Build output and installed modules of the kept folder, which the next run may reuse; everything else is replaced. */
const KEPT = new Set(["node_modules", ".next", ".svelte-kit", "build", ".output", ".vinxi", "dist"])

/**
 * Switches the fixture `name` with the built CLI and puts the result in {@link migratedAppDir},
 * with the node_modules of the example app in `hostDir`. Returns what the CLI printed.
 */
export function migrateFixture(name: string, hostDir: string): Migration {
  const fixture = fileURLToPath(new URL(`../fixtures/authjs-apps/${name}/`, import.meta.url))
  const scratch = mkdtempSync(join(tmpdir(), `gatehouse-authjs-${name}-`))
  try {
    cpSync(fixture, scratch, { recursive: true })
    const first = spawnSync(process.execPath, [builtCli, "migrate-from-authjs", scratch], { encoding: "utf8" })
    const second = spawnSync(process.execPath, [builtCli, "migrate-from-authjs", scratch], { encoding: "utf8" })
    const dir = migratedAppDir(name)
    mkdirSync(dir, { recursive: true })
    for (const entry of readdirSync(dir)) if (!KEPT.has(entry)) rmSync(join(dir, entry), { recursive: true, force: true })
    cpSync(scratch, dir, { recursive: true })
    borrowExampleModules({ dir: hostDir }, { dir })
    return { status: first.status, stdout: first.stdout.replaceAll(scratch, "<app>"), stderr: first.stderr, second: { status: second.status, stdout: second.stdout.replaceAll(scratch, "<app>") } }
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

/** The example app a fixture borrows its node_modules from. */
export function exampleDir(name: "next" | "sveltekit" | "solid-start"): string {
  return fileURLToPath(new URL(`../../../../examples/${name}/`, import.meta.url))
}

/**
 * Another version of a package than the workspace's, installed from the registry with npm into a
 * folder of the system's temp directory and kept there between runs, for tests that run Gatehouse
 * against the versions its users have (the peer ranges it declares).
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"

/**
 * The ES module of `name@range` (its `exports["."].import`, else `module`, else `main`),
 * installed first when it is not there yet. The install goes to a fresh folder renamed into place,
 * so a run stopped halfway leaves nothing a later run would take for finished.
 */
export async function importPackageVersion<Module>(name: string, range: string): Promise<Module> {
  const folder = join(tmpdir(), "gatehouse-npm-versions", `${name.replace("/", "+")}@${range}`)
  const manifest = join(folder, "node_modules", name, "package.json")
  if (!existsSync(manifest)) {
    const staging = `${folder}.${process.pid}.${Date.now()}`
    mkdirSync(staging, { recursive: true })
    try {
      execFileSync("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error", "--prefix", staging, `${name}@${range}`], {
        stdio: "pipe",
      })
      rmSync(folder, { recursive: true, force: true })
      renameSync(staging, folder)
    } finally {
      rmSync(staging, { recursive: true, force: true })
    }
  }
  const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { exports?: { ".": { import?: string } }; module?: string; main?: string }
  const entry = pkg.exports?.["."].import ?? pkg.module ?? pkg.main ?? "index.js"
  return (await import(pathToFileURL(join(folder, "node_modules", name, entry)).href)) as Module
}

/** The version of `name` that `importPackageVersion(name, range)` installed. */
export function installedVersion(name: string, range: string): string {
  const manifest = join(tmpdir(), "gatehouse-npm-versions", `${name.replace("/", "+")}@${range}`, "node_modules", name, "package.json")
  return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version
}

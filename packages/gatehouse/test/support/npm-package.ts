/**
 * A version of a package the workspace does not have, installed from the registry with npm into a
 * folder of the system's temp directory and kept there between runs, for tests that run Gatehouse
 * against the versions its users have (the peer ranges it declares), or compare it with Auth.js's.
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"

/**
 * The folder of `name@range`, installed first when it is not there yet, with its dependencies but
 * not its peers (the test brings those). The install goes to a fresh folder renamed into place, so
 * a run stopped halfway leaves nothing a later run would take for finished.
 */
export function installPackageVersion(name: string, range: string): string {
  const folder = join(tmpdir(), "gatehouse-npm-versions", `${name.replace("/", "+")}@${range}`)
  const packageDir = join(folder, "node_modules", name)
  if (!existsSync(join(packageDir, "package.json"))) {
    const staging = `${folder}.${process.pid}.${Date.now()}`
    mkdirSync(staging, { recursive: true })
    try {
      const flags = ["--no-save", "--no-audit", "--no-fund", "--no-package-lock", "--legacy-peer-deps", "--loglevel=error"]
      execFileSync("npm", ["install", ...flags, "--prefix", staging, `${name}@${range}`], { stdio: "pipe" })
      rmSync(folder, { recursive: true, force: true })
      renameSync(staging, folder)
    } finally {
      rmSync(staging, { recursive: true, force: true })
    }
  }
  return packageDir
}

/** The ES module of `name@range` (its `exports["."].import`, else `module`, else `main`), installed by {@link installPackageVersion}. */
export async function importPackageVersion<Module>(name: string, range: string): Promise<Module> {
  const packageDir = installPackageVersion(name, range)
  const pkg = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { exports?: { ".": { import?: string } }; module?: string; main?: string }
  const entry = pkg.exports?.["."].import ?? pkg.module ?? pkg.main ?? "index.js"
  return (await import(pathToFileURL(join(packageDir, entry)).href)) as Module
}

/** The version of `name` that {@link installPackageVersion} installed for `range`. */
export function installedVersion(name: string, range: string): string {
  return (JSON.parse(readFileSync(join(installPackageVersion(name, range), "package.json"), "utf8")) as { version: string }).version
}

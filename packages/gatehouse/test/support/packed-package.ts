/**
 * The package as npm would publish it: `npm pack` of the built package (npm test builds first),
 * for tests that install it into an app of their own, the way a user's app gets it (packed once
 * per test process), and the list of what the tarball holds (`npm pack --dry-run`).
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdtempSync, realpathSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"

/**
 * The package's folder, found through its name (a self-reference from the tests, the workspace's
 * link from the bench), so this module works bundled as well as from its source.
 */
const packageDir = dirname(realpathSync(createRequire(import.meta.url).resolve("gatehouse-auth/package.json")))

let packed: string | undefined

/** The path of the packed `gatehouse-auth` tarball. */
export function packedPackage(): string {
  if (packed && existsSync(packed)) return packed
  if (!existsSync(join(packageDir, "dist", "index.js"))) throw new Error("run `npm run build` before packing the package")
  const destination = mkdtempSync(join(tmpdir(), "gatehouse-pack-"))
  const name = execFileSync("npm", ["pack", "--pack-destination", destination, "--silent"], { cwd: packageDir, encoding: "utf8" }).trim().split("\n").at(-1)!
  packed = join(destination, name)
  return packed
}

/**
 * The paths (relative to the package root, `/`-separated) that `npm pack` puts in the tarball,
 * from `npm pack --dry-run --json`: the same file list, prepack included, without writing one.
 */
export function packedFiles(): string[] {
  if (!existsSync(join(packageDir, "dist", "index.js"))) throw new Error("run `npm run build` before packing the package")
  const output = execFileSync("npm", ["pack", "--dry-run", "--json", "--loglevel=error"], { cwd: packageDir, encoding: "utf8" })
  const [report] = JSON.parse(output) as { files: { path: string }[] }[]
  return report!.files.map((file) => file.path).sort()
}

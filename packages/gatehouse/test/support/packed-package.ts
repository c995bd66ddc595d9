/**
 * The package as npm would publish it: `npm pack` of the built package (npm test builds first),
 * for tests that install it into an app of their own, the way a user's app gets it. Packed once
 * per test process.
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const packageDir = fileURLToPath(new URL("../..", import.meta.url))

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

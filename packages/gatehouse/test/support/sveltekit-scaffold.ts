/**
 * A SvelteKit 2.70 app's folder as `sv create` starts it today (TypeScript, adapter-node): its
 * package.json and lockfile (test/fixtures/sveltekit-scaffold), with `gatehouse-auth` added as
 * `npm install gatehouse-auth` adds it, the package coming from this build. Kept in the OS temp
 * dir between runs with its node_modules. The README's SvelteKit test writes its sources there
 * and builds it; the Auth.js SvelteKit fixture borrows its node_modules (the same Kit 2
 * versions: examples/sveltekit is on Kit 3).
 * @module
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { withBuildLock } from "./example-app.js"
import { packedPackage } from "./packed-package.js"

const template = fileURLToPath(new URL("../fixtures/sveltekit-scaffold/", import.meta.url))

/** The scaffold's folder. */
export const SVELTEKIT_SCAFFOLD_DIR = join(tmpdir(), "gatehouse-sveltekit-scaffold")

/**
 * Writes the scaffold's package.json, lockfile and the packed package beside them, each only when
 * it changed, under the build lock (another test process, of this checkout or another, may be
 * installing from them); returns the folder. Installing is the caller's (`installExampleApp`,
 * `buildExampleApp` or `borrowExampleModules`).
 */
export function sveltekitScaffold(): string {
  const tarball = readFileSync(packedPackage())
  withBuildLock(() => {
    mkdirSync(SVELTEKIT_SCAFFOLD_DIR, { recursive: true })
    const manifest = JSON.parse(readFileSync(join(template, "package.json"), "utf8")) as { dependencies?: Record<string, string> }
    manifest.dependencies = { "gatehouse-auth": "file:gatehouse-auth.tgz" }
    writeIfChanged("package.json", `${JSON.stringify(manifest, null, 2)}\n`)
    writeIfChanged("package-lock.json", readFileSync(join(template, "package-lock.json")))
    writeIfChanged("gatehouse-auth.tgz", tarball)
  })
  return SVELTEKIT_SCAFFOLD_DIR
}

function writeIfChanged(name: string, content: string | Buffer): void {
  const file = join(SVELTEKIT_SCAFFOLD_DIR, name)
  if (existsSync(file) && readFileSync(file).equals(Buffer.from(content))) return
  writeFileSync(file, content)
}

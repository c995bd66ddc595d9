/**
 * The runtimes the runtime job serves the packed package on besides Node (Bun, Deno, workerd
 * through miniflare), and esbuild to bundle the Worker, at the exact versions of
 * test/runtimes/tools/package.json. Installed from the npm registry once per change of those
 * versions into a folder of their own in the OS temp dir (never the workspace: their binaries
 * are platform packages the root lockfile must not pin), kept between runs.
 */
import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { withBuildLock } from "./example-app.js"

const manifest = fileURLToPath(new URL("../runtimes/tools/package.json", import.meta.url))

/** The installed tools: their folder (holding `node_modules`) and their binaries. */
export interface RuntimeTools {
  dir: string
  bun: string
  deno: string
  esbuild: string
  workerd: string
}

/** The tools, installed unless they already are at these versions. */
export function runtimeTools(): RuntimeTools {
  const wanted = createHash("sha256").update(readFileSync(manifest)).digest("hex").slice(0, 16)
  const dir = join(tmpdir(), "gatehouse-runtime-tools", wanted)
  const bin = (name: string) => join(dir, "node_modules", ".bin", name)
  const stamp = join(dir, "node_modules", ".gatehouse-install-stamp")
  if (!existsSync(stamp)) {
    withBuildLock(() => {
      if (existsSync(stamp)) return
      mkdirSync(dir, { recursive: true })
      copyFileSync(manifest, join(dir, "package.json"))
      // Each package's postinstall only links the binary of its platform package (an optional
      // dependency); none downloads anything.
      execFileSync("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, stdio: "pipe" })
      writeFileSync(stamp, wanted)
    })
  }
  return { dir, bun: bin("bun"), deno: bin("deno"), esbuild: bin("esbuild"), workerd: bin("workerd") }
}

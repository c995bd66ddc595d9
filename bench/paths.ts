/**
 * Where things are. The bench is bundled into bench/.build/index.js before it runs, so
 * `import.meta.url` below is that bundle's address, whichever source file this code came from.
 */
import { join } from "node:path"
import { fileURLToPath } from "node:url"

/** The workspace root (node_modules, bench/). */
export const repoRoot = fileURLToPath(new URL("../../", import.meta.url))

/** The cold-start child, built beside the bundle as its own entry point (see the root "bench" script). */
export const coldStartChild = fileURLToPath(new URL("./scenarios/cold-start-child.js", import.meta.url))

/** The express-http scenario's servers, run in a worker thread, built beside the bundle likewise. */
export const expressHttpServer = fileURLToPath(new URL("./scenarios/express-http-server.js", import.meta.url))

/** Committed results of a full run. */
export const resultsDir = fileURLToPath(new URL("../results/", import.meta.url))

/** Where packages installed for the benchmarks alone live (next-auth, which brings Next): bench/package.json. */
export const benchModules = join(repoRoot, "bench", "node_modules")

import { fileURLToPath } from "node:url"

const here = fileURLToPath(new URL(".", import.meta.url))

/** @type {import("next").NextConfig} */
export default {
  // As create-next-app writes it since Next 16.4: request data (the session) is read inside a
  // Suspense boundary, and everything outside one is prerendered into the static shell.
  cacheComponents: true,
  partialPrefetching: true,
  // A native module: loaded by Node at run time, not bundled.
  serverExternalPackages: ["better-sqlite3"],
  // This app has its own node_modules and lockfile inside the Gatehouse repository; without this
  // Next would take the repository's lockfile as the workspace root.
  turbopack: { root: here },
  outputFileTracingRoot: here,
}

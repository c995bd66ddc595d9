import { fileURLToPath } from "node:url"

const here = fileURLToPath(new URL(".", import.meta.url))

/** @type {import("next").NextConfig} */
export default {
  // This app has its own node_modules and lockfile inside the Gatehouse repository; without these
  // Next would take the repository's lockfile as the workspace root.
  outputFileTracingRoot: here,
}

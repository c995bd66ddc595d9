import { defineConfig } from "@solidjs/start/config"

export default defineConfig({
  // src/middleware.ts guards the paths listed there before any page renders.
  middleware: "src/middleware.ts",
  server: { preset: "node-server" },
})

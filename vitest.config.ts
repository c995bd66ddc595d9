import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "examples/*/test/**/*.test.ts"],
    testTimeout: 20_000,
    // One PostgreSQL server for the run: DATABASE_URL, or a throwaway cluster started here.
    globalSetup: ["packages/gatehouse/test/support/global-setup.ts"],
  },
})

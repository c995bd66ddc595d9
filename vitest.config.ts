import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

/**
 * The package's `#primitives` import, as Node would resolve it for the source: a build of the
 * primitives; and `#kit-env` as outside a SvelteKit build (`process.env`).
 */
const primitives = (build: "node" | "web") => ({
  alias: {
    "#primitives": fileURLToPath(new URL(`./packages/gatehouse/src/primitives/${build}.ts`, import.meta.url)),
    "#kit-env": fileURLToPath(new URL("./packages/gatehouse/src/sveltekit/kit-env.ts", import.meta.url)),
  },
})

export default defineConfig({
  test: {
    testTimeout: 20_000,
    // Every hook has a limit (those that build an app or start a server set a longer one of their
    // own), and so has teardown. Vitest has no limit on loading a file: what a file awaits at load
    // (connectedRedis, postgresUrl) bounds itself and fails naming the service (test/support).
    hookTimeout: 30_000,
    teardownTimeout: 30_000,
    // One PostgreSQL server for the run: DATABASE_URL, or a throwaway cluster started here.
    globalSetup: ["packages/gatehouse/test/support/global-setup.ts"],
    projects: [
      {
        extends: true,
        // Tests run on Node, so they get the node:crypto primitives, as an app on Node does.
        resolve: primitives("node"),
        test: { name: "node", include: ["packages/*/test/**/*.test.ts", "examples/*/test/**/*.test.ts"] },
      },
      {
        extends: true,
        // The token and hashing suites again on the Web Crypto primitives, which every other
        // runtime gets: both builds must give the same tokens and the same refusals.
        resolve: primitives("web"),
        test: {
          name: "web-primitives",
          include: [
            "packages/gatehouse/test/jwt/**/*.test.ts",
            "packages/gatehouse/test/encoding/**/*.test.ts",
            "packages/gatehouse/test/security/session-token-tampering.test.ts",
            "packages/gatehouse/test/security/csrf.test.ts",
            "packages/gatehouse/test/primitives/**/*.test.ts",
            // The second factor's sealed secrets, codes and cookies (not its limiter, which needs Redis).
            "packages/gatehouse/test/two-factor/{totp,secret-seal,recovery-codes,email-code,pending,trust-device}.test.ts",
          ],
        },
      },
    ],
  },
})

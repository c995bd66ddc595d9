/**
 * The adapter conformance suite: the behaviour Gatehouse relies on from any {@link Adapter}, as
 * tests you register with your own runner. Gatehouse's memory, SQLite and PostgreSQL adapters
 * pass it, and so do Auth.js's own adapters for the methods they have; run it against yours.
 *
 * Gatehouse's additions to Auth.js's contract ({@link GATEHOUSE_ADDITIONS}: session versions,
 * `hitRateLimit`, `listAccountsByUserId`, …) are optional: the tests of one your adapter does not
 * have are left out, so an Auth.js adapter runs the suite as it is. Every other method is tested
 * whether or not the adapter has it (a missing one fails, named) unless it is in `skip`.
 *
 * Each test stores its own rows (fresh ids, emails and tokens), so the tests are independent of
 * each other and of their order, and a shared or non-empty store is fine. Dates in the fixtures
 * are whole seconds, so stores keeping seconds or microseconds pass. Methods the contract lets
 * return nothing (`deleteUser`, `linkAccount`, `unlinkAccount`, `updateSession`, `deleteSession`,
 * `createVerificationToken`) may do so; when they return a row, it is checked.
 *
 * @example vitest
 * ```ts
 * import { test } from "vitest"
 * import { runAdapterConformance } from "gatehouse-auth/testing/adapter"
 * import { MyAdapter } from "../src/index.js"
 *
 * runAdapterConformance({ adapter: MyAdapter(db), test })
 * ```
 *
 * @example node:test, for an adapter without passkey support
 * ```ts
 * import { test } from "node:test"
 * import { runAdapterConformance } from "gatehouse-auth/testing/adapter"
 *
 * runAdapterConformance({
 *   adapter: MyAdapter(db),
 *   test,
 *   skip: ["createAuthenticator", "getAuthenticator", "listAuthenticatorsByUserId", "updateAuthenticatorCounter"],
 * })
 * ```
 * @module gatehouse-auth/testing/adapter
 */
import assert from "node:assert/strict"
import type { Adapter } from "../adapters/index.js"
import { TWO_FACTOR_METHODS } from "../core/assert-config.js"
import { requireMethods, type ConformanceCase } from "./adapter-conformance/case.js"
import { conformanceCases } from "./adapter-conformance/index.js"
import { ORGANIZATION_METHODS } from "./adapter-conformance/organizations.js"
import { ADMIN_METHODS } from "./adapter-conformance/admin.js"

/** What {@link runAdapterConformance} tests, with which runner, and what it leaves out. */
export interface AdapterConformanceOptions {
  /** The adapter under test. Tests create their own rows (unique ids/emails), so a shared or non-empty store is fine. */
  adapter: Adapter
  /** Registers one test with your runner: vitest's or node:test's `test`, or `(name, fn) => fn()`. */
  test: (name: string, fn: () => Promise<void>) => unknown
  /**
   * Method names whose tests are skipped (e.g. an adapter without authenticators). A test that
   * needs a skipped method to set up or check its result is skipped too. Skipped tests are not
   * registered at all. Gatehouse's additions the adapter lacks are skipped without being named here.
   */
  skip?: readonly (keyof Adapter)[]
  /**
   * `"optional"` (the default): the tests of Gatehouse's additions ({@link GATEHOUSE_ADDITIONS}) the
   * adapter does not have are left out, as an Auth.js adapter has none. `"required"`: they run, and
   * fail naming the method, for an adapter meant to have them all (a missing one would otherwise
   * go unnoticed).
   */
  additions?: "optional" | "required"
}

/**
 * The methods Gatehouse adds to Auth.js's adapter contract. Each is optional: without it Gatehouse
 * refuses the one feature that needs it (naming the method) or falls back, so the suite leaves
 * out the tests of those an adapter does not have.
 *
 * @example
 * ```ts
 * const missing = GATEHOUSE_ADDITIONS.filter((method) => typeof adapter[method] !== "function")
 * ```
 */
export const GATEHOUSE_ADDITIONS: readonly (keyof Adapter)[] = Object.freeze([
  "listAccountsByUserId",
  "updateAccount",
  "deleteSessionsByUserId",
  "createSessionDetails",
  "listSessionsByUserId",
  "deleteSessionsByIdpSid",
  "getSessionVersion",
  "incrementSessionVersion",
  "deleteVerificationTokens",
  "hitRateLimit",
  "deleteAuthenticator",
  "updateSessionAuthentication",
  ...TWO_FACTOR_METHODS,
  ...ORGANIZATION_METHODS,
  // The session context beside a database session.
  "setSessionContext",
  ...ADMIN_METHODS,
] satisfies (keyof Adapter)[])

/**
 * Registers one test per behaviour of the adapter contract, each named `method: behaviour`
 * (e.g. `useVerificationToken: a token works once`). A test of a method the adapter lacks fails,
 * naming the method, unless that method is in `skip` or is one of {@link GATEHOUSE_ADDITIONS}.
 *
 * @example
 * ```ts
 * import { test } from "vitest"
 * import { MemoryAdapter } from "gatehouse-auth/adapters/memory"
 * import { runAdapterConformance } from "gatehouse-auth/testing/adapter"
 *
 * runAdapterConformance({ adapter: MemoryAdapter(), test })
 * ```
 */
export function runAdapterConformance(options: AdapterConformanceOptions): void {
  const { adapter, test } = options
  const skipped = new Set<keyof Adapter>(options.skip ?? [])
  // Absent additions are what every Auth.js adapter looks like, not a mistake to report, unless the
  // adapter is meant to have them.
  if (options.additions !== "required") for (const method of GATEHOUSE_ADDITIONS) if (typeof adapter[method] !== "function") skipped.add(method)
  for (const testCase of conformanceCases) {
    if (testCase.uses.some((method) => skipped.has(method))) continue
    test(testCase.name, () => runCase(adapter, testCase))
  }
}

async function runCase(adapter: Adapter, testCase: ConformanceCase): Promise<void> {
  // Checked up front so the failure names every missing method, not just the first one reached.
  const missing = testCase.uses.filter((method) => typeof adapter[method] !== "function")
  if (missing.length > 0) {
    const list = missing.join(", ")
    throw new assert.AssertionError({
      message: `adapter is missing ${list}, which this test needs: implement it, or pass skip: [${missing.map((m) => `"${m}"`).join(", ")}]`,
    })
  }
  await testCase.run(requireMethods(adapter))
}

/**
 * The adapter conformance suite: the behaviour Gatehouse relies on from any {@link Adapter}, as
 * tests you register with your own runner. Gatehouse's memory, SQLite and PostgreSQL adapters
 * pass it; run it against yours.
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
import { requireMethods, type ConformanceCase } from "./adapter-conformance/case.js"
import { conformanceCases } from "./adapter-conformance/index.js"

/** What {@link runAdapterConformance} tests, with which runner, and what it leaves out. */
export interface AdapterConformanceOptions {
  /** The adapter under test. Tests create their own rows (unique ids/emails), so a shared or non-empty store is fine. */
  adapter: Adapter
  /** Registers one test with your runner: vitest's or node:test's `test`, or `(name, fn) => fn()`. */
  test: (name: string, fn: () => Promise<void>) => unknown
  /**
   * Method names whose tests are skipped (e.g. an adapter without authenticators). A test that
   * needs a skipped method to set up or check its result is skipped too. Skipped tests are not
   * registered at all.
   */
  skip?: readonly (keyof Adapter)[]
}

/**
 * Registers one test per behaviour of the adapter contract, each named `method: behaviour`
 * (e.g. `useVerificationToken: a token works once`). A test of a method the adapter lacks fails,
 * naming the method, unless that method is in `skip`.
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

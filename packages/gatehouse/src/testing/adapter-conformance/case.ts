/**
 * What one conformance test is, and the assertions the tests share.
 * @module
 */
import assert from "node:assert/strict"
import type { Adapter } from "../../adapters/index.js"

/** Every adapter method, present: what a test body calls. */
export type FullAdapter = Required<Adapter>

/** One conformance test. */
export interface ConformanceCase {
  /** `method: behaviour`, e.g. `useVerificationToken: a token works once`. */
  name: string
  /**
   * Every adapter method the test calls, the one under test first. The test is left out when
   * any of them is skipped: it could not run without it.
   */
  uses: readonly (keyof Adapter)[]
  run: (adapter: FullAdapter) => Promise<void>
}

/**
 * The adapter with every method present to the type checker; reading a method the adapter lacks
 * fails the test with the method's name, instead of a bare "is not a function".
 */
export function requireMethods(adapter: Adapter): FullAdapter {
  return new Proxy(adapter, {
    get(target, name) {
      const method: unknown = Reflect.get(target, name)
      if (typeof method !== "function") {
        throw new assert.AssertionError({
          message: `adapter.${String(name)} is missing: implement it, or pass skip: ["${String(name)}"]`,
        })
      }
      // Bound, so that adapters written as classes keep their `this`.
      return method.bind(target)
    },
  }) as FullAdapter
}

/** Whether a value is a Date, also one from another realm (a driver running in a VM context). */
function isDate(value: unknown): value is Date {
  return Object.prototype.toString.call(value) === "[object Date]"
}

/** `actual` is a Date with the same time as `expected`. */
export function assertSameDate(actual: unknown, expected: Date, label: string): void {
  assert.ok(isDate(actual), `${label} must be a Date, got ${describe(actual)}`)
  assert.equal(actual.getTime(), expected.getTime(), `${label} must be ${expected.toISOString()}, got ${actual.toISOString()}`)
}

/**
 * Every field of `expected` is in `actual` with the same value and type; Dates are compared by
 * time. Extra fields in `actual` (an `id` column, say) are fine.
 */
export function assertFields(actual: unknown, expected: object, label: string): void {
  assert.ok(typeof actual === "object" && actual !== null, `${label} must be an object, got ${describe(actual)}`)
  for (const [field, value] of Object.entries(expected)) {
    const got: unknown = Reflect.get(actual, field)
    if (isDate(value)) assertSameDate(got, value, `${label}.${field}`)
    else assert.deepEqual(got, value, `${label}.${field} must be ${describe(value)}, got ${describe(got)}`)
  }
}

/** The value is `null` or `undefined`: what a method that may return nothing returns for "none". */
export function assertNothing(actual: unknown, label: string): void {
  assert.ok(actual === null || actual === undefined, `${label} must be null or undefined, got ${describe(actual)}`)
}

/** A short, type-revealing rendering of a value for failure messages. */
function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value)
  if (isDate(value)) return `Date ${Number.isNaN(value.getTime()) ? "Invalid Date" : value.toISOString()}`
  if (typeof value === "string") return JSON.stringify(value)
  if (typeof value === "object" && value !== null) {
    try {
      return JSON.stringify(value)
    } catch {
      return Object.prototype.toString.call(value)
    }
  }
  return `${typeof value} ${String(value)}`
}

/**
 * `isDate` from `gatehouse-auth/adapters` (Auth.js's helper of the same name): which strings an
 * adapter storing rows as JSON turns back into `Date`s.
 */
import { describe, expect, it } from "vitest"
import { isDate } from "../../src/adapters/index.js"

describe("isDate", () => {
  it("accepts the dates JSON carries: Date#toJSON's form, and with a UTC offset", () => {
    const expires = new Date("2030-01-02T03:04:05.678Z")
    const row = JSON.parse(JSON.stringify({ expires, token: "t" }), (_key, value: unknown) => (isDate(value) ? new Date(value) : value)) as { expires: unknown }
    expect(row.expires).toEqual(expires)
    expect(isDate("2030-01-02T03:04:05+02:00")).toBe(true)
  })

  it("refuses what is not such a date: other strings, impossible dates, non-strings", () => {
    for (const value of ["2030-01-02", "tomorrow", "1700000000", "2030-13-45T00:00:00Z", "", " 2030-01-02T03:04:05Z", 1_700_000_000, new Date(), null, undefined]) {
      expect(isDate(value), String(value)).toBe(false)
    }
  })
})

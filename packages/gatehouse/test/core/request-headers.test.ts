import { describe, expect, it } from "vitest"
import { toHeaders } from "../../src/request-headers.js"

describe("reading request headers from whatever the caller has", () => {
  it("passes a Headers object through untouched", () => {
    const headers = new Headers({ host: "app.test" })
    expect(toHeaders(headers)).toBe(headers)
  })

  it("reads a Node header map in any key case, joining repeated cookie headers with ';'", () => {
    const headers = toHeaders({ Host: "app.test", cookie: ["a=1", "b=2"], "X-Forwarded-For": ["1.1.1.1", "2.2.2.2"] })
    expect(headers.get("host")).toBe("app.test")
    expect(headers.get("cookie")).toBe("a=1; b=2")
    expect(headers.get("x-forwarded-for")).toBe("1.1.1.1, 2.2.2.2")
  })

  it("skips values that are not strings and entries a Headers refuses", () => {
    const headers = toHeaders({ a: 42, b: { x: 1 }, c: null, "bad name": "x", d: "line\nbreak", e: "kept" })
    expect([...headers]).toEqual([["e", "kept"]])
    expect([...toHeaders(undefined)]).toEqual([])
  })
})

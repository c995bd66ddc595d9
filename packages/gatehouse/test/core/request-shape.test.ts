/**
 * The one rule for "is this a script's JSON call" and "did the request name where to go", which
 * the two-factor, step-up, email-code and account routes and the handler's refusals all use.
 */
import { describe, expect, it } from "vitest"
import { isJsonRequest, postedCallbackUrl } from "../../src/core/request-shape.js"

const request = (headers: Record<string, string>) => ({ headers: new Headers(headers) })

describe("isJsonRequest", () => {
  it("is a script's call with a JSON body, or asking for JSON and not HTML", () => {
    expect(isJsonRequest(request({ "content-type": "application/json" }))).toBe(true)
    expect(isJsonRequest(request({ "content-type": "Application/JSON; charset=utf-8", "x-auth-return-redirect": "1" }))).toBe(true)
    // The account helpers' fetch: a form body, asking for JSON.
    expect(isJsonRequest(request({ "content-type": "application/x-www-form-urlencoded", accept: "application/json" }))).toBe(true)
  })

  it("is a browser's form post or navigation otherwise", () => {
    expect(isJsonRequest(request({ "content-type": "application/x-www-form-urlencoded" }))).toBe(false)
    expect(isJsonRequest(request({ "content-type": "application/x-www-form-urlencoded", accept: "text/html,application/xhtml+xml,*/*;q=0.8" }))).toBe(false)
    expect(isJsonRequest(request({ accept: "text/html,application/json;q=0.9" }))).toBe(false)
    expect(isJsonRequest(request({}))).toBe(false)
  })
})

describe("postedCallbackUrl", () => {
  const ctx = (body: Record<string, unknown> | undefined, query: Record<string, string> = {}) => ({ request: { body, query } as never, callbackUrl: "https://app.test/checked" })

  it("is the checked callback URL when the form or the query named one", () => {
    expect(postedCallbackUrl(ctx({ callbackUrl: "https://app.test/settings" }))).toBe("https://app.test/checked")
    expect(postedCallbackUrl(ctx(undefined, { callbackUrl: "/settings" }))).toBe("https://app.test/checked")
  })

  it("is undefined when neither did (an empty or non-string value names nothing)", () => {
    expect(postedCallbackUrl(ctx(undefined))).toBeUndefined()
    expect(postedCallbackUrl(ctx({ callbackUrl: "" }, { callbackUrl: "" }))).toBeUndefined()
    expect(postedCallbackUrl(ctx({ callbackUrl: 42 }))).toBeUndefined()
  })
})

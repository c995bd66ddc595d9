import { describe, expect, it } from "vitest"
import { privateCacheControl } from "../../src/framework/index.js"

describe("the Cache-Control of a response carrying a session cookie", () => {
  it("is private, keeping the app's directives for the browser and dropping public", () => {
    expect(privateCacheControl(undefined)).toBe("private")
    expect(privateCacheControl("")).toBe("private")
    expect(privateCacheControl("public, max-age=60")).toBe("private, max-age=60")
    expect(privateCacheControl("PUBLIC,s-maxage=600 ,  max-age=0")).toBe("private, s-maxage=600, max-age=0")
  })

  it("is left as it is when already private or no-store", () => {
    expect(privateCacheControl("private, max-age=60")).toBeUndefined()
    expect(privateCacheControl("no-store")).toBeUndefined()
    expect(privateCacheControl("max-age=0, No-Store")).toBeUndefined()
  })
})

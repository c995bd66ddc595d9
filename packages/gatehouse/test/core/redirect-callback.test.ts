import { describe, expect, it } from "vitest"
import { sameOriginRedirect } from "../../src/core/callback-url.js"

const baseUrl = "https://app.test"

describe("the default redirect callback", () => {
  it.each([
    ["/dashboard", "https://app.test/dashboard"],
    ["/a/b?c=d#e", "https://app.test/a/b?c=d#e"],
    ["https://app.test/x", "https://app.test/x"],
    ["HTTPS://APP.TEST/x", "HTTPS://APP.TEST/x"],
    ["https://app.test", "https://app.test"],
    ["/caf\u00e9", "https://app.test/caf%C3%A9"],
    ["/a\nb", "https://app.test/ab"],
  ])("keeps same-origin %j as %s", (url, expected) => {
    expect(sameOriginRedirect({ url, baseUrl })).toBe(expected)
  })

  it.each([
    "https://evil.test/",
    "//evil.test",
    "/\\evil.test",
    "\\\\evil.test",
    "/\t/evil.test",
    "/%2F/evil.test/../..//evil.test",
    "javascript:alert(document.cookie)",
    "JaVaScRiPt:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "https://app.test.evil.test/",
    "https://app.test@evil.test/",
    "http://app.test/",
    "https://app.test:8443/",
    "http://[::1",
    "https:evil.test",
    "HTTPS:/evil.test",
    "dashboard",
  ])("sends %s back to the origin", (url) => {
    expect(sameOriginRedirect({ url, baseUrl })).toBe(baseUrl)
  })
})

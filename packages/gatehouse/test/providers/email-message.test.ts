import { describe, expect, it } from "vitest"
import { emailMessage, emailProvider, verificationEmail } from "../../src/providers/email-message.js"
import type { EmailConfig } from "../../src/types.js"

const url = "https://app.test/auth/callback/resend?callbackUrl=https%3A%2F%2Fapp.test%2F&token=abc&email=ada%40example.test"

/** The `<a>` tag of the button. */
function button(html: string): string {
  const match = /<a href="[^"]*"[\s\S]*?<\/a>/.exec(html)
  if (!match) throw new Error("no button")
  return match[0]
}

describe("emailMessage", () => {
  it("has Auth.js's subject and plain-text body", () => {
    const message = emailMessage({ url, host: "app.test" })
    expect(message.subject).toBe("Sign in to app.test")
    expect(message.text).toBe(`Sign in to app.test\n${url}\n\n`)
  })

  it("links the button to the URL, escaped for the attribute", () => {
    const { html } = emailMessage({ url, host: "app.test" })
    expect(html).toContain(`<a href="${url.replace(/&/g, "&amp;")}"`)
    expect(button(html)).toMatch(/>Sign\s+in<\/a>$/)
    expect(html).toContain("If you did not request this email you can safely ignore it.")
  })

  it("writes the host's dots as zero-width space + dot, so mail clients do not link it", () => {
    const { html } = emailMessage({ url, host: "sub.app.test" })
    expect(html).toContain("Sign in to <strong>sub&#8203;.app&#8203;.test</strong>")
    expect(html).not.toContain("sub.app.test")
  })

  it("escapes a hostile host and URL before inserting the zero-width spaces", () => {
    const host = `evil.test"><script>alert('x')</script>`
    const hostileUrl = `https://evil.test/"><script>alert("x")</script>?a=1&b='2'`
    const { html, subject, text } = emailMessage({ url: hostileUrl, host })
    expect(html).not.toContain("<script>")
    expect(html).not.toMatch(/"><script/)
    expect(html).toContain("evil&#8203;.test&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;")
    // Only the host's dots get zero-width spaces, not the link's.
    expect(html).toContain('href="https://evil.test/&quot;&gt;')
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;?a=1&amp;b=&#39;2&#39;")
    // The entities made by escaping are not broken up by the zero-width spaces.
    expect(html).not.toMatch(/&[a-z]*&#8203;/)
    // Subject and text are plain text: not HTML-escaped.
    expect(subject).toBe(`Sign in to ${host}`)
    expect(text).toBe(`Sign in to ${host}\n${hostileUrl}\n\n`)
  })

  it("colours the button with the default brand colour and white text", () => {
    const { html } = emailMessage({ url, host: "app.test" })
    expect(html).toContain('bgcolor="#346df1"')
    expect(button(html)).toContain("color: #fff;")
    expect(button(html)).toContain("border: 1px solid #346df1;")
  })

  it("takes brandColor and buttonText from the theme", () => {
    const { html } = emailMessage({ url, host: "app.test", theme: { brandColor: "#ff0000", buttonText: "black" } })
    expect(html).toContain('bgcolor="#ff0000"')
    expect(button(html)).toContain("color: black;")
    expect(button(html)).toContain("border: 1px solid #ff0000;")
    const rgb = emailMessage({ url, host: "app.test", theme: { brandColor: "rgb(10, 20, 30)" } }).html
    expect(rgb).toContain('bgcolor="rgb(10, 20, 30)"')
  })

  it.each([
    ['red" onmouseover="alert(1)'],
    ["#fff; background: url(https://evil.test/x)"],
    ["expression(alert(1))"],
    ["#12345z"],
    [""],
    [42],
  ])("refuses the theme colour %j and uses the default", (bad) => {
    const theme = { brandColor: bad, buttonText: bad } as unknown as { brandColor: string; buttonText: string }
    const { html } = emailMessage({ url, host: "app.test", theme })
    expect(html).toContain('bgcolor="#346df1"')
    expect(button(html)).toContain("color: #fff;")
    expect(html).not.toContain("evil.test")
    expect(html).not.toContain("onmouseover")
    expect(html).not.toContain("expression(")
  })

  it("verificationEmail takes the host from the link", () => {
    expect(verificationEmail({ url: "https://app.test:8443/auth/callback/x?token=1", theme: {} }).subject).toBe("Sign in to app.test:8443")
  })
})

describe("emailProvider", () => {
  const send = async () => {}

  it("lays options over the defaults, keeps type email and a day-long link", () => {
    const provider = emailProvider({ id: "x", name: "X", sendVerificationRequest: send }, { name: "Mine", from: "a@b.test", type: "oauth" })
    expect(provider).toMatchObject({ id: "x", name: "Mine", type: "email", from: "a@b.test", maxAge: 86400 })
    expect(provider.sendVerificationRequest).toBe(send)
  })

  it("skips options left undefined, as the environment passes them", () => {
    const options = { id: undefined, apiKey: undefined, clientId: undefined, maxAge: undefined }
    const provider: EmailConfig = emailProvider({ id: "x", name: "X", sendVerificationRequest: send }, options)
    expect(provider.id).toBe("x")
    expect(provider.maxAge).toBe(86400)
    expect(Object.entries(provider).filter(([, value]) => value === undefined)).toEqual([])
  })
})

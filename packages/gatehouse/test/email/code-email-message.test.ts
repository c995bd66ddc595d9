/**
 * What a one-time code email says: the built-in message shows the code and no sign-in link, and
 * the template-based Loops provider is given the code as a data variable. The code sign-in flow
 * itself is in sign-in-code.test.ts.
 */
import { describe, expect, it, vi } from "vitest"
import { emailMessage } from "../../src/providers/email-message.js"
import { Loops } from "../../src/providers/loops.js"
import { Nodemailer } from "../../src/providers/nodemailer.js"
import type { EmailConfig } from "../../src/providers/types.js"
import type { Theme } from "../../src/theme.js"

const PAGE = "https://app.test/auth/verify-request?provider=loops&type=email&email=ada%40app.test"

describe("the email of a one-time code", () => {
  it("says the code, on a line of its own, and carries no link or button", () => {
    const message = emailMessage({ url: PAGE, host: "app.test", code: "042917" })
    expect(message.subject).toBe("Your sign-in code for app.test")
    expect(message.text.split("\n")).toContain("042917")
    expect(message.html).toContain("042917")
    for (const body of [message.text, message.html]) expect(body).not.toContain("https://")
    expect(message.html).not.toContain("<a ")
  })

  it("is given to Loops' transactional email as the `code` data variable", async () => {
    const fetch = vi.fn((_url: string, _init: RequestInit) => Promise.resolve(new Response("{}")))
    const provider = Loops({ transactionalId: "tx", apiKey: "key", fetch: fetch as unknown as typeof globalThis.fetch, code: true })
    expect(provider.maxAge).toBe(600)
    await provider.sendVerificationRequest({ identifier: "ada@app.test", token: "042917", code: "042917", url: PAGE, expires: new Date(), provider, theme: {} as Theme, request: new Request(PAGE) })
    const body = JSON.parse(String(fetch.mock.calls[0]![1].body)) as { dataVariables: Record<string, string> }
    expect(body.dataVariables).toEqual({ url: PAGE, code: "042917" })
  })

  it("defaults a code provider's maxAge to 10 minutes, a link provider's to a day", () => {
    expect((Nodemailer({ code: true }) as EmailConfig).maxAge).toBe(600)
    expect((Nodemailer({}) as EmailConfig).maxAge).toBe(86_400)
  })
})

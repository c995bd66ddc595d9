import { afterAll, beforeAll, describe, expect, it } from "vitest"
import nodemailer from "nodemailer"
import { startSmtpServer, type TestSmtpServer } from "./smtp-server.js"

describe("test SMTP server", () => {
  let smtp: TestSmtpServer
  beforeAll(async () => {
    smtp = await startSmtpServer()
  })
  afterAll(() => smtp.stop())

  it("listens on loopback and gives a Nodemailer server URL", () => {
    expect(smtp.host).toBe("127.0.0.1")
    expect(smtp.port).toBeGreaterThan(0)
    expect(smtp.smtpUrl).toBe(`smtp://127.0.0.1:${smtp.port}`)
  })

  it("receives a message sent with Nodemailer and parses it", async () => {
    const transport = nodemailer.createTransport(smtp.smtpUrl)
    const waiting = smtp.waitForMessage((message) => message.subject === "Hello")
    await transport.sendMail({
      from: "Sender <sender@example.test>",
      to: "ada@example.test",
      subject: "Hello",
      text: "Plain body ünïcode\n",
      html: "<p>HTML body</p>",
    })
    const message = await waiting
    expect(message.to).toEqual(["ada@example.test"])
    expect(message.from).toBe("sender@example.test")
    expect(message.fromName).toBe("Sender")
    expect(message.text.trim()).toBe("Plain body ünïcode")
    expect(message.html).toBe("<p>HTML body</p>")
    expect(message.raw).toMatch(/^Subject: Hello\r?$/m)
    expect(message.envelope).toEqual({ from: "sender@example.test", to: ["ada@example.test"] })
    expect(smtp.messages).toContain(message)
    // Already received: found at once.
    await expect(smtp.waitForMessage((m) => m.subject === "Hello", 10)).resolves.toBe(message)
  })

  it("does not offer STARTTLS, so Nodemailer sends in the clear without trying it", async () => {
    const transport = nodemailer.createTransport({ host: smtp.host, port: smtp.port, secure: false, requireTLS: true })
    await expect(transport.sendMail({ from: "a@example.test", to: "b@example.test", subject: "TLS", text: "x" })).rejects.toThrow()
  })

  it("refuses the next RCPT TO or DATA with a 5xx, once", async () => {
    const transport = nodemailer.createTransport(smtp.smtpUrl)
    const mail = { from: "a@example.test", to: "b@example.test", subject: "Refused", text: "x" }
    smtp.rejectNext("rcpt")
    await expect(transport.sendMail(mail)).rejects.toMatchObject({ responseCode: 550 })
    smtp.rejectNext("data", 554, "5.7.1 No thanks")
    await expect(transport.sendMail(mail)).rejects.toThrow(/No thanks/)
    expect(smtp.messages.filter((m) => m.subject === "Refused")).toEqual([])
    await transport.sendMail(mail)
    await expect(smtp.waitForMessage((m) => m.subject === "Refused", 2000)).resolves.toBeDefined()
    expect(() => smtp.rejectNext("rcpt", 450)).toThrow(RangeError)
  })

  it("times out waiting for a message that never comes", async () => {
    await expect(smtp.waitForMessage((m) => m.subject === "never", 50)).rejects.toThrow(/within 50 ms/)
  })
})

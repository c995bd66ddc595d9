// @ts-check
/**
 * Where the demo's sign-in emails go: a real SMTP server on 127.0.0.1 that keeps every message in
 * memory for the inbox page. Nothing leaves this machine.
 */
import { simpleParser } from "mailparser"
import { SMTPServer } from "smtp-server"

/**
 * @typedef {{ to: string, subject: string, text: string, receivedAt: Date }} Mail
 * @typedef {{ url: string, messages: Mail[], close(): Promise<void> }} MailCapture
 */

/** @returns {Promise<MailCapture>} */
export async function startMailCapture() {
  /** @type {Mail[]} */
  const messages = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    banner: "Gatehouse demo mail capture",
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          const to = session.envelope.rcptTo.map((rcpt) => rcpt.address).join(", ")
          messages.unshift({ to, subject: mail.subject ?? "", text: mail.text ?? "", receivedAt: new Date() })
          messages.length = Math.min(messages.length, 50)
          callback()
        },
        (error) => callback(error),
      )
    },
  })
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)))
  const address = /** @type {import("node:net").AddressInfo} */ (server.server.address())
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    messages,
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  }
}

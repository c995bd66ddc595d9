/**
 * A real SMTP server (`smtp-server`) inside the test process, on 127.0.0.1 and a free port, that
 * keeps every message it accepts, parsed with `mailparser`. Plain SMTP only: STARTTLS is not
 * offered (so Nodemailer never tries it) and authentication is optional.
 *
 * `smtpUrl` is a Nodemailer `server` value. `rejectNext("rcpt" | "data")` makes the next RCPT TO
 * or DATA fail with a 5xx reply, for the error paths.
 */
import type { AddressInfo } from "node:net"
import { simpleParser, type AddressObject } from "mailparser"
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server"

/** One accepted message. */
export interface CapturedMessage {
  /** Addresses of the `To` header. */
  to: string[]
  /** Address of the `From` header. */
  from: string
  /** Display name of the `From` header (`""` when there is none). */
  fromName: string
  subject: string
  /** The plain-text part (`""` when there is none). */
  text: string
  /** The HTML part (`""` when there is none). */
  html: string
  /** The message exactly as received after DATA. */
  raw: string
  /** The SMTP envelope: MAIL FROM and RCPT TO addresses. */
  envelope: { from: string; to: string[] }
}

/** Which SMTP command `rejectNext` makes fail. */
export type SmtpStage = "rcpt" | "data"

export interface TestSmtpServer {
  host: string
  port: number
  /** `smtp://127.0.0.1:<port>`, usable as Nodemailer's `server`. */
  smtpUrl: string
  /** Every accepted message, oldest first. */
  messages: CapturedMessage[]
  /**
   * The first message (already received or still to come) that matches `predicate` (any message
   * without one). Rejects after `timeoutMs` (default 5000).
   */
  waitForMessage(predicate?: (message: CapturedMessage) => boolean, timeoutMs?: number): Promise<CapturedMessage>
  /** Makes the next RCPT TO or DATA fail with `code` (default 550) and `message`. Once. */
  rejectNext(stage: SmtpStage, code?: number, message?: string): void
  stop(): Promise<void>
}

interface Waiter {
  predicate: (message: CapturedMessage) => boolean
  resolve: (message: CapturedMessage) => void
}

interface Rejection {
  code: number
  message: string
}

function smtpError(rejection: Rejection): Error & { responseCode: number } {
  return Object.assign(new Error(rejection.message), { responseCode: rejection.code })
}

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  return [field ?? []].flat().flatMap((object) => object.value.map((entry) => entry.address ?? ""))
}

async function readStream(stream: SMTPServerDataStream): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/**
 * Starts the server.
 *
 * @example
 * ```ts
 * const smtp = await startSmtpServer()
 * const provider = Nodemailer({ server: smtp.smtpUrl, from: "auth@app.test" })
 * // … sign in …
 * const message = await smtp.waitForMessage((m) => m.to.includes("ada@example.test"))
 * await smtp.stop()
 * ```
 */
export async function startSmtpServer(): Promise<TestSmtpServer> {
  const messages: CapturedMessage[] = []
  const waiters = new Set<Waiter>()
  const rejections: Partial<Record<SmtpStage, Rejection>> = {}

  function take(stage: SmtpStage): Rejection | undefined {
    const rejection = rejections[stage]
    delete rejections[stage]
    return rejection
  }

  async function capture(raw: Buffer, session: SMTPServerSession): Promise<void> {
    const parsed = await simpleParser(raw)
    const sender = parsed.from?.value[0]
    const message: CapturedMessage = {
      to: addresses(parsed.to),
      from: sender?.address ?? "",
      fromName: sender?.name ?? "",
      subject: parsed.subject ?? "",
      text: parsed.text ?? "",
      html: typeof parsed.html === "string" ? parsed.html : "",
      raw: raw.toString("utf8"),
      envelope: {
        from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
        to: session.envelope.rcptTo.map((entry) => entry.address),
      },
    }
    messages.push(message)
    for (const waiter of waiters) {
      if (waiter.predicate(message)) {
        waiters.delete(waiter)
        waiter.resolve(message)
      }
    }
  }

  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    disableReverseLookup: true,
    logger: false,
    closeTimeout: 1000,
    onRcptTo(_address, _session, callback) {
      const rejection = take("rcpt")
      callback(rejection ? smtpError(rejection) : null)
    },
    onData(stream, session, callback) {
      // The whole message is read before answering, even when it is refused.
      const handle = async (): Promise<void> => {
        const raw = await readStream(stream)
        const rejection = take("data")
        if (rejection) throw smtpError(rejection)
        await capture(raw, session)
      }
      handle().then(
        () => callback(null),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      )
    },
  })

  const host = "127.0.0.1"
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject)
    server.listen(0, host, () => {
      server.server.off("error", reject)
      resolve()
    })
  })
  const { port } = server.server.address() as AddressInfo

  return {
    host,
    port,
    smtpUrl: `smtp://${host}:${port}`,
    messages,
    waitForMessage(predicate = () => true, timeoutMs = 5000) {
      const found = messages.find(predicate)
      if (found) return Promise.resolve(found)
      return new Promise<CapturedMessage>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter)
          reject(new Error(`No matching email within ${timeoutMs} ms (${messages.length} received)`))
        }, timeoutMs)
        const waiter: Waiter = {
          predicate,
          resolve: (message) => {
            clearTimeout(timer)
            resolve(message)
          },
        }
        waiters.add(waiter)
      })
    },
    rejectNext(stage, code = 550, message = stage === "rcpt" ? "5.1.1 Recipient rejected" : "5.7.1 Message rejected") {
      if (code < 500 || code > 599) throw new RangeError("rejectNext takes a 5xx code")
      rejections[stage] = { code, message }
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

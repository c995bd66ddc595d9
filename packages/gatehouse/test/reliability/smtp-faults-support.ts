/**
 * An SMTP server that can be told to misbehave in the ways real ones do: refuse the connection,
 * drop it (at once, halfway through the message, or after taking the whole message but before
 * saying so), refuse the login, refuse the recipient for good or for now, refuse the message.
 * A real server (`smtp-server`) on 127.0.0.1 and a free port, requiring a login (plain text is
 * allowed, since nothing here has TLS); the faults are applied in its hooks.
 */
import type { Socket } from "node:net"
import type { AddressInfo } from "node:net"
import { simpleParser } from "mailparser"
import { SMTPServer, type SMTPServerDataStream } from "smtp-server"

export type SmtpFault =
  | "none"
  /** 554 instead of the greeting. */
  | "refuse-connection"
  /** The TCP connection is closed before the greeting. */
  | "drop-at-connect"
  /** 535 for every login, the right one included (the server's password store is down). */
  | "refuse-login"
  /** 550 for the recipient. */
  | "reject-recipient"
  /** 451 for the recipient: try again later (greylisting). */
  | "defer-recipient"
  /** 554 once the message has been sent. */
  | "reject-message"
  /** The connection is closed while the message is being sent. */
  | "drop-during-message"
  /** The whole message is taken (and kept), then the connection closed before the reply. */
  | "drop-after-message"

export interface FaultySmtpServer {
  /** A Nodemailer `server` URL with the right login. */
  url: string
  /** The login's password, which no log may contain. */
  password: string
  /** Applies from the next connection on. */
  fault: SmtpFault
  /** Messages kept: each one's recipients and its plain-text body. */
  messages: { to: string[]; text: string }[]
  stop(): Promise<void>
}

function reply(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code })
}

async function drain(stream: SMTPServerDataStream): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

export async function startFaultySmtpServer(): Promise<FaultySmtpServer> {
  const password = `smtp-${crypto.randomUUID()}`
  // smtp-server does not hand its hooks the socket; it is found again by the client's port.
  const sockets = new Map<number, Socket>()
  const drop = (port: number) => sockets.get(port)?.destroy()

  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    authMethods: ["PLAIN", "LOGIN"],
    allowInsecureAuth: true,
    disableReverseLookup: true,
    logger: false,
    closeTimeout: 1000,
    onConnect(session, callback) {
      if (state.fault === "drop-at-connect") return drop(session.remotePort)
      callback(state.fault === "refuse-connection" ? reply(554, "5.3.2 Service not available") : null)
    },
    onAuth(auth, _session, callback) {
      const valid = auth.username === "gatehouse" && auth.password === password && state.fault !== "refuse-login"
      callback(valid ? null : reply(535, "5.7.8 Authentication credentials invalid"), valid ? { user: auth.username } : undefined)
    },
    onRcptTo(_address, _session, callback) {
      if (state.fault === "reject-recipient") return callback(reply(550, "5.1.1 No such user here"))
      callback(state.fault === "defer-recipient" ? reply(451, "4.7.1 Greylisted, try again later") : null)
    },
    onData(stream, session, callback) {
      if (state.fault === "drop-during-message") {
        stream.once("data", () => drop(session.remotePort))
        stream.resume()
        return
      }
      drain(stream).then(async (raw) => {
        if (state.fault === "reject-message") return callback(reply(554, "5.7.1 Message rejected as spam"))
        const parsed = await simpleParser(raw)
        state.messages.push({ to: session.envelope.rcptTo.map((entry) => entry.address), text: parsed.text ?? "" })
        if (state.fault === "drop-after-message") return drop(session.remotePort)
        callback(null)
      }, callback)
    },
  })
  server.server.on("connection", (socket: Socket) => {
    const port = socket.remotePort!
    sockets.set(port, socket)
    socket.once("close", () => sockets.delete(port))
  })
  // A dropped connection is what these tests ask for, not a failure of the server.
  server.on("error", () => {})

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.server.address() as AddressInfo
  const state: FaultySmtpServer = {
    url: `smtp://gatehouse:${password}@127.0.0.1:${port}`,
    password,
    fault: "none",
    messages: [],
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets.values()) socket.destroy()
        server.close(() => resolve())
      }),
  }
  return state
}

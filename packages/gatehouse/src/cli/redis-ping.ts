/**
 * One RESP `PING` to a Redis server over `node:net` or `node:tls` (after `AUTH` when the URL
 * carries credentials), with a deadline: enough to tell that a store answers without a Redis
 * client library.
 * @module
 */
import { connect as connectTcp, type Socket } from "node:net"
import { connect as connectTls } from "node:tls"
import { firstLine } from "./redaction.js"

/** Why a Redis server did not answer `PING`, as one line for people (never the password). */
export class RedisPingError extends Error {
  override name = "RedisPingError"
}

/** A Redis URL as the ping needs it. */
export interface RedisEndpoint {
  tls: boolean
  host: string
  port: number
  username: string | undefined
  password: string | undefined
}

/**
 * The endpoint of a `redis://` or `rediss://` URL (`[user[:password]@]host[:port][/db]`, port 6379
 * by default).
 * @throws {@link RedisPingError} for anything else.
 */
export function redisEndpoint(url: string): RedisEndpoint {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new RedisPingError("not a URL")
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:") {
    throw new RedisPingError(`the scheme is ${JSON.stringify(parsed.protocol.slice(0, -1))}, not redis or rediss`)
  }
  if (parsed.hostname === "") throw new RedisPingError("the URL has no host")
  return {
    tls: parsed.protocol === "rediss:",
    host: parsed.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: parsed.port === "" ? 6379 : Number(parsed.port),
    username: parsed.username === "" ? undefined : decodeURIComponent(parsed.username),
    password: parsed.password === "" ? undefined : decodeURIComponent(parsed.password),
  }
}

/** The URL as it may be shown: scheme, host and port, without credentials or database. */
export function redisLocation(endpoint: RedisEndpoint): string {
  const host = endpoint.host.includes(":") ? `[${endpoint.host}]` : endpoint.host
  return `${endpoint.tls ? "rediss" : "redis"}://${host}:${endpoint.port}`
}

/**
 * Resolves when the server answers `PING` with `PONG` within `timeoutMs` (connecting included).
 * @throws {@link RedisPingError} naming why not: refused, no answer in time, a TLS failure, or the
 * server's own error reply (`NOAUTH`, `WRONGPASS`).
 */
export function pingRedis(endpoint: RedisEndpoint, timeoutMs: number): Promise<void> {
  // AUTH with a password only is Redis 5's form, and what `redis://:password@host` means.
  const auth = endpoint.password === undefined ? [] : [["AUTH", ...(endpoint.username === undefined ? [] : [endpoint.username]), endpoint.password]]
  const commands = [...auth, ["PING"]]
  return new Promise<void>((resolve, reject) => {
    const socket: Socket = endpoint.tls
      ? connectTls({ host: endpoint.host, port: endpoint.port, servername: /^[\d.:]+$/.test(endpoint.host) ? undefined : endpoint.host })
      : connectTcp({ host: endpoint.host, port: endpoint.port })
    let settled = false
    const finish = (error?: RedisPingError) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      if (error) reject(error)
      else resolve()
    }
    const timer = setTimeout(() => finish(new RedisPingError(`no answer within ${timeoutMs / 1000} s`)), timeoutMs)
    socket.setNoDelay(true)
    socket.once(endpoint.tls ? "secureConnect" : "connect", () => socket.write(commands.map(encodeCommand).join("")))
    socket.on("error", (error: NodeJS.ErrnoException) => finish(new RedisPingError(socketReason(error))))
    socket.on("close", () => finish(new RedisPingError("the server closed the connection without answering")))
    let buffered = ""
    let replies = 0
    socket.setEncoding("utf8")
    socket.on("data", (chunk: string) => {
      buffered += chunk
      // AUTH and PING answer with one simple line each (`+OK`, `+PONG`) or an error line (`-ERR …`).
      for (let end = buffered.indexOf("\r\n"); end !== -1; end = buffered.indexOf("\r\n")) {
        const line = buffered.slice(0, end)
        buffered = buffered.slice(end + 2)
        replies++
        if (line.startsWith("-")) return finish(new RedisPingError(`the server answered: ${line.slice(1)}`))
        if (replies === commands.length) return finish(line === "+PONG" ? undefined : new RedisPingError(`unexpected answer to PING: ${line.slice(0, 80)}`))
      }
      if (buffered.length > 4096) finish(new RedisPingError("the server's answer is not Redis's"))
    })
  })
}

/** A command as a RESP array of bulk strings. */
function encodeCommand(words: readonly string[]): string {
  return `*${words.length}\r\n${words.map((word) => `$${new TextEncoder().encode(word).length}\r\n${word}\r\n`).join("")}`
}

/** Node's socket error in words; its own message (which names host and port, never credentials) otherwise. */
function socketReason(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case "ECONNREFUSED":
      return "connection refused"
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "host not found"
    case "ECONNRESET":
      return "the connection was reset"
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "host unreachable"
    default:
      return firstLine(error.message || String(error.code))
  }
}

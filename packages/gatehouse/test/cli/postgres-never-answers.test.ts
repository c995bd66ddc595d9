/**
 * A PostgreSQL server that completes the handshake and then never answers a query (a pooler with
 * no free server connection, a query behind a lock): `doctor` and `migrate status` still end, with
 * exit code 1 and one line naming the timeout. Run as the built CLI in a child process, since what
 * is proved is that the process exits.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer, type Server, type Socket } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const builtCli = fileURLToPath(new URL("../../dist/cli/index.js", import.meta.url))

/** A message of the backend protocol: type byte, length (itself included), body. */
function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5)
  head.write(type, 0, "latin1")
  head.writeInt32BE(body.length + 4, 1)
  return Buffer.concat([head, body])
}

/** Answers the startup message with AuthenticationOk and ReadyForQuery, then reads and ignores everything. */
function silentPostgres(): Promise<{ server: Server; port: number; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
    socket.on("error", () => {})
    let greeted = false
    socket.on("data", () => {
      if (greeted) return
      greeted = true
      const authOk = Buffer.alloc(4)
      socket.write(Buffer.concat([message("R", authOk), message("Z", Buffer.from("I", "latin1"))]))
    })
  })
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      resolve({ server, port: typeof address === "object" && address ? address.port : 0, sockets })
    })
  })
}

function runCli(args: string[], env: Record<string, string>, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [builtCli, ...args], { cwd, env: { PATH: process.env.PATH ?? "", ...env } })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => void (stdout += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()))
    // Not a speed limit: a process still running after this long has hung, which is the bug.
    const killer = setTimeout(() => child.kill("SIGKILL"), 90_000)
    child.on("close", (code) => {
      clearTimeout(killer)
      resolve({ code, stdout, stderr })
    })
  })
}

describe("a PostgreSQL server that accepts the connection and never answers a query", () => {
  let fake: Awaited<ReturnType<typeof silentPostgres>>
  let dir: string
  let url: string
  beforeAll(async () => {
    fake = await silentPostgres()
    url = `postgres://gatehouse:hunter2secret@127.0.0.1:${fake.port}/app`
    dir = mkdtempSync(join(tmpdir(), "gatehouse-silent-pg-"))
  })
  afterAll(async () => {
    for (const socket of fake.sockets) socket.destroy()
    await new Promise((resolve) => fake.server.close(resolve))
    rmSync(dir, { recursive: true, force: true })
  })

  it("doctor exits with 1 and one database line naming the timeout", { timeout: 120_000 }, async () => {
    const { code, stdout } = await runCli(["doctor"], { DATABASE_URL: url }, dir)
    expect(code).toBe(1)
    const lines = stdout.split("\n").filter((line) => /^\w+\s+database\s/.test(line))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^error\s+database\s.*(within \d+ s|timed out)/)
    expect(stdout).not.toContain("hunter2secret")
  })

  it("migrate status exits with 1 and one line on stderr naming the timeout", { timeout: 120_000 }, async () => {
    const { code, stderr } = await runCli(["migrate", "status"], { DATABASE_URL: url }, dir)
    expect(code).toBe(1)
    const lines = stderr.trim().split("\n")
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^gatehouse: .*(within \d+ s|timed out)/)
    expect(stderr).not.toContain("hunter2secret")
  })
})

import { createServer, type Server, type Socket } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { STORE_TIMEOUT_MS } from "../../src/cli/doctor-store.js"
import { freePort } from "../support/free-port.js"
import type { RedisClientType } from "redis"
import { redisUrl, testRedisClient } from "../support/redis.js"
import { appFolder, doctor, doctorJson, strongSecret } from "./doctor-support.js"

const app = appFolder()
const secret = strongSecret()

/** The run's Redis URL with credentials put in. */
function withCredentials(username: string, password: string): string {
  const url = new URL(redisUrl())
  url.username = username
  url.password = password
  return url.href
}

describe("gatehouse doctor: the shared store (REDIS_URL)", () => {
  it("skips the check when REDIS_URL is unset, and that is not a problem", async () => {
    const { code, of } = await doctorJson(app.dir, { AUTH_SECRET: secret })
    expect(code).toBe(0)
    expect(of("store")).toEqual([{ check: "store", level: "ok", message: "skipped: REDIS_URL is unset (one instance needs no shared store)" }])
  })

  it("is ok when the Redis server answers PING", async () => {
    const { port } = new URL(redisUrl())
    const { code, of } = await doctorJson(app.dir, { AUTH_SECRET: secret, REDIS_URL: redisUrl() })
    expect(code).toBe(0)
    expect(of("store")).toEqual([{ check: "store", level: "ok", message: `REDIS_URL (from the environment): redis://127.0.0.1:${port} answers` }])
  })

  it("is a problem when nothing listens on the port: connection refused", async () => {
    const port = await freePort()
    const { code, of } = await doctorJson(app.dir, { AUTH_SECRET: secret, REDIS_URL: `redis://127.0.0.1:${port}` })
    expect(code).toBe(1)
    expect(of("store")).toEqual([{ check: "store", level: "error", message: `REDIS_URL (from the environment): redis://127.0.0.1:${port} is unreachable: connection refused` }])
  })

  it("is a problem when REDIS_URL is not a redis:// or rediss:// URL", async () => {
    const { code, of } = await doctorJson(app.dir, { AUTH_SECRET: secret, REDIS_URL: "https://kv.example.com" })
    expect(code).toBe(1)
    expect(of("store")).toEqual([{ check: "store", level: "error", message: 'REDIS_URL (from the environment) is not usable: the scheme is "https", not redis or rediss' }])
  })

  describe("a server that accepts the connection but never answers", () => {
    let server: Server
    const sockets = new Set<Socket>()
    beforeAll(async () => {
      server = createServer((socket) => void sockets.add(socket))
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    })
    afterAll(async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => server.close(resolve))
    })

    it("is a problem after the store's deadline, not a hang", async () => {
      const port = (server.address() as { port: number }).port
      const { code, of } = await doctorJson(app.dir, { AUTH_SECRET: secret, REDIS_URL: `redis://127.0.0.1:${port}` })
      expect(code).toBe(1)
      expect(of("store")).toEqual([{ check: "store", level: "error", message: `REDIS_URL (from the environment): redis://127.0.0.1:${port} is unreachable: no answer within ${STORE_TIMEOUT_MS / 1000} s` }])
    }, STORE_TIMEOUT_MS + 5_000)
  })

  describe("with credentials (an ACL user of the run's Redis)", () => {
    const user = `doctor-${crypto.randomUUID()}`
    const password = `pw-${crypto.randomUUID()}`
    let client: RedisClientType | undefined
    beforeAll(async () => {
      client = await testRedisClient(redisUrl()).connect()
      await client.sendCommand(["ACL", "SETUSER", user, "on", `>${password}`, "+ping"])
    })
    afterAll(async () => {
      await client?.sendCommand(["ACL", "DELUSER", user])
      client?.destroy()
    })

    it("signs in with AUTH before PING, and never prints the password", async () => {
      const { code, of, stdout } = await doctorJson(app.dir, { AUTH_SECRET: secret, REDIS_URL: withCredentials(user, password) })
      expect(code).toBe(0)
      expect(of("store")[0]).toMatchObject({ level: "ok", message: expect.stringMatching(/^REDIS_URL \(from the environment\): redis:\/\/127\.0\.0\.1:\d+ answers$/) })
      expect(stdout).not.toContain(password)
    })

    it("is a problem when the server refuses the credentials; the server's reason is shown, the password is not", async () => {
      const wrong = `wrong-${crypto.randomUUID()}`
      for (const args of [[], ["--json"]]) {
        const { code, stdout } = await doctor(app.dir, { AUTH_SECRET: secret, REDIS_URL: withCredentials(user, wrong) }, ...args)
        expect(code).toBe(1)
        expect(stdout).toMatch(/unreachable: the server answered: WRONGPASS/)
        expect(stdout).not.toContain(wrong)
      }
    })
  })
})

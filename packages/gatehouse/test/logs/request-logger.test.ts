/**
 * A logger's `forRequest` builds one request's logger once: a logger that mints an id per call
 * (no id header to read) still gives every line of one request the same id.
 */
import { describe, expect, it } from "vitest"
import type { LoggerInstance } from "../../src/types.js"
import { Client, credentialsConfig } from "../flow/flow-helpers.js"

/** A logger whose `forRequest` mints a fresh id on each call and counts the calls. */
function mintingLogger() {
  const lines: { id: string; level: string; code: string }[] = []
  let calls = 0
  const record = (id: string, level: string) => (code: string) => void lines.push({ id, level, code })
  const logger: Partial<LoggerInstance> = {
    error: record("-", "error"),
    warn: record("-", "warn"),
    debug: record("-", "debug"),
    forRequest: () => {
      calls += 1
      const id = crypto.randomUUID()
      return { error: record(id, "error"), warn: record(id, "warn"), debug: record(id, "debug") }
    },
  }
  return { logger, lines, calls: () => calls }
}

describe("a request's logger", () => {
  it("is built once per request, so one request's lines carry one id", async () => {
    const { logger, lines, calls } = mintingLogger()
    const client = new Client(credentialsConfig({ logger }))
    const csrfToken = await client.csrfToken()
    expect(calls()).toBe(1)
    await client.postForm("callback/credentials", { csrfToken, username: "ada", password: "wrong" })
    expect(calls()).toBe(2)
    await client.session()
    expect(calls()).toBe(3)
    const ids = new Set(lines.filter((line) => line.code === "CredentialsSignin").map((line) => line.id))
    expect(ids.size).toBe(1)
    expect([...ids][0]).not.toBe("-")
  })
})

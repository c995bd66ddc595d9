/**
 * Configuration warnings are shown once per process and configuration (its base path and
 * providers), whatever holds them: copies of the config object (what integrations and server
 * actions make) and copies of Gatehouse's own modules (what a bundler makes: Next loads one for the
 * proxy, one for the route handlers and one for the server components, in one process). The Next
 * example's test (examples/next/test/next-app.test.ts) shows it under `next start`.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import type { LoggerInstance } from "../../src/types.js"
import { recordingLogger } from "../flow/flow-helpers.js"

type LoggerModule = typeof import("../../src/core/logger.js")

/** A fresh copy of the logger module, with its own module state, as a second bundle would load it. */
async function anotherCopy(): Promise<LoggerModule> {
  vi.resetModules()
  return import("../../src/core/logger.js")
}

const passkeys = { basePath: "/api/auth", providers: [{ id: "credentials" }, { id: "passkey" }] }

afterEach(() => {
  vi.restoreAllMocks()
})

describe("configuration warnings", () => {
  it("are shown once by the copies of the module a bundler loads, each with its own copy of the config and of the app's logger", async () => {
    const copies = [await anotherCopy(), await anotherCopy(), await anotherCopy()]
    expect(new Set(copies).size).toBe(3)
    const loggers = copies.map(() => recordingLogger())
    copies.forEach((copy, index) => copy.reportConfigWarnings(loggers[index]!.logger, { ...passkeys, providers: passkeys.providers.map((p) => ({ ...p })) }, ["experimental-webauthn"]))
    const shown = loggers.flatMap(({ lines }) => lines.map((line) => line.code))
    expect(shown).toEqual(["experimental-webauthn"])
  })

  it("are shown once through the built-in logger too, by every copy", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
    for (let copy = 0; copy < 3; copy++) {
      const logger = await anotherCopy()
      logger.reportConfigWarnings(logger.createLogger({}), { basePath: "/auth", providers: [{ id: "github" }] }, ["debug-enabled", "secret-too-short"])
    }
    expect(warn.mock.calls.map(([line]) => line)).toEqual(["[auth][warn][debug-enabled]", "[auth][warn][secret-too-short]"])
  })

  it("are shown again for another configuration of the same process: another base path, or other providers", async () => {
    const { reportConfigWarnings } = await anotherCopy()
    const { logger, lines } = recordingLogger()
    const report = (config: { basePath: string; providers: { id: string }[] }) => reportConfigWarnings(logger as LoggerInstance, config, ["csrf-disabled"])
    report({ basePath: "/admin/auth", providers: [{ id: "github" }] })
    report({ basePath: "/admin/auth", providers: [{ id: "github" }] })
    report({ basePath: "/shop/auth", providers: [{ id: "github" }] })
    report({ basePath: "/admin/auth", providers: [{ id: "github" }, { id: "google" }] })
    expect(lines.map((line) => line.code)).toEqual(["csrf-disabled", "csrf-disabled", "csrf-disabled"])
  })
})

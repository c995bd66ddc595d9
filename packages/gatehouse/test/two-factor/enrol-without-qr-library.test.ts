/**
 * Without the optional peer `uqr` installed, enrolment still works (issue 37): the answer's `qr`
 * is `null`, the page shows the secret as text alone, and the missing package is logged once as
 * the warning `two-factor-qr-missing`.
 */
import { describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { codeFor, enrolSetup, postJson, readEnrolPage } from "./enrol-support.js"
import { recordingLogger } from "../flow/flow-helpers.js"

// As if the package were not installed: importing it fails.
vi.mock("uqr", () => {
  throw new Error("Cannot find package 'uqr'")
})

describe("enrolment without the uqr package", () => {
  it("answers qr: null, shows the secret text without a QR image, and warns once", async () => {
    const s = await enrolSetup(MemoryAdapter(), "jwt")
    const { logger, lines } = recordingLogger()
    s.config.logger = logger
    await s.signIn()
    const first = (await (await postJson(s.client, "two-factor/totp")).json()) as { secret: string; qr: string | null }
    expect(first.qr).toBeNull()
    const second = (await (await postJson(s.client, "two-factor/totp")).json()) as { secret: string; qr: string | null }
    expect(second.qr).toBeNull()
    expect(lines.filter((line) => line.code === "two-factor-qr-missing")).toHaveLength(1)
    expect((await postJson(s.client, "two-factor/totp/confirm", { code: codeFor(second.secret) })).status).toBe(200)
  })

  it("renders the enrolment page with the secret as text and no image", async () => {
    const s = await enrolSetup(MemoryAdapter(), "jwt", { require: "always" })
    await s.signIn()
    const html = await (await s.client.get("two-factor")).text()
    expect(html).not.toContain("<svg")
    expect(readEnrolPage(html).secret).toMatch(/^[A-Z2-7 ]{32,}$/)
  })
})

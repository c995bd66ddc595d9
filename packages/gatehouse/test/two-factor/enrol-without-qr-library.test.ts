/**
 * The QR code is the app's to draw (`twoFactor.totp.qrCode`, e.g. `renderSVG` from `uqr`), so no
 * bundler is asked to resolve a QR library the app may not have. Without one, enrolment still
 * works: `qr` is `null`, the page shows the secret as text alone, and a warning says how to add
 * one, once. A drawing function that throws or answers something else is logged, never a 500.
 */
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { codeFor, enrolSetup, postJson, readEnrolPage } from "./enrol-support.js"
import { recordingLogger } from "../flow/flow-helpers.js"

describe("enrolment without a QR drawing function", () => {
  it("answers qr: null, enrols with the secret typed in, and warns once", async () => {
    const s = await enrolSetup(MemoryAdapter(), "jwt", { totp: { issuer: "Gatehouse tests" } })
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
    const s = await enrolSetup(MemoryAdapter(), "jwt", { totp: { issuer: "Gatehouse tests" }, require: "always" })
    await s.signIn()
    const html = await (await s.client.get("two-factor")).text()
    expect(html).not.toContain("<svg")
    expect(readEnrolPage(html).secret).toMatch(/^[A-Z2-7 ]{32,}$/)
  })

  const broken: Array<[string, (uri: string) => string]> = [
    [
      "throws",
      () => {
        throw new Error("qr library broke")
      },
    ],
    ["answers something that is not SVG", () => "<script>alert(1)</script>"],
  ]
  it.each(broken)("logs a drawing function that %s, and still enrols with the secret as text", async (_, qrCode) => {
    const s = await enrolSetup(MemoryAdapter(), "jwt", { totp: { issuer: "Gatehouse tests", qrCode } })
    const { logger, lines } = recordingLogger()
    s.config.logger = logger
    await s.signIn()
    const response = await postJson(s.client, "two-factor/totp")
    expect(response.status).toBe(200)
    const enrolment = (await response.json()) as { secret: string; qr: string | null }
    expect(enrolment.qr).toBeNull()
    expect(lines.some((line) => line.level === "error" && line.code === "InvalidConfig")).toBe(true)
    expect((await postJson(s.client, "two-factor/totp/confirm", { code: codeFor(enrolment.secret) })).status).toBe(200)
  })

  it("refuses a qrCode that is not a function, naming it", async () => {
    const s = await enrolSetup(MemoryAdapter(), "jwt", { totp: { issuer: "Gatehouse tests", qrCode: "uqr" as never } })
    const response = await s.client.get("two-factor/status")
    expect(response.status).toBe(500)
    expect(await response.text()).not.toContain("qrCode")
  })
})

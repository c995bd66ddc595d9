/**
 * `requireRecentAuth(request, config, { maxAge, aal })`: the application's own gate on a recent
 * second factor. It answers the session and stored user when the session checked a second factor
 * recently enough (or the user has none, unless `aal: 2` is asked), and throws otherwise.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { requireRecentAuth } from "../../src/index.js"
import type { Client } from "../flow/flow-helpers.js"
import { FRESH_AGE_MS, ORIGIN, moveClock, signedInApp, stores, totpNow } from "./signed-in-app.js"

afterEach(() => {
  vi.useRealTimers()
})

const requestOf = (client: Client) => new Request(`${ORIGIN}/settings/email`, { method: "POST", headers: { cookie: client.jar.header() } })

describe.each(stores)("$name: requireRecentAuth", (store) => {
  it("answers the session and user right after a second factor; refuses past freshAge (or maxAge); passes again after a step-up", async () => {
    const app = await signedInApp(store)
    try {
      const key = await app.enrol()
      await app.signIn()
      const { session, user } = await requireRecentAuth(requestOf(app.client), app.config)
      expect(user.id).toBe(app.uid)
      expect(session.user?.email).toBe("ada@app.test")
      expect(session.authentication).toMatchObject({ aal: 2, amr: ["pwd", "otp", "mfa"] })

      moveClock(120_000)
      await expect(requireRecentAuth(requestOf(app.client), app.config, { maxAge: 60 })).rejects.toMatchObject({ type: "RecentAuthRequired" })
      await requireRecentAuth(requestOf(app.client), app.config)
      moveClock(FRESH_AGE_MS)
      await expect(requireRecentAuth(requestOf(app.client), app.config)).rejects.toMatchObject({ type: "RecentAuthRequired" })
      await requireRecentAuth(requestOf(app.client), app.config, { maxAge: 3600 })

      await app.stepUp({ code: totpNow(key) })
      expect((await requireRecentAuth(requestOf(app.client), app.config, { maxAge: 60, aal: 2 })).user.id).toBe(app.uid)
    } finally {
      app.close()
    }
  })

  it("passes a user with no second factor, unless aal 2 is asked", async () => {
    const app = await signedInApp(store)
    try {
      await app.signIn()
      moveClock(FRESH_AGE_MS * 2)
      expect((await requireRecentAuth(requestOf(app.client), app.config)).user.id).toBe(app.uid)
      await expect(requireRecentAuth(requestOf(app.client), app.config, { aal: 2 })).rejects.toMatchObject({ type: "RecentAuthRequired" })
    } finally {
      app.close()
    }
  })

  it("throws SessionRequired for a signed-out request", async () => {
    const app = await signedInApp(store)
    try {
      await app.enrol()
      await expect(requireRecentAuth(requestOf(app.client), app.config)).rejects.toMatchObject({ type: "SessionRequired" })
      await expect(requireRecentAuth(requestOf(app.client), app.config, { aal: 2 })).rejects.toMatchObject({ type: "SessionRequired" })
    } finally {
      app.close()
    }
  })

  it("without twoFactor configured passes by default, and refuses aal 2 (never shown)", async () => {
    const app = await signedInApp(store, {}, false)
    try {
      await app.signIn()
      expect((await requireRecentAuth(requestOf(app.client), app.config)).user.id).toBe(app.uid)
      await expect(requireRecentAuth(requestOf(app.client), app.config, { aal: 2 })).rejects.toMatchObject({ type: "RecentAuthRequired" })
    } finally {
      app.close()
    }
  })

  it("refuses options that are not seconds and a level", async () => {
    const app = await signedInApp(store)
    try {
      await app.signIn()
      for (const options of [{ maxAge: -1 }, { maxAge: Number.NaN }, { maxAge: "600" }, { aal: 3 }, { aal: "2" }]) {
        await expect(requireRecentAuth(requestOf(app.client), app.config, options as never), JSON.stringify(options)).rejects.toMatchObject({ type: "InvalidConfig" })
      }
    } finally {
      app.close()
    }
  })
})

/**
 * Step-up: a signed-in user posts their second factor to `POST {basePath}/two-factor` (no pending
 * sign-in) and the request's own session is raised to aal 2, `otp` and `mfa` added, dated now:
 * the JWT cookie rewritten, the database row's authentication updated (same row, same cookie).
 * A code raises once (TOTP step, recovery code); a wrong one raises nothing.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { decode } from "../../src/jwt/index.js"
import { memoryStore } from "../../src/stores/memory.js"
import { Client, secret } from "../flow/flow-helpers.js"
import { DASHBOARD, ORIGIN, RECOVERY_CODES, SESSION, SETTINGS, moveClock, signedInApp, stores, totpNow } from "./signed-in-app.js"

afterEach(() => {
  vi.useRealTimers()
})

describe.each(stores)("$name: step-up of the request's own session", (store) => {
  it("raises an aal 1 session of an enrolled user to aal 2 (otp, mfa, dated now) and goes to the posted callbackUrl", async () => {
    const app = await signedInApp(store)
    try {
      await app.signIn()
      expect(await app.authentication()).toEqual({ aal: 1, amr: ["pwd"], secondFactorAt: null })
      const key = await app.enrol()
      const cookieBefore = app.client.jar.get(SESSION)
      const before = Date.now()

      const raised = await app.stepUp({ code: totpNow(key), callbackUrl: SETTINGS })
      expect(raised.status).toBe(302)
      expect(raised.headers.get("location")).toBe(SETTINGS)
      const authentication = (await app.authentication())!
      expect(authentication).toMatchObject({ aal: 2, amr: ["pwd", "otp", "mfa"] })
      expect(Date.parse(authentication.secondFactorAt!)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000)
      expect(app.events).toEqual([{ method: "totp", success: true }])

      if (store.strategy === "jwt") {
        // A rewritten cookie for the same user; the others' claims as they were.
        const token = (await decode({ token: app.client.jar.get(SESSION)!, secret, salt: SESSION }))!
        expect(token).toMatchObject({ sub: app.uid, aal: 2, amr: ["pwd", "otp", "mfa"], email: "ada@app.test" })
        expect(app.client.jar.get(SESSION)).not.toBe(cookieBefore)
      } else {
        // The same row, raised where it is stored: no new session, no new cookie.
        expect(app.client.jar.get(SESSION)).toBe(cookieBefore)
        expect(await app.adapter.listSessionsByUserId(app.uid)).toHaveLength(1)
      }
    } finally {
      app.close()
    }
  })

  it("re-dates a stale aal 2 session, and refuses the same TOTP code (its time step) a second time", async () => {
    const app = await signedInApp(store)
    try {
      const key = await app.enrol()
      await app.signIn()
      const signedInAt = (await app.authentication())!.secondFactorAt!
      moveClock(60_000)
      const code = totpNow(key)
      expect((await app.stepUp({ code })).headers.get("location")).toBe(ORIGIN)
      const raisedAt = (await app.authentication())!.secondFactorAt!
      expect(Date.parse(raisedAt)).toBeGreaterThan(Date.parse(signedInAt))

      const replay = await app.stepUp({ code, callbackUrl: SETTINGS })
      expect(replay.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor?error=InvalidTwoFactorCode&callbackUrl=${encodeURIComponent(SETTINGS)}`)
      expect((await app.authentication())!.secondFactorAt).toBe(raisedAt)
      expect(app.events.at(-1)).toEqual({ method: "totp", success: false })
    } finally {
      app.close()
    }
  })

  it("takes a recovery code once; the same code is refused next time", async () => {
    const app = await signedInApp(store)
    try {
      await app.signIn()
      await app.enrol()
      expect((await app.stepUp({ method: "recovery", code: RECOVERY_CODES[0]!.toLowerCase(), callbackUrl: SETTINGS })).headers.get("location")).toBe(SETTINGS)
      expect(await app.authentication()).toMatchObject({ aal: 2, amr: ["pwd", "otp", "mfa"] })
      expect((await app.adapter.getTwoFactor(app.uid))!.recoveryCodesLeft).toBe(1)

      const other = new Client(app.config)
      await app.signIn(other)
      expect(await app.authentication(other)).toMatchObject({ aal: 2 })
      const before = (await app.authentication(other))!.secondFactorAt
      moveClock(1_000)
      const refused = await app.stepUp({ method: "recovery", code: RECOVERY_CODES[0]! }, other)
      expect(refused.headers.get("location")).toMatch(/\/auth\/two-factor\?error=InvalidTwoFactorCode$/)
      expect((await app.authentication(other))!.secondFactorAt).toBe(before)
    } finally {
      app.close()
    }
  })

  it("a wrong code raises nothing and goes back to the two-factor page", async () => {
    const app = await signedInApp(store)
    try {
      await app.signIn()
      const key = await app.enrol()
      const wrong = String((Number(totpNow(key)) + 1) % 1_000_000).padStart(6, "0")
      const refused = await app.stepUp({ code: wrong, callbackUrl: SETTINGS })
      expect(refused.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor?error=InvalidTwoFactorCode&callbackUrl=${encodeURIComponent(SETTINGS)}`)
      expect(await app.authentication()).toEqual({ aal: 1, amr: ["pwd"], secondFactorAt: null })
      expect(app.events).toEqual([{ method: "totp", success: false }])
    } finally {
      app.close()
    }
  })

  it("answers a JSON caller with the session's new authentication", async () => {
    const app = await signedInApp(store)
    try {
      await app.signIn()
      const key = await app.enrol()
      const answer = await app.client.postJson("two-factor", { csrfToken: await app.client.csrfToken(), code: totpNow(key), method: "totp" })
      expect(answer.status).toBe(200)
      const { authentication } = (await answer.json()) as { authentication: { aal: number; amr: string[] } }
      expect(authentication).toMatchObject({ aal: 2, amr: ["pwd", "otp", "mfa"] })
      // aal, amr and the check time only: which factor it was is not kept (amr says otp).
      expect(Object.keys(authentication).sort()).toEqual(["aal", "amr", "secondFactorAt"])
      expect(await app.authentication()).toMatchObject({ aal: 2 })
    } finally {
      app.close()
    }
  })

  it("refuses a user with no second factor (409 TwoFactorNotEnrolled), counting nothing and raising nothing", async () => {
    const app = await signedInApp(store)
    try {
      await app.signIn()
      const refused = await app.client.postJson("two-factor", { csrfToken: await app.client.csrfToken(), code: "123456" })
      expect(refused.status).toBe(409)
      expect(await refused.json()).toEqual({ error: "TwoFactorNotEnrolled" })
      // The page's form is a browser's: the two-factor page says it (and sets a factor up).
      const form = await app.stepUp({ code: "123456" })
      expect(form.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor?error=TwoFactorNotEnrolled`)
      expect(await app.authentication()).toEqual({ aal: 1, amr: ["pwd"], secondFactorAt: null })
      expect(app.events).toEqual([])
    } finally {
      app.close()
    }
  })

  it("signed out, there is nothing to step up: the sign-in page with TwoFactorExpired", async () => {
    const app = await signedInApp(store)
    try {
      await app.enrol()
      const refused = await app.stepUp({ code: totpNow(app.key()) })
      expect(refused.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=TwoFactorExpired`)
      expect(app.client.jar.get(SESSION)).toBeUndefined()
      expect(app.events).toEqual([])
    } finally {
      app.close()
    }
  })

  it("counts tries per user: past 10 in 15 minutes even the right code gets 429", async () => {
    const app = await signedInApp(store)
    try {
      await app.signIn()
      const key = await app.enrol()
      const wrong = String((Number(totpNow(key)) + 1) % 1_000_000).padStart(6, "0")
      for (let i = 0; i < 10; i++) expect((await app.stepUp({ code: wrong })).status).toBe(302)
      const throttled = await app.stepUp({ code: totpNow(key) })
      expect(throttled.status).toBe(429)
      expect(throttled.headers.get("retry-after")).toMatch(/^\d+$/)
      expect(await app.authentication()).toMatchObject({ aal: 1 })
    } finally {
      app.close()
    }
  })

  it("the right code posted twice at once raises once", async () => {
    const app = await signedInApp(store)
    try {
      await app.signIn()
      const key = await app.enrol()
      const csrfToken = await app.client.csrfToken()
      const code = totpNow(key)
      const answers = await Promise.all([0, 1].map(() => app.client.postForm("two-factor", { csrfToken, code, callbackUrl: SETTINGS })))
      expect(answers.map((answer) => answer.headers.get("location")).filter((location) => location === SETTINGS)).toHaveLength(1)
      expect(app.events.filter((event) => event.success)).toHaveLength(1)
      if (store.strategy === "jwt") {
        const written = answers.filter((answer) => answer.headers.getSetCookie().some((line) => line.startsWith(`${SESSION}=`) && !line.startsWith(`${SESSION}=;`)))
        expect(written).toHaveLength(1)
      }
      expect(await app.authentication()).toMatchObject({ aal: 2 })
    } finally {
      app.close()
    }
  })

  it("needs the CSRF token", async () => {
    const app = await signedInApp(store)
    try {
      await app.signIn()
      const key = await app.enrol()
      const refused = await app.client.postForm("two-factor", { code: totpNow(key) })
      expect(refused.headers.get("location")).not.toBe(ORIGIN)
      expect(await app.authentication()).toMatchObject({ aal: 1 })
      // The code was not spent by the refused request.
      expect((await app.stepUp({ code: totpNow(key), callbackUrl: DASHBOARD })).headers.get("location")).toBe(DASHBOARD)
    } finally {
      app.close()
    }
  })
})

describe("JWT sessions: a step-up keeps the session's expiry rules", () => {
  it("the rewritten cookie never outlives absoluteMaxAge, and keeps when the session started", async () => {
    const app = await signedInApp(stores[0]!, { session: { strategy: "jwt", absoluteMaxAge: 3600 } })
    try {
      await app.signIn()
      const started = (await decode({ token: app.client.jar.get(SESSION)!, secret, salt: SESSION }))!.signedInAt as number
      const key = await app.enrol()
      moveClock(3000_000)
      const raised = await app.stepUp({ code: totpNow(key) })
      const cookie = raised.headers.getSetCookie().find((line) => line.startsWith(`${SESSION}=`))!
      const expires = Date.parse(/Expires=([^;]+)/i.exec(cookie)![1]!)
      expect(expires).toBeLessThanOrEqual((started + 3600) * 1000)
      const token = (await decode({ token: app.client.jar.get(SESSION)!, secret, salt: SESSION }))!
      expect(token).toMatchObject({ signedInAt: started, aal: 2 })
      expect(token.exp as number).toBeLessThanOrEqual(started + 3600)
    } finally {
      app.close()
    }
  })
})

describe("database sessions behind the session cache: a step-up is seen at once", () => {
  it("the next read after the raise answers aal 2, not the cached aal 1", async () => {
    const app = await signedInApp(stores[1]!, { sharedStore: memoryStore(), session: { strategy: "database", cacheMaxAge: 60 } })
    try {
      await app.signIn()
      expect(await app.authentication()).toMatchObject({ aal: 1 })
      expect(await app.authentication()).toMatchObject({ aal: 1 })
      const key = await app.enrol()
      await app.stepUp({ code: totpNow(key) })
      expect(await app.authentication()).toMatchObject({ aal: 2, amr: ["pwd", "otp", "mfa"] })
    } finally {
      app.close()
    }
  })
})

/**
 * A ban and two-factor sign-in: a banned user is refused before the second factor is asked for,
 * and a user banned while their sign-in waits for it is refused when they give it: the session
 * issued after a second factor goes through the same check.
 */
import { describe, expect, it } from "vitest"
import { banUser } from "../../src/index.js"
import { enrol, totpNow } from "../two-factor/bypass-matrix-helpers.js"
import { adminConfig, pageRequest, person, roleAdmin, sessionEmail, signedIn, signIn, STORE_KINDS } from "./admin-harness.js"

const twoFactor = { totp: { issuer: "Gatehouse admin tests" }, require: "enrolled" as const, notify: false as const }

for (const kind of STORE_KINDS) {
  describe(`a ban under two-factor sign-in, on ${kind.name}`, () => {
    const store = kind.use()

    it("refuses a banned user before the second factor, and one banned while their sign-in waits for it", async () => {
      const adapter = store()
      const config = adminConfig(adapter, { session: { strategy: "database" }, twoFactor })
      const [admin, early, late] = [await roleAdmin(adapter), await person(adapter), await person(adapter)]
      const [earlyKey, lateKey] = [await enrol(adapter, early.id), await enrol(adapter, late.id)]
      const adminRequest = pageRequest(await signedIn(config, admin))

      await banUser(adminRequest, config, early.id)
      const refused = await signIn(config, early)
      expect(refused.location).toMatch(/error=UserBanned/)
      // No pending sign-in was started: a right code leads nowhere.
      await refused.browser.postForm("two-factor", { csrfToken: await refused.browser.csrfToken(), code: totpNow(earlyKey) })
      expect(await sessionEmail(refused.browser)).toBeNull()

      const waiting = await signIn(config, late)
      expect(waiting.location).toMatch(/\/auth\/two-factor/)
      await banUser(adminRequest, config, late.id)
      const done = await waiting.browser.postForm("two-factor", { csrfToken: await waiting.browser.csrfToken(), code: totpNow(lateKey) })
      expect(done.headers.get("location")).toMatch(/error=UserBanned/)
      expect(await sessionEmail(waiting.browser)).toBeNull()
      expect(await adapter.listSessionsByUserId(late.id)).toEqual([])
      expect(await adapter.listSessionsByUserId(early.id)).toEqual([])
    })
  })
}

/**
 * Enrolment during sign-in (issue 37): under `require: "always"` a user without a factor gets no
 * session after the password, only the enrolment page (QR code, the secret as text, the confirm
 * form); the right code (computed here with node:crypto from the page's secret text) enables the
 * factor and finishes the sign-in at aal 2 on the page that shows the recovery codes once. Wrong
 * codes are counted as on the challenge.
 */
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { resolveConfig } from "../../src/core/config.js"
import { toInternalRequest } from "../../src/core/internal-request.js"
import { createRequestContext } from "../../src/core/request-context.js"
import { startPending } from "../../src/core/two-factor/pending.js"
import { Client } from "../flow/flow-helpers.js"
import {
  codeFor,
  DASHBOARD,
  enrolSetup,
  ORIGIN,
  PENDING,
  postJson,
  readEnrolPage,
  readRecoveryCodes,
  SESSION,
  TWO_FACTOR_PAGE,
  wrongCodeFor,
  type EnrolSetup,
} from "./enrol-support.js"

async function expectNoSession(s: EnrolSetup): Promise<void> {
  expect(s.client.jar.get(SESSION)).toBeUndefined()
  expect(await s.client.session()).toBeNull()
  expect(await s.adapter.listSessionsByUserId(s.uid)).toHaveLength(0)
  expect(s.events.signIn).not.toHaveBeenCalled()
}

async function enrolPage(s: EnrolSetup): Promise<{ html: string; page: ReturnType<typeof readEnrolPage> }> {
  const response = await s.client.get("two-factor")
  expect(response.status).toBe(200)
  expect(response.headers.get("cache-control")).toContain("no-store")
  const html = await response.text()
  return { html, page: readEnrolPage(html) }
}

function postConfirm(s: EnrolSetup, page: ReturnType<typeof readEnrolPage>, code: string): Promise<Response> {
  return s.client.postForm("two-factor/totp/confirm", { csrfToken: page.csrfToken, ref: page.ref, code })
}

describe.each(["jwt", "database"] as const)('%s sessions, require "always", a user without a factor', (strategy) => {
  it("enrols on the built-in page before any session exists, then is signed in at aal 2 with the codes shown once", async () => {
    const s = await enrolSetup(MemoryAdapter(), strategy, { require: "always" })
    const first = await s.signIn()
    expect(first.headers.get("location")).toBe(TWO_FACTOR_PAGE)
    expect(s.client.jar.get(PENDING)).toBeTruthy()
    await expectNoSession(s)

    const { html, page } = await enrolPage(s)
    expect(page.action).toBe(`${ORIGIN}/auth/two-factor/totp/confirm`)
    expect(html).toMatch(/<svg role="img" aria-label="[^"]+"/)
    expect(html).toMatch(/<label for="code">[^<]+<\/label><input id="code" name="code"[^>]*autocomplete="one-time-code" inputmode="numeric"/)
    expect(html).not.toContain("<script")
    expect((await s.adapter.getTwoFactor(s.uid))?.enabledAt ?? null).toBeNull()

    // A wrong code: the page again, with the error announced and tied to the input, same secret.
    const wrong = await postConfirm(s, page, wrongCodeFor(page.secret))
    expect(wrong.status).toBe(200)
    const wrongHtml = await wrong.text()
    expect(wrongHtml).toContain('role="alert" id="enrol-error"')
    expect(wrongHtml).toContain('aria-describedby="enrol-error"')
    expect(readEnrolPage(wrongHtml).secret).toBe(page.secret)
    await expectNoSession(s)

    const done = await postConfirm(s, page, codeFor(page.secret))
    expect(done.status).toBe(200)
    expect(done.headers.get("cache-control")).toContain("no-store")
    const codesHtml = await done.text()
    const codes = readRecoveryCodes(codesHtml)
    expect(codes).toHaveLength(10)
    expect(codesHtml).toContain(`href="${DASHBOARD}"`)
    expect(s.client.jar.get(SESSION)).toBeTruthy()
    expect(s.client.jar.get(PENDING)).toBeUndefined()
    const session = (await s.client.session()) as { user: { email: string }; authentication: { aal: number; amr: string[] } }
    expect(session.authentication).toMatchObject({ aal: 2, amr: ["pwd", "otp", "mfa"] })
    expect(s.events.signIn).toHaveBeenCalledTimes(1)
    expect(s.events.twoFactorEnabled).toHaveBeenCalledTimes(1)
    expect(s.notify.mock.calls).toEqual([[{ user: expect.objectContaining({ id: s.uid }), change: "enabled" }]])
    if (strategy === "database") expect(await s.adapter.listSessionsByUserId(s.uid)).toHaveLength(1)

    // The next sign-in is challenged, and a saved code finishes it.
    const next = new Client(s.config)
    expect((await s.signIn(next)).headers.get("location")).toBe(TWO_FACTOR_PAGE)
    const recovered = await next.postForm("two-factor", { csrfToken: await next.csrfToken(), code: codes[0]!, method: "recovery" })
    expect(recovered.headers.get("location")).toBe(DASHBOARD)
  })

  it("answers a JSON caller { recoveryCodes, url } with the session cookie", async () => {
    const s = await enrolSetup(MemoryAdapter(), strategy, { require: "always" })
    await s.signIn()
    const started = await postJson(s.client, "two-factor/totp")
    expect(started.status).toBe(200)
    const { secret } = (await started.json()) as { secret: string }
    await expectNoSession(s)
    const done = await postJson(s.client, "two-factor/totp/confirm", { code: codeFor(secret) })
    expect(done.status).toBe(200)
    const body = (await done.json()) as { recoveryCodes: string[]; url: string }
    expect(body.url).toBe(DASHBOARD)
    expect(body.recoveryCodes).toHaveLength(10)
    expect(((await s.client.session()) as { authentication: { aal: number } }).authentication.aal).toBe(2)
  })

  it("voids the pending sign-in after five wrong codes: the right one then enables nothing", async () => {
    const s = await enrolSetup(MemoryAdapter(), strategy, { require: "always" })
    await s.signIn()
    const { page } = await enrolPage(s)
    for (let attempt = 1; attempt <= 4; attempt++) expect((await postConfirm(s, page, wrongCodeFor(page.secret))).status).toBe(200)
    const pendingCookie = s.client.jar.get(PENDING)!
    const fifth = await postConfirm(s, page, wrongCodeFor(page.secret))
    expect(fifth.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=TwoFactorFailed`)
    expect(s.client.jar.get(PENDING)).toBeUndefined()
    s.client.jar.cookies.set(PENDING, pendingCookie)
    const late = await postConfirm(s, page, codeFor(page.secret))
    expect(late.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=TwoFactorFailed`)
    await expectNoSession(s)
    expect((await s.adapter.getTwoFactor(s.uid))?.enabledAt ?? null).toBeNull()
  })

  it("shows a new secret, not the other one, when the enrolment was started again elsewhere", async () => {
    const s = await enrolSetup(MemoryAdapter(), strategy, { require: "always" })
    await s.signIn()
    const { page } = await enrolPage(s)
    // Someone else holding the password starts their own enrolment for the same user.
    const other = new Client(s.config)
    await s.signIn(other)
    const theirs = (await (await postJson(other, "two-factor/totp")).json()) as { secret: string }
    const refused = await postConfirm(s, page, codeFor(page.secret))
    // The confirm route starts nothing: the two-factor page does, for whom it allows.
    expect(refused.status).toBe(302)
    expect(refused.headers.get("location")).toBe(`${TWO_FACTOR_PAGE}?error=TwoFactorEnrolmentRestarted`)
    const shown = await (await s.client.get("two-factor?error=TwoFactorEnrolmentRestarted")).text()
    expect(shown).toContain("The setup was started again.")
    const again = readEnrolPage(shown)
    expect(again.secret).not.toBe(page.secret)
    expect(again.secret).not.toBe(theirs.secret)
    await expectNoSession(s)
    const done = await postConfirm(s, again, codeFor(again.secret))
    expect(readRecoveryCodes(await done.text())).toHaveLength(10)
  })

  it("sends a code posted to the challenge route back to the enrolment page, finishing nothing", async () => {
    const s = await enrolSetup(MemoryAdapter(), strategy, { require: "always" })
    await s.signIn()
    const posted = await s.client.postForm("two-factor", { csrfToken: await s.client.csrfToken(), code: "123456" })
    expect(posted.status).toBe(302)
    expect(posted.headers.get("location")).toBe(TWO_FACTOR_PAGE)
    await expectNoSession(s)
    // The pending sign-in is still there: its enrolment page is what the browser gets.
    const { page } = await enrolPage(s)
    expect(page.secret).toBeTruthy()
  })

  it("lets a pending cookie replayed after the sign-in finished enrol nothing", async () => {
    const s = await enrolSetup(MemoryAdapter(), strategy, { require: "always" })
    await s.signIn()
    const { page } = await enrolPage(s)
    const pendingCookie = s.client.jar.get(PENDING)!
    await postConfirm(s, page, codeFor(page.secret))
    const enabled = await s.adapter.getTwoFactor(s.uid)

    const replayer = new Client(s.config)
    replayer.jar.cookies.set(PENDING, pendingCookie)
    const restarted = await postJson(replayer, "two-factor/totp")
    expect(restarted.status).toBe(302)
    expect(restarted.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=TwoFactorExpired`)
    expect(await s.adapter.getTwoFactor(s.uid)).toEqual(enabled)
    expect(replayer.jar.get(SESSION)).toBeUndefined()
  })
})

describe("a session beside a leftover pending enrolment", () => {
  it("acts for the session: confirming enables the signed-in user's factor and finishes no pending sign-in", async () => {
    let required = false
    const s = await enrolSetup(MemoryAdapter(), "jwt", { require: () => required })
    expect((await s.signIn()).headers.get("location")).toBe(DASHBOARD)
    const sessionCookie = s.client.jar.get(SESSION)!
    required = true
    expect((await s.signIn()).headers.get("location")).toBe(TWO_FACTOR_PAGE)
    // The session came back (signed in another way since, in another tab): the pending cookie stays.
    s.client.jar.cookies.set(SESSION, sessionCookie)
    expect(s.client.jar.get(PENDING)).toBeTruthy()
    const { secret } = (await (await postJson(s.client, "two-factor/totp")).json()) as { secret: string }
    const done = await postJson(s.client, "two-factor/totp/confirm", { code: codeFor(secret) })
    expect(done.status).toBe(200)
    expect(Object.keys(await done.json())).toEqual(["recoveryCodes"])
    expect(s.events.signIn).toHaveBeenCalledTimes(1)
    expect(s.client.jar.get(PENDING)).toBeTruthy()
  })
})

describe("enrolling at sign-in after claiming an unproven account", () => {
  it("names the removed sign-in methods on the codes page", async () => {
    const s = await enrolSetup(MemoryAdapter(), "jwt", { require: "always" })
    // The pending sign-in a claim leaves (what the claim removed), made as the choke point makes it.
    const request = new Request(`${ORIGIN}/auth/callback/email`)
    const ctx = await createRequestContext(resolveConfig(s.config), await toInternalRequest(request, "/auth"))
    const { cookies } = await startPending(ctx, {
      uid: s.uid,
      mode: "enrol",
      isNewUser: false,
      firstAmr: ["otp"],
      account: null,
      next: DASHBOARD,
      removed: { accounts: [], credentials: true, twoFactor: true },
    })
    for (const cookie of cookies) s.client.jar.cookies.set(cookie.name, cookie.value)
    const { page } = await enrolPage(s)
    const done = await postConfirm(s, page, codeFor(page.secret))
    const html = await done.text()
    expect(readRecoveryCodes(html)).toHaveLength(10)
    expect(html).toContain("<li>A password</li>")
    expect(html).toContain("<li>Two-step verification</li>")
    expect(s.client.jar.get(SESSION)).toBeTruthy()
  })
})

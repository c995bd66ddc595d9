/**
 * The second factor's management routes and server functions (issue 37) through `Auth()`:
 * enrolling an authenticator app with a code computed here (node:crypto), the pending secret that
 * enables nothing, refusals (wrong code, an enrolment started again, signed out, no recent second
 * factor), regenerating recovery codes, disabling, the status, events and notices; and the round
 * trip on the SQLite adapter.
 */
import Database from "better-sqlite3"
import { afterEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { SQLiteAdapter } from "../../src/adapters/sqlite.js"
import { confirmTotp, disableTwoFactor, enrollTotp, regenerateRecoveryCodes, twoFactorStatus } from "../../src/index.js"
import type { Adapter } from "../../src/adapters/index.js"
import type { SessionStrategy } from "../../src/types.js"
import { Client } from "../flow/flow-helpers.js"
import { codeFor, DASHBOARD, enrolSetup, ORIGIN, postJson, readEnrolPage, readRecoveryCodes, SESSION, TWO_FACTOR_PAGE, wrongCodeFor, type EnrolSetup } from "./enrol-support.js"

afterEach(() => {
  vi.useRealTimers()
})

interface Enrolment {
  secret: string
  uri: string
  qr: string | null
}

async function begin(s: EnrolSetup, client: Client = s.client): Promise<Enrolment> {
  const response = await postJson(client, "two-factor/totp")
  expect(response.status).toBe(200)
  expect(response.headers.get("cache-control")).toContain("no-store")
  return (await response.json()) as Enrolment
}

async function confirm(s: EnrolSetup, code: string, client: Client = s.client): Promise<Response> {
  return postJson(client, "two-factor/totp/confirm", { code })
}

async function status(client: Client): Promise<{ enabled: boolean; methods: string[]; enabledAt: string | null; recoveryCodesLeft: number }> {
  const response = await client.get("two-factor/status")
  expect(response.status).toBe(200)
  expect(response.headers.get("cache-control")).toContain("no-store")
  return response.json()
}

/** Signed in at aal 1 (require "enrolled", nothing enrolled yet), then enrolled through the routes. */
async function enrolledUser(adapter: Adapter, strategy: SessionStrategy): Promise<{ s: EnrolSetup; secret: string; recoveryCodes: string[] }> {
  const s = await enrolSetup(adapter, strategy)
  expect((await s.signIn()).headers.get("location")).toBe(DASHBOARD)
  const { secret } = await begin(s)
  const confirmed = await confirm(s, codeFor(secret))
  expect(confirmed.status).toBe(200)
  const { recoveryCodes } = (await confirmed.json()) as { recoveryCodes: string[] }
  return { s, secret, recoveryCodes }
}

/** Past `freshAge` (600 s by default): the session's second factor, if any, is no longer recent. */
function laterThanFreshAge(): void {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 11 * 60_000 })
}

/** A new browser signing in with password then TOTP: a session with a recent second factor. */
async function freshClient(s: EnrolSetup, secret: string): Promise<Client> {
  const client = new Client(s.config)
  expect((await s.signIn(client)).headers.get("location")).toBe(TWO_FACTOR_PAGE)
  // The next step: the code just used for enrolment (or an earlier sign-in) is spent.
  const done = await client.postForm("two-factor", { csrfToken: await client.csrfToken(), code: codeFor(secret, Math.floor(Date.now() / 30_000) + 1), method: "totp" })
  expect(done.headers.get("location")).toBe(DASHBOARD)
  return client
}

describe.each(["jwt", "database"] as const)("%s sessions: enrolling an authenticator app", (strategy) => {
  it("enables TOTP only with a right code for the enrolled secret, answering the recovery codes once", async () => {
    const s = await enrolSetup(MemoryAdapter(), strategy)
    await s.signIn()
    expect(await status(s.client)).toEqual({ enabled: false, methods: [], enabledAt: null, recoveryCodesLeft: 0 })

    const enrolment = await begin(s)
    const key = enrolment.secret.replace(/ /g, "")
    expect(enrolment.secret).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/)
    expect(key).toHaveLength(32)
    const uri = new URL(enrolment.uri)
    expect(uri.protocol).toBe("otpauth:")
    expect(uri.searchParams.get("secret")).toBe(key)
    expect(uri.searchParams.get("issuer")).toBe("Gatehouse tests")
    expect(enrolment.qr).toMatch(/^<svg[^>]*viewBox/)

    // Started, not enabled: the pending secret stands in for nothing.
    expect(await status(s.client)).toMatchObject({ enabled: false })
    expect((await s.adapter.getTwoFactor(s.uid))?.enabledAt ?? null).toBeNull()
    expect(s.events.twoFactorEnabled).not.toHaveBeenCalled()

    const confirmed = await confirm(s, codeFor(enrolment.secret))
    expect(confirmed.status).toBe(200)
    const { recoveryCodes } = (await confirmed.json()) as { recoveryCodes: string[] }
    expect(recoveryCodes).toHaveLength(10)
    expect(new Set(recoveryCodes).size).toBe(10)
    for (const code of recoveryCodes) expect(code).toMatch(/^[0-9a-z]{5}(?:-[0-9a-z]{5}){4}$/)

    const after = await status(s.client)
    expect(after).toMatchObject({ enabled: true, methods: ["totp", "recovery"], recoveryCodesLeft: 10 })
    expect(Date.now() - Date.parse(after.enabledAt!)).toBeLessThan(60_000)
    expect(s.events.twoFactorEnabled.mock.calls).toEqual([[{ user: expect.objectContaining({ id: s.uid }), method: "totp" }]])
    expect(s.notify.mock.calls).toEqual([[{ user: expect.objectContaining({ id: s.uid }), change: "enabled" }]])

    // The same confirm again answers no codes: there is nothing pending to enable.
    const again = await confirm(s, codeFor(enrolment.secret))
    expect(again.status).toBe(400)
    expect(await again.json()).toMatchObject({ error: "InvalidTwoFactorCode" })

    // And the next sign-in asks for the app's code.
    expect((await s.signIn(new Client(s.config))).headers.get("location")).toBe(TWO_FACTOR_PAGE)
  })

  it("refuses a wrong code, and enables nothing", async () => {
    const s = await enrolSetup(MemoryAdapter(), strategy)
    await s.signIn()
    const { secret } = await begin(s)
    const refused = await confirm(s, wrongCodeFor(secret))
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({ error: "InvalidTwoFactorCode" })
    expect(await status(s.client)).toMatchObject({ enabled: false, recoveryCodesLeft: 0 })
    expect(s.events.twoFactorEnabled).not.toHaveBeenCalled()
    expect(s.notify).not.toHaveBeenCalled()
  })

  it("refuses the code of a secret replaced by a second enrolment, and accepts the new one's", async () => {
    const s = await enrolSetup(MemoryAdapter(), strategy)
    await s.signIn()
    const first = await begin(s)
    const second = await begin(s)
    expect(second.secret).not.toBe(first.secret)
    const refused = await confirm(s, codeFor(first.secret))
    expect(refused.status).toBe(400)
    expect(await status(s.client)).toMatchObject({ enabled: false })
    expect((await confirm(s, codeFor(second.secret))).status).toBe(200)
    expect(await status(s.client)).toMatchObject({ enabled: true })
  })

  it("refuses a signed-out caller with 401 JSON on every route", async () => {
    const s = await enrolSetup(MemoryAdapter(), strategy)
    for (const path of ["two-factor/totp", "two-factor/totp/confirm", "two-factor/recovery-codes", "two-factor/disable"]) {
      const refused = await postJson(s.client, path, { code: "123456" })
      expect(refused.status, path).toBe(401)
      expect(await refused.json()).toMatchObject({ error: "SessionRequired" })
    }
    const read = await s.client.get("two-factor/status")
    expect(read.status).toBe(401)
    expect(await read.json()).toMatchObject({ error: "SessionRequired" })
    expect(await s.adapter.getTwoFactor(s.uid)).toBeNull()
  })

  it("needs a recent second factor to enrol again once a factor is enabled", async () => {
    const { s, secret } = await enrolledUser(MemoryAdapter(), strategy)
    laterThanFreshAge()
    const refused = await postJson(s.client, "two-factor/totp")
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({ error: "RecentAuthRequired" })
    expect((await s.adapter.getTwoFactor(s.uid))?.totpPendingSecret).toBeNull()
    const fresh = await freshClient(s, secret)
    expect((await postJson(fresh, "two-factor/totp")).status).toBe(200)
  })
})

describe.each(["jwt", "database"] as const)("%s sessions: a stale session of an enrolled user cannot replace the factor through totp/confirm", (strategy) => {
  it("gets no new secret from a confirm form post (no ref, a made-up ref) or JSON, and changes nothing", async () => {
    const { s, secret } = await enrolledUser(MemoryAdapter(), strategy)
    laterThanFreshAge()
    const before = await s.adapter.getTwoFactor(s.uid)
    const authenticationOf = async () => ((await s.client.session()) as { authentication?: unknown }).authentication
    const authenticationBefore = await authenticationOf()
    expect(authenticationBefore).toMatchObject({ aal: 2 })
    // The route that starts an enrolment refuses this session...
    expect((await postJson(s.client, "two-factor/totp")).status).toBe(403)
    // ...and so does the confirm route, whatever the form carries: it starts no enrolment itself.
    const tries: Record<string, string>[] = [{ code: "000000" }, { code: "000000", ref: "0".repeat(32) }, { code: codeFor(secret) }]
    for (const fields of tries) {
      const posted = await s.client.postForm("two-factor/totp/confirm", { csrfToken: await s.client.csrfToken(), ...fields })
      expect(posted.status, JSON.stringify(fields)).not.toBe(200)
      const body = await posted.text()
      expect(body).not.toContain("otpauth://")
      expect(body).not.toContain("totp-secret")
    }
    const json = await postJson(s.client, "two-factor/totp/confirm", { code: "000000" })
    expect(json.status).toBe(403)
    expect(await json.json()).toEqual({ error: "RecentAuthRequired" })

    const after = await s.adapter.getTwoFactor(s.uid)
    expect(after).toEqual(before)
    expect(after?.totpPendingSecret ?? null).toBeNull()
    expect(s.events.twoFactorEnabled).toHaveBeenCalledTimes(1)
    // The session was not raised: disabling without a code is still refused.
    expect(await authenticationOf()).toEqual(authenticationBefore)
    expect((await postJson(s.client, "two-factor/disable")).status).toBe(403)
  })

  it("cannot confirm an enrolment the owner started from a fresh session", async () => {
    const { s, secret } = await enrolledUser(MemoryAdapter(), strategy)
    const fresh = await freshClient(s, secret)
    const started = await begin(s, fresh)
    laterThanFreshAge()
    const refused = await confirm(s, codeFor(started.secret))
    expect(refused.status).toBe(403)
    expect(await refused.json()).toEqual({ error: "RecentAuthRequired" })
    expect((await s.adapter.getTwoFactor(s.uid))?.totpPendingSecret).toBeTruthy()
    expect(s.events.twoFactorEnabled).toHaveBeenCalledTimes(1)
  })

  it("the confirmTotp server function refuses it too", async () => {
    const { s } = await enrolledUser(MemoryAdapter(), strategy)
    laterThanFreshAge()
    const request = new Request(`${ORIGIN}/account`, { headers: { cookie: s.client.jar.header() } })
    await expect(confirmTotp(request, s.config, "000000")).rejects.toMatchObject({ type: "RecentAuthRequired" })
  })
})

describe("form posts from a signed-in user's own page", () => {
  it("get the enrolment page, the page again after a wrong code, then the codes page linking to the callback URL", async () => {
    const s = await enrolSetup(MemoryAdapter(), "database")
    await s.signIn()
    const settings = `${ORIGIN}/settings`
    const started = await s.client.postForm("two-factor/totp", { csrfToken: await s.client.csrfToken(), callbackUrl: settings })
    expect(started.status).toBe(200)
    expect(started.headers.get("content-type")).toContain("text/html")
    const page = readEnrolPage(await started.text())
    const post = (code: string) => s.client.postForm("two-factor/totp/confirm", { csrfToken: page.csrfToken, ref: page.ref, callbackUrl: settings, code })
    const wrong = await post(wrongCodeFor(page.secret))
    const again = await wrong.text()
    expect(again).toContain('role="alert"')
    expect(readEnrolPage(again).secret).toBe(page.secret)
    expect(await status(s.client)).toMatchObject({ enabled: false })
    const done = await post(codeFor(page.secret))
    const html = await done.text()
    expect(readRecoveryCodes(html)).toHaveLength(10)
    expect(html).toContain(`href="${settings}"`)
    expect(await status(s.client)).toMatchObject({ enabled: true })
  })
})

describe("a confirm form post whose enrolment is no longer the one under way", () => {
  it("starts nothing itself: it sends the browser to the two-factor page, which offers to start again", async () => {
    const s = await enrolSetup(MemoryAdapter(), "database")
    await s.signIn()
    const settings = `${ORIGIN}/settings`
    const first = readEnrolPage(await (await s.client.postForm("two-factor/totp", { csrfToken: await s.client.csrfToken(), callbackUrl: settings })).text())
    const second = readEnrolPage(await (await s.client.postForm("two-factor/totp", { csrfToken: await s.client.csrfToken(), callbackUrl: settings })).text())
    const pendingBefore = (await s.adapter.getTwoFactor(s.uid))?.totpPendingSecret
    const stale = await s.client.postForm("two-factor/totp/confirm", { csrfToken: first.csrfToken, ref: first.ref, callbackUrl: settings, code: codeFor(first.secret) })
    expect(stale.status).toBe(302)
    const location = new URL(stale.headers.get("location")!)
    expect(`${location.origin}${location.pathname}`).toBe(TWO_FACTOR_PAGE)
    expect(location.searchParams.get("error")).toBe("TwoFactorEnrolmentRestarted")
    expect(location.searchParams.get("callbackUrl")).toBe(settings)
    // Nothing was started by the confirm: the second enrolment is still the one under way.
    expect((await s.adapter.getTwoFactor(s.uid))?.totpPendingSecret).toBe(pendingBefore)
    const page = await (await s.client.get(`two-factor${location.search}`)).text()
    expect(page).toContain("The setup was started again elsewhere")
    expect(page).not.toContain("totp-secret")
    expect((await s.adapter.getTwoFactor(s.uid))?.totpPendingSecret).toBe(pendingBefore)
    expect(second.secret).toBeTruthy()
  })
})

describe("GET two-factor for a signed-in user without a factor", () => {
  it("begins nothing (an enrolment under way survives it); its button posts, with the CSRF token, to start one", async () => {
    const s = await enrolSetup(MemoryAdapter(), "database")
    await s.signIn()
    const settings = `${ORIGIN}/settings`
    const first = await s.client.get(`two-factor?callbackUrl=${encodeURIComponent(settings)}`)
    expect(first.status).toBe(200)
    expect(first.headers.get("cache-control")).toContain("no-store")
    const html = await first.text()
    expect(html).not.toContain("totp-secret")
    expect(html).not.toContain("otpauth://")
    expect(await s.adapter.getTwoFactor(s.uid)).toBeNull()
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1]
    expect(action).toBe(`${ORIGIN}/auth/two-factor/totp`)
    const csrfToken = /name="csrfToken" value="([^"]+)"/.exec(html)?.[1]
    expect(csrfToken).toBeTruthy()
    expect(html).toContain(`name="callbackUrl" value="${settings}"`)

    // The button: the enrolment page, and the key it shows survives another GET (a link from elsewhere).
    const started = readEnrolPage(await (await s.client.postForm("two-factor/totp", { csrfToken: csrfToken!, callbackUrl: settings })).text())
    const pending = (await s.adapter.getTwoFactor(s.uid))?.totpPendingSecret
    expect(pending).toBeTruthy()
    await s.client.get("two-factor")
    expect((await s.adapter.getTwoFactor(s.uid))?.totpPendingSecret).toBe(pending)
    const done = await s.client.postForm("two-factor/totp/confirm", { csrfToken: started.csrfToken, ref: started.ref, callbackUrl: settings, code: codeFor(started.secret) })
    expect(readRecoveryCodes(await done.text())).toHaveLength(10)
  })
})

describe.each(["jwt", "database"] as const)("%s sessions: recovery codes and disabling", (strategy) => {
  it("regenerates recovery codes only after a recent second factor; the old set stops working", async () => {
    const { s, secret, recoveryCodes: old } = await enrolledUser(MemoryAdapter(), strategy)
    laterThanFreshAge()
    const stale = await postJson(s.client, "two-factor/recovery-codes")
    expect(stale.status).toBe(403)
    expect(await stale.json()).toMatchObject({ error: "RecentAuthRequired" })

    const fresh = await freshClient(s, secret)
    const regenerated = await postJson(fresh, "two-factor/recovery-codes")
    expect(regenerated.status).toBe(200)
    const { recoveryCodes } = (await regenerated.json()) as { recoveryCodes: string[] }
    expect(recoveryCodes).toHaveLength(10)
    expect(recoveryCodes.filter((code) => old.includes(code))).toEqual([])
    expect(await status(fresh)).toMatchObject({ recoveryCodesLeft: 10 })
    expect(s.notify.mock.calls.at(-1)).toEqual([{ user: expect.objectContaining({ id: s.uid }), change: "recovery-codes-regenerated" }])

    // At sign-in: an old code is refused, a new one finishes it.
    const next = new Client(s.config)
    await s.signIn(next)
    const oldTried = await next.postForm("two-factor", { csrfToken: await next.csrfToken(), code: old[0]!, method: "recovery" })
    expect(oldTried.headers.get("location")).toBe(`${TWO_FACTOR_PAGE}?error=InvalidTwoFactorCode`)
    const newTried = await next.postForm("two-factor", { csrfToken: await next.csrfToken(), code: recoveryCodes[0]!, method: "recovery" })
    expect(newTried.headers.get("location")).toBe(DASHBOARD)
  })

  it("answers TwoFactorNotEnrolled (409) to regenerating or disabling when nothing is enabled", async () => {
    const s = await enrolSetup(MemoryAdapter(), strategy)
    await s.signIn()
    for (const path of ["two-factor/recovery-codes", "two-factor/disable"]) {
      const refused = await postJson(s.client, path)
      expect(refused.status, path).toBe(409)
      expect(await refused.json()).toMatchObject({ error: "TwoFactorNotEnrolled" })
    }
  })

  it("disables only with a recent second factor or a right current code", async () => {
    const { s, secret } = await enrolledUser(MemoryAdapter(), strategy)
    laterThanFreshAge()
    const stale = await postJson(s.client, "two-factor/disable")
    expect(stale.status).toBe(403)
    expect(await stale.json()).toMatchObject({ error: "RecentAuthRequired" })
    const wrong = await postJson(s.client, "two-factor/disable", { code: wrongCodeFor(secret) })
    expect(wrong.status).toBe(400)
    expect(await wrong.json()).toMatchObject({ error: "InvalidTwoFactorCode" })
    expect(await status(s.client)).toMatchObject({ enabled: true })
    expect(s.events.twoFactorDisabled).not.toHaveBeenCalled()

    const disabled = await postJson(s.client, "two-factor/disable", { code: codeFor(secret) })
    expect(disabled.status).toBe(200)
    expect(await disabled.json()).toEqual({ enabled: false })
    expect(await status(s.client)).toEqual({ enabled: false, methods: [], enabledAt: null, recoveryCodesLeft: 0 })
    expect(s.events.twoFactorDisabled.mock.calls).toEqual([[{ user: expect.objectContaining({ id: s.uid }) }]])
    expect(s.notify.mock.calls.at(-1)).toEqual([{ user: expect.objectContaining({ id: s.uid }), change: "disabled" }])
    // The next sign-in needs the password alone again.
    expect((await s.signIn(new Client(s.config))).headers.get("location")).toBe(DASHBOARD)
  })

  it("disables with a recent second factor and no code", async () => {
    const { s, secret } = await enrolledUser(MemoryAdapter(), strategy)
    const fresh = await freshClient(s, secret)
    const disabled = await postJson(fresh, "two-factor/disable")
    expect(disabled.status).toBe(200)
    expect(await s.adapter.getTwoFactor(s.uid)).toBeNull()
  })

  it("answers a browser's plain form (no callbackUrl) with a redirect, never a JSON body", async () => {
    const { s, secret } = await enrolledUser(MemoryAdapter(), strategy)
    const fresh = await freshClient(s, secret)
    const disabled = await fresh.postForm("two-factor/disable", { csrfToken: await fresh.csrfToken() })
    expect(disabled.status).toBe(302)
    expect(disabled.headers.get("content-type") ?? "").not.toContain("json")
    expect(await s.adapter.getTwoFactor(s.uid)).toBeNull()
  })
})

describe.each(["jwt", "database"] as const)("%s sessions: a browser's form refused for want of a second factor", (strategy) => {
  it("goes to the step-up page (RecentAuthRequired, with its callback URL), never a JSON body", async () => {
    const { s } = await enrolledUser(MemoryAdapter(), strategy)
    laterThanFreshAge()
    const settings = `${ORIGIN}/settings`
    const refused = await s.client.postForm("two-factor/recovery-codes", { csrfToken: await s.client.csrfToken(), callbackUrl: settings })
    expect(refused.status).toBe(302)
    expect(refused.headers.get("location")).toBe(`${TWO_FACTOR_PAGE}?error=RecentAuthRequired&callbackUrl=${encodeURIComponent(settings)}`)
    const page = await (await s.client.get(`two-factor?error=RecentAuthRequired&callbackUrl=${encodeURIComponent(settings)}`)).text()
    expect(page).toContain("confirm it is you")
    expect(page).toContain(`value="${settings}"`)
    // A navigation that asks for HTML is a browser's too, whatever else it accepts.
    const navigated = await s.client.postForm("two-factor/disable", { csrfToken: await s.client.csrfToken() }, { accept: "text/html,application/json;q=0.9" })
    expect(navigated.headers.get("location")).toBe(`${TWO_FACTOR_PAGE}?error=RecentAuthRequired`)
    // A script asking for JSON gets the type alone.
    const script = await s.client.postForm("two-factor/recovery-codes", { csrfToken: await s.client.csrfToken() }, { accept: "application/json" })
    expect(script.status).toBe(403)
    expect(await script.json()).toEqual({ error: "RecentAuthRequired" })
  })

  it("goes to the two-factor page with TwoFactorNotEnrolled when there is nothing to regenerate", async () => {
    const s = await enrolSetup(MemoryAdapter(), strategy)
    await s.signIn()
    const refused = await s.client.postForm("two-factor/recovery-codes", { csrfToken: await s.client.csrfToken() })
    expect(refused.headers.get("location")).toBe(`${TWO_FACTOR_PAGE}?error=TwoFactorNotEnrolled`)
    expect(await (await s.client.get("two-factor?error=TwoFactorNotEnrolled")).text()).toContain("not set up for this account yet")
  })
})

describe("server functions", () => {
  const requestOf = (client: Client) => new Request(`${ORIGIN}/account`, { headers: { cookie: client.jar.header() } })

  it("enrol, confirm, read the status, regenerate and disable for the request's session", async () => {
    const s = await enrolSetup(MemoryAdapter(), "jwt")
    await s.signIn()
    expect(await twoFactorStatus(requestOf(s.client), s.config)).toMatchObject({ enabled: false })

    const enrolment = await enrollTotp(requestOf(s.client), s.config)
    expect(enrolment.uri).toMatch(/^otpauth:\/\/totp\//)
    expect(Object.keys(enrolment).sort()).toEqual(["qr", "secret", "uri"])
    await expect(confirmTotp(requestOf(s.client), s.config, wrongCodeFor(enrolment.secret))).rejects.toMatchObject({ type: "InvalidTwoFactorCode" })
    const confirmed = await confirmTotp(requestOf(s.client), s.config, codeFor(enrolment.secret))
    expect(confirmed.recoveryCodes).toHaveLength(10)
    expect(Array.isArray(confirmed.setCookies)).toBe(true)
    expect(await twoFactorStatus(requestOf(s.client), s.config)).toMatchObject({ enabled: true, recoveryCodesLeft: 10 })
    expect(s.events.twoFactorEnabled).toHaveBeenCalledTimes(1)

    laterThanFreshAge()
    await expect(regenerateRecoveryCodes(requestOf(s.client), s.config)).rejects.toMatchObject({ type: "RecentAuthRequired" })
    await expect(disableTwoFactor(requestOf(s.client), s.config)).rejects.toMatchObject({ type: "RecentAuthRequired" })
    vi.useRealTimers()

    const fresh = await freshClient(s, enrolment.secret)
    const { recoveryCodes } = await regenerateRecoveryCodes(requestOf(fresh), s.config)
    expect(recoveryCodes.filter((code) => confirmed.recoveryCodes.includes(code))).toEqual([])
    await disableTwoFactor(requestOf(fresh), s.config)
    expect(await twoFactorStatus(requestOf(fresh), s.config)).toMatchObject({ enabled: false })
    expect(s.events.twoFactorDisabled).toHaveBeenCalledTimes(1)
  })

  it("refuses a request without a session", async () => {
    const s = await enrolSetup(MemoryAdapter(), "jwt")
    const signedOut = new Request(`${ORIGIN}/account`)
    await expect(enrollTotp(signedOut, s.config)).rejects.toMatchObject({ type: "SessionRequired" })
    await expect(twoFactorStatus(signedOut, s.config)).rejects.toMatchObject({ type: "SessionRequired" })
  })
})

describe("on the SQLite adapter", () => {
  it("enrols, signs in with the app's code, regenerates and disables", async () => {
    const db = new Database(":memory:")
    try {
      const { s, secret, recoveryCodes } = await enrolledUser(SQLiteAdapter(db), "database")
      expect(await status(s.client)).toMatchObject({ enabled: true, recoveryCodesLeft: recoveryCodes.length })
      const fresh = await freshClient(s, secret)
      expect(fresh.jar.get(SESSION)).toBeTruthy()
      const regenerated = await postJson(fresh, "two-factor/recovery-codes")
      expect(regenerated.status).toBe(200)
      expect((await postJson(fresh, "two-factor/disable")).status).toBe(200)
      expect(await status(fresh)).toMatchObject({ enabled: false })
    } finally {
      db.close()
    }
  })
})

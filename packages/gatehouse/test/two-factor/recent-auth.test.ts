/**
 * The account routes and functions ask a user with a second factor for a recent check of it
 * (`twoFactor.freshAge`) before ending sessions, unlinking or linking accounts, or adding a
 * passkey: a stale session gets 403 `RecentAuthRequired` and changes nothing, and passes once it
 * stepped up. Users with no factor, and applications without `twoFactor`, see no change.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { revokeOtherSessions, revokeSession, unlinkAccount } from "../../src/index.js"
import { Passkey } from "../../src/providers/passkey.js"
import type { AuthConfig } from "../../src/types.js"
import { Client } from "../flow/flow-helpers.js"
import { FRESH_AGE_MS, ORIGIN, SESSION, moveClock, signedInApp, stores, totpNow, type Store } from "./signed-in-app.js"

afterEach(() => {
  vi.useRealTimers()
})

const GITHUB = { id: "github", name: "GitHub", type: "oauth", clientId: "id", clientSecret: "secret", authorization: "https://gh.test/a", token: "https://gh.test/t", userinfo: "https://gh.test/u" } as const
const GITHUB_ACCOUNT = { provider: "github", providerAccountId: "gh-ada", type: "oauth" } as const

async function app(store: Store, extra: Partial<AuthConfig> = {}, twoFactor = true) {
  const made = await signedInApp(store, { ...extra, providers: [GITHUB, ...(extra.providers ?? [])] }, twoFactor)
  await made.adapter.linkAccount({ ...GITHUB_ACCOUNT, userId: made.uid })
  return made
}

type App = Awaited<ReturnType<typeof app>>

const refusal = async (response: Response) => ({ status: response.status, body: (await response.json()) as { error: string } })

async function unlink(made: App, on: Client = made.client): Promise<Response> {
  return on.postForm("accounts", { csrfToken: await on.csrfToken(), unlink: "github", providerAccountId: GITHUB_ACCOUNT.providerAccountId })
}

async function link(made: App): Promise<Response> {
  return made.client.postForm("link/github", { csrfToken: await made.client.csrfToken(), callbackUrl: `${ORIGIN}/account` })
}

/** The other device's session id (database sessions). */
async function otherSessionId(made: App): Promise<string> {
  const { sessions } = (await (await made.client.get("sessions")).json()) as { sessions: { id: string; current: boolean }[] }
  return sessions.find((session) => !session.current)!.id
}

describe.each(stores)("$name: the account routes and a stale second factor", (store) => {
  it("refuse revokeOthers, revoke, unlink and link with 403 RecentAuthRequired past freshAge, changing nothing; pass after a step-up", async () => {
    const made = await app(store)
    try {
      // Another device, signed in before the factor was enabled.
      const phone = new Client(made.config)
      await made.signIn(phone)
      const key = await made.enrol()
      await made.signIn()
      const otherId = store.strategy === "database" ? await otherSessionId(made) : undefined
      moveClock(FRESH_AGE_MS + 1_000)

      const stale = { status: 403, body: expect.objectContaining({ error: "RecentAuthRequired" }) }
      expect(await refusal(await made.revokeOthers())).toEqual(stale)
      if (otherId) expect(await refusal(await made.client.postForm("sessions", { csrfToken: await made.client.csrfToken(), revoke: otherId }))).toEqual(stale)
      expect(await refusal(await unlink(made))).toEqual(stale)
      // The link form is a browser's: it goes to the step-up page, back to where it came from after.
      expect((await link(made)).headers.get("location")).toBe(`${ORIGIN}/auth/two-factor?error=RecentAuthRequired&callbackUrl=${encodeURIComponent(`${ORIGIN}/account`)}`)
      expect(await refusal(await made.client.postJson("link/github", { csrfToken: await made.client.csrfToken() }))).toEqual({ status: 403, body: { error: "RecentAuthRequired" } })
      expect(await made.adapter.listAccountsByUserId(made.uid)).toHaveLength(1)
      if (store.strategy === "database") expect(await made.adapter.listSessionsByUserId(made.uid)).toHaveLength(2)
      expect(await made.authentication(phone)).toMatchObject({ aal: 1 })

      expect((await made.stepUp({ code: totpNow(key) })).status).toBe(302)
      expect((await link(made)).headers.get("location")).toMatch(/^https:\/\/gh\.test\/a\?/)
      expect((await unlink(made)).status).toBe(200)
      expect(await made.adapter.listAccountsByUserId(made.uid)).toHaveLength(0)
      if (otherId) expect((await made.client.postForm("sessions", { csrfToken: await made.client.csrfToken(), revoke: otherId })).status).toBe(200)
      expect((await made.revokeOthers()).status).toBe(200)
      if (store.strategy === "database") expect(await made.adapter.listSessionsByUserId(made.uid)).toHaveLength(1)
      // The step-up's own session goes on at aal 2.
      expect(await made.authentication()).toMatchObject({ aal: 2 })
    } finally {
      made.close()
    }
  })

  it("pass at once after a sign-in with the second factor (within freshAge)", async () => {
    const made = await app(store)
    try {
      await made.enrol()
      await made.signIn()
      moveClock(FRESH_AGE_MS - 5_000)
      expect((await unlink(made)).status).toBe(200)
    } finally {
      made.close()
    }
  })

  it("refuse an enrolled user's aal 1 session (signed in before enrolling) until it steps up", async () => {
    const made = await app(store)
    try {
      await made.signIn()
      const key = await made.enrol()
      expect((await made.revokeOthers()).status).toBe(403)
      await made.stepUp({ code: totpNow(key) })
      expect((await made.revokeOthers()).status).toBe(200)
    } finally {
      made.close()
    }
  })

  it("leave users with no second factor alone, however old the session", async () => {
    const made = await app(store)
    try {
      await made.signIn()
      moveClock(FRESH_AGE_MS * 10)
      expect((await made.revokeOthers()).status).toBe(200)
      expect((await link(made)).status).toBe(302)
      expect((await unlink(made)).status).toBe(200)
    } finally {
      made.close()
    }
  })

  it("change nothing without twoFactor configured", async () => {
    const made = await app(store, {}, false)
    try {
      await made.signIn()
      moveClock(FRESH_AGE_MS * 10)
      expect((await made.revokeOthers()).status).toBe(200)
      expect((await unlink(made)).status).toBe(200)
    } finally {
      made.close()
    }
  })

  it("refuse passkey registration options while signed in with a stale second factor; give them after a step-up", async () => {
    const made = await app(store, { experimental: { enableWebAuthn: true }, providers: [Passkey()] })
    try {
      const key = await made.enrol()
      await made.signIn()
      moveClock(FRESH_AGE_MS + 1_000)
      const refused = await made.client.get("webauthn-options/passkey?action=register")
      expect(await refusal(refused)).toEqual({ status: 403, body: expect.objectContaining({ error: "RecentAuthRequired" }) })
      expect(refused.headers.getSetCookie().some((line) => line.includes("challenge"))).toBe(false)
      // Signing in with a passkey is no account change: its options stay available.
      expect((await made.client.get("webauthn-options/passkey?action=authenticate")).status).toBe(200)
      await made.stepUp({ code: totpNow(key) })
      const given = await made.client.get("webauthn-options/passkey?action=register")
      expect(given.status).toBe(200)
      expect(((await given.json()) as { action: string }).action).toBe("register")
    } finally {
      made.close()
    }
  })
})

describe.each(stores)("$name: the account server functions and a stale second factor", (store) => {
  const requestOf = (client: Client) => new Request(`${ORIGIN}/settings`, { headers: { cookie: client.jar.header() } })

  it("revokeOtherSessions, revokeSession and unlinkAccount throw RecentAuthRequired, changing nothing; pass after a step-up", async () => {
    const made = await app(store)
    try {
      // Another device, signed in before the factor was enabled.
      const phone = new Client(made.config)
      await made.signIn(phone)
      const key = await made.enrol()
      await made.signIn()
      const otherId = store.strategy === "database" ? await otherSessionId(made) : undefined
      moveClock(FRESH_AGE_MS + 1_000)

      await expect(revokeOtherSessions(requestOf(made.client), made.config)).rejects.toMatchObject({ type: "RecentAuthRequired" })
      if (otherId) await expect(revokeSession(requestOf(made.client), made.config, otherId)).rejects.toMatchObject({ type: "RecentAuthRequired" })
      await expect(unlinkAccount(requestOf(made.client), made.config, GITHUB_ACCOUNT)).rejects.toMatchObject({ type: "RecentAuthRequired" })
      expect(await made.adapter.listAccountsByUserId(made.uid)).toHaveLength(1)
      if (store.strategy === "database") expect(await made.adapter.listSessionsByUserId(made.uid)).toHaveLength(2)

      await made.stepUp({ code: totpNow(key) })
      await unlinkAccount(requestOf(made.client), made.config, GITHUB_ACCOUNT)
      expect(await made.adapter.listAccountsByUserId(made.uid)).toHaveLength(0)
      const { setCookies } = await revokeOtherSessions(requestOf(made.client), made.config)
      if (store.strategy === "jwt") expect(setCookies.some((line) => line.startsWith(`${SESSION}=`))).toBe(true)
      else expect(await made.adapter.listSessionsByUserId(made.uid)).toHaveLength(1)
    } finally {
      made.close()
    }
  })
})

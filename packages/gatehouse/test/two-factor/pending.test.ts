/**
 * The pending sign-in cookie: what it holds comes back only under the same secret and cookie,
 * unchanged and within 5 minutes; large payloads chunk; rewrites keep its end; attempts and
 * spending are counted by its id, so a replayed cookie gains nothing.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import type { Cookie } from "../../src/cookies/defaults.js"
import { resolveConfig } from "../../src/core/config.js"
import { toInternalRequest } from "../../src/core/internal-request.js"
import { createRequestContext, type RequestContext } from "../../src/core/request-context.js"
import {
  PENDING_MAX_ATTEMPTS,
  clearPending,
  countAttempt,
  readPending,
  spendPending,
  startPending,
  writePending,
  type PendingSignInInput,
} from "../../src/core/two-factor/pending.js"
import { encode } from "../../src/jwt/index.js"
import type { AuthConfig } from "../../src/types.js"

const SECRET = "pending-secret-pending-secret-pending-secret"
const baseConfig: AuthConfig = { secret: SECRET, trustHost: true, providers: [] }

const input: PendingSignInInput = {
  uid: "user-1",
  mode: "challenge",
  isNewUser: false,
  firstAmr: ["pwd"],
  account: null,
  next: "http://app.test/dashboard",
}

async function context(cookies: Cookie[] = [], config: AuthConfig = baseConfig, origin = "http://app.test"): Promise<RequestContext> {
  const header = cookies.filter((cookie) => cookie.value !== "").map((cookie) => `${cookie.name}=${encodeURIComponent(cookie.value)}`).join("; ")
  const request = new Request(`${origin}/auth/signin`, { headers: header ? { cookie: header } : {} })
  return createRequestContext(resolveConfig(config), await toInternalRequest(request, "/auth"))
}

afterEach(() => {
  vi.useRealTimers()
})

describe("the pending sign-in cookie", () => {
  it("holds what the first factor established, and reads it back", async () => {
    const { pending, cookies } = await startPending(await context(), input)
    expect(pending.pid).toMatch(/^[0-9a-f]{32}$/)
    const read = await readPending(await context(cookies))
    expect(read).toEqual(pending)
    expect(read).toMatchObject(input)
  })

  it("carries every user it holds as JSON can (a BigInt as text) and gives their emailVerified back as a Date", async () => {
    const verified = new Date("2026-01-02T03:04:05.000Z")
    const user = { id: "user-1", email: "a@app.test", emailVerified: verified, legacyId: 12345678901234567890n } as never
    const deferredLink = { account: { provider: "idp", providerAccountId: "a", type: "oidc" as const }, user: { id: "p", email: "a@app.test", emailVerified: verified } as never }
    const { pending, cookies } = await startPending(await context(), { ...input, user, eventUser: user, deferredLink })
    const read = (await readPending(await context(cookies)))!
    expect(read).toEqual(pending)
    for (const carried of [read.user, read.eventUser, read.deferredLink!.user]) expect((carried as { emailVerified: unknown }).emailVerified).toEqual(verified)
    expect((read.user as { legacyId?: unknown }).legacyId).toBe("12345678901234567890")
  })

  it("is authjs.two-factor, httpOnly, lax, 5 minutes, __Secure- on https, and sets no session cookie", async () => {
    const now = Date.now()
    const { pending, cookies } = await startPending(await context([], baseConfig, "https://app.test"), input)
    expect(cookies).toHaveLength(1)
    const [cookie] = cookies as [Cookie]
    expect(cookie.name).toBe("__Secure-authjs.two-factor")
    expect(cookie.options).toMatchObject({ httpOnly: true, sameSite: "lax", secure: true, path: "/", maxAge: 300 })
    expect(cookie.options.expires!.getTime()).toBeLessThanOrEqual(now + 300_000 + 1000)
    expect(pending.exp).toBeLessThanOrEqual(Math.floor(now / 1000) + 300 + 1)
    const plain = await startPending(await context(), input)
    expect(plain.cookies.map((c) => c.name)).toEqual(["authjs.two-factor"])
  })

  it("chunks a large profile like the session cookie and reads it back whole", async () => {
    const profile = { sub: "x", bio: "y".repeat(6000) }
    const { pending, cookies } = await startPending(await context(), { ...input, profile })
    expect(cookies.length).toBeGreaterThan(1)
    expect(cookies.map((c) => c.name)).toEqual(cookies.map((_, i) => `authjs.two-factor.${i}`))
    expect((await readPending(await context(cookies)))?.profile).toEqual(pending.profile)
  })

  it("is gone after 5 minutes", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const { cookies } = await startPending(await context(), input)
    vi.setSystemTime(Date.now() + 299_000)
    expect(await readPending(await context(cookies))).toBeDefined()
    vi.setSystemTime(Date.now() + 2_000)
    expect(await readPending(await context(cookies))).toBeUndefined()
  })

  it("keeps its end when rewritten, and is deleted when rewritten after it", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const { pending, cookies } = await startPending(await context(), input)
    vi.setSystemTime(Date.now() + 100_000)
    const rewritten = await writePending(await context(cookies), { ...pending, emailCode: { hash: "h", exp: pending.exp } })
    const read = await readPending(await context(rewritten))
    expect(read?.exp).toBe(pending.exp)
    expect(read?.pid).toBe(pending.pid)
    expect(read?.emailCode).toEqual({ hash: "h", exp: pending.exp })
    vi.setSystemTime(Date.now() + 250_000)
    const late = await writePending(await context(rewritten), pending)
    expect(late.every((cookie) => cookie.value === "" && cookie.options.maxAge === 0)).toBe(true)
  })

  it("reads as none when changed, under another secret, or from another cookie's token", async () => {
    const { cookies } = await startPending(await context(), input)
    const [cookie] = cookies as [Cookie]
    const changed = { ...cookie, value: cookie.value.slice(0, -3) + (cookie.value.endsWith("AAA") ? "BBB" : "AAA") }
    expect(await readPending(await context([changed]))).toBeUndefined()
    expect(await readPending(await context(cookies, { ...baseConfig, secret: "another-secret-another-secret-another" }))).toBeUndefined()
    const session = await encode({ token: { ...input, v: 1, pid: "0".repeat(32) }, secret: SECRET, salt: "authjs.session-token" })
    expect(await readPending(await context([{ ...cookie, value: session }]))).toBeUndefined()
  })

  it("reads as none when its claims are not a pending sign-in's", async () => {
    for (const token of [{ ...input, v: 2, pid: "0".repeat(32) }, { ...input, v: 1 }, { ...input, v: 1, pid: "0".repeat(32), mode: "skip" }, { v: 1, pid: "0".repeat(32) }]) {
      const value = await encode({ token, secret: SECRET, salt: "authjs.two-factor" })
      expect(await readPending(await context([{ name: "authjs.two-factor", value, options: {} }]))).toBeUndefined()
    }
  })

  it("opens under a rotated secret list", async () => {
    const { pending, cookies } = await startPending(await context(), input)
    expect(await readPending(await context(cookies, { ...baseConfig, secret: ["a-newer-secret-a-newer-secret-xx", SECRET] }))).toEqual(pending)
  })

  it("is deleted chunk by chunk", async () => {
    const { cookies } = await startPending(await context(), { ...input, profile: { bio: "y".repeat(6000) } })
    const deletions = clearPending(await context(cookies))
    expect(cookies.length).toBeGreaterThan(1)
    expect(deletions.map((c) => [c.name, c.value, c.options.maxAge])).toEqual(cookies.map((c) => [c.name, "", 0]))
  })

  it(`allows ${PENDING_MAX_ATTEMPTS} tries per pending id, whatever cookie copy they come with`, async () => {
    const ctx = await context()
    const { pending } = await startPending(ctx, input)
    for (let i = 1; i <= PENDING_MAX_ATTEMPTS; i++) expect(await countAttempt(ctx, pending.pid)).toEqual({ count: i, allowed: true })
    expect((await countAttempt(ctx, pending.pid)).allowed).toBe(false)
    const other = await startPending(ctx, input)
    expect((await countAttempt(ctx, other.pending.pid)).allowed).toBe(true)
  })

  it("is spent once: a replay or a second submit finds it spent", async () => {
    const ctx = await context()
    const { pending } = await startPending(ctx, input)
    const [first, second] = await Promise.all([spendPending(ctx, pending.pid), spendPending(ctx, pending.pid)])
    expect([first, second].sort()).toEqual([false, true])
    expect(await spendPending(ctx, pending.pid)).toBe(false)
  })
})

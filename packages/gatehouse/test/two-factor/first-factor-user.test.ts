/**
 * After the second factor the session is built from the user the first factor gave (issue 37,
 * review round B): fields `authorize` returned beyond the stored user (`role`) reach the `jwt`
 * callback and the `signIn` event as they would have without a second factor. A Credentials user
 * the adapter does not store cannot wait for a second factor: refused at once, typed.
 */
import { describe, expect, it, vi } from "vitest"
import type { AdapterUser } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Credentials } from "../../src/providers/credentials.js"
import type { AuthConfig, JWTCallbackParams, SessionStrategy } from "../../src/types.js"
import { Client, recordingLogger, secret } from "../flow/flow-helpers.js"
import { DASHBOARD, ORIGIN, PENDING, SESSION, TWO_FACTOR_PAGE, enrol, totpNow, type Adapted } from "./bypass-matrix-helpers.js"

async function setup(strategy: SessionStrategy, options: { storedId?: boolean; require?: "enrolled" | "always"; extra?: Record<string, unknown> } = {}) {
  const adapter = MemoryAdapter() as Adapted
  const { id: uid } = await adapter.createUser({ id: "", name: "Ada", email: "ada@app.test", emailVerified: null } as AdapterUser)
  const id = options.storedId === false ? "not-stored" : uid
  const jwt = vi.fn(({ token, user }: JWTCallbackParams) => (user ? { ...token, role: (user as { role?: string }).role } : token))
  const signInEvent = vi.fn((_message: unknown) => {})
  const config: AuthConfig = {
    secret,
    trustHost: true,
    logger: recordingLogger().logger,
    adapter,
    session: { strategy },
    providers: [
      Credentials({
        credentials: { password: {} },
        authorize: ({ password }) => (password === "correct horse" ? { id, name: "Ada", email: "ada@app.test", role: "admin", ...options.extra } : null),
        rateLimit: false,
      }),
    ],
    twoFactor: { totp: { issuer: "Gatehouse tests" }, require: options.require ?? "enrolled", notify: false },
    callbacks: { jwt },
    events: { signIn: signInEvent },
  }
  const client = new Client(config, ORIGIN)
  return { adapter, uid, client, jwt, signInEvent, signIn: () => client.signIn({ password: "correct horse", callbackUrl: DASHBOARD }) }
}

describe.each(["jwt", "database"] as const)("%s sessions: the first factor's user after the second factor", (strategy) => {
  it("the jwt callback and the signIn event see what authorize returned (role), not only the stored user", async () => {
    const s = await setup(strategy)
    const key = await enrol(s.adapter, s.uid)
    expect((await s.signIn()).headers.get("location")).toBe(TWO_FACTOR_PAGE)
    const done = await s.client.postForm("two-factor", { csrfToken: await s.client.csrfToken(), code: totpNow(key) })
    expect(done.headers.get("location")).toBe(DASHBOARD)
    expect(s.signInEvent).toHaveBeenCalledTimes(1)
    expect(s.signInEvent.mock.calls[0]![0]).toMatchObject({ user: { id: s.uid, role: "admin" } })
    if (strategy === "jwt") {
      const atSignIn = s.jwt.mock.calls.find(([params]) => params.trigger === "signIn")
      expect(atSignIn?.[0].user).toMatchObject({ id: s.uid, role: "admin" })
      expect((await s.client.session()) as object).toBeTruthy()
    }
  })

  it("a user with a BigInt and a Date (a Prisma row) waits for its second factor; the jwt callback then gets the Date as a Date", async () => {
    const verified = new Date("2026-01-02T03:04:05.000Z")
    const s = await setup(strategy, { extra: { credit: 10n, emailVerified: verified } })
    const key = await enrol(s.adapter, s.uid)
    expect((await s.signIn()).headers.get("location")).toBe(TWO_FACTOR_PAGE)
    const done = await s.client.postForm("two-factor", { csrfToken: await s.client.csrfToken(), code: totpNow(key) })
    expect(done.headers.get("location")).toBe(DASHBOARD)
    const { user } = s.signInEvent.mock.calls[0]![0] as { user: { credit: unknown; emailVerified: unknown } }
    expect(user.credit).toBe("10")
    expect(user.emailVerified).toEqual(verified)
  })

  // Under database sessions such a user never signs in (no row to point at), with or without twoFactor.
  it("a Credentials user the adapter does not store, who must pass a second factor: refused at once (TwoFactorUnavailable under JWT)", async () => {
    const s = await setup(strategy, { storedId: false, require: "always" })
    const first = await s.signIn()
    expect(first.headers.get("location")).toBe(strategy === "jwt" ? `${ORIGIN}/auth/signin?error=TwoFactorUnavailable` : `${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials`)
    expect(s.client.jar.get(PENDING)).toBeUndefined()
    expect(s.client.jar.get(SESSION)).toBeUndefined()
    expect(s.signInEvent).not.toHaveBeenCalled()
  })
})

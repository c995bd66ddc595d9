/**
 * "Don't ask again on this browser" (`twoFactor.trustDevice`): a right code posted with
 * `trustDevice` sets the trust cookie, and the next sign-in in that browser skips the challenge at
 * aal 2, dated from the check that earned the trust; without the box ticked, or once the user's
 * trust version moved (every trusted browser forgotten), the challenge comes back.
 */
import { randomBytes } from "node:crypto"
import { afterEach, describe, expect, it, vi } from "vitest"
import type { Adapter, AdapterUser } from "../../src/adapters/index.js"
import { forgetTrustedBrowsers } from "../../src/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { sealTotpSecret } from "../../src/core/two-factor/secret-seal.js"
import { Credentials } from "../../src/providers/credentials.js"
import type { AuthConfig } from "../../src/types.js"
import { Client, recordingLogger, secret } from "../flow/flow-helpers.js"
import { totpAt } from "../support/totp-reference.js"

const ORIGIN = "https://app.test"
const SESSION = "__Secure-authjs.session-token"
const TRUST = "__Secure-authjs.two-factor-trust"
const DASHBOARD = `${ORIGIN}/dashboard`

type Adapted = Adapter & Required<Pick<Adapter, "setTotpPendingSecret" | "enableTotp" | "createUser" | "incrementTwoFactorTrustVersion" | "getTwoFactor">>

afterEach(() => {
  vi.useRealTimers()
})

describe.each(["jwt", "database"] as const)("%s sessions: a trusted browser", (strategy) => {
  async function app() {
    const adapter = MemoryAdapter() as Adapted
    const { id: uid } = await adapter.createUser({ id: "", name: "Ada", email: "ada@app.test", emailVerified: null } as AdapterUser)
    const key = new Uint8Array(randomBytes(20))
    const sealed = await sealTotpSecret({ secret: [secret] }, uid, key)
    await adapter.setTotpPendingSecret(uid, sealed)
    await adapter.enableTotp(uid, { sealed, step: Math.floor(Date.now() / 30_000) - 5, recoveryCodeHashes: [] })
    const config: AuthConfig = {
      secret,
      trustHost: true,
      logger: recordingLogger().logger,
      adapter,
      session: { strategy },
      providers: [
        Credentials({
          credentials: { username: {}, password: {} },
          authorize: ({ password }) => (password === "correct horse" ? { id: uid, name: "Ada", email: "ada@app.test" } : null),
          rateLimit: false,
        }),
      ],
      twoFactor: { totp: { issuer: "Gatehouse tests" }, trustDevice: { maxAge: 30 * 24 * 60 * 60 } },
    }
    const client = new Client(config)
    const signIn = () => client.signIn({ username: "ada", password: "correct horse", callbackUrl: DASHBOARD })
    const code = async (fields: Record<string, string> = {}) =>
      client.postForm("two-factor", { csrfToken: await client.csrfToken(), code: totpAt(key, Math.floor(Date.now() / 30_000)), ...fields })
    /** Ends the session in this browser, keeping its other cookies (the trust cookie among them). */
    const dropSession = () => client.jar.cookies.delete(SESSION)
    return { adapter, uid, client, signIn, code, dropSession }
  }

  it("skips the challenge at the next sign-in, at aal 2 dated from the trusted check", async () => {
    const { client, signIn, code, dropSession } = await app()
    await signIn()
    expect(await client.get("two-factor").then((page) => page.text())).toContain('name="trustDevice"')
    const trusted = await code({ trustDevice: "on" })
    expect(trusted.headers.get("location")).toBe(DASHBOARD)
    expect(client.jar.get(TRUST)).toBeTruthy()
    const first = ((await client.session()) as { authentication: { secondFactorAt: string } }).authentication

    dropSession()
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.now() + 60 * 60 * 1000)
    expect((await signIn()).headers.get("location")).toBe(DASHBOARD)
    const again = ((await client.session()) as { authentication: { aal: number; amr: string[]; secondFactorAt: string } }).authentication
    expect(again).toMatchObject({ aal: 2, amr: ["pwd", "otp", "mfa"] })
    // Dated from the check that earned the trust (to the second), not from this sign-in.
    expect(Math.abs(Date.parse(again.secondFactorAt) - Date.parse(first.secondFactorAt))).toBeLessThan(1_000)
  })

  it("asks again when the box was not ticked", async () => {
    const { client, signIn, code, dropSession } = await app()
    await signIn()
    await code()
    expect(client.jar.get(TRUST)).toBeUndefined()
    dropSession()
    expect((await signIn()).headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`)
  })

  it("asks again once the user forgot every trusted browser (forgetTrustedBrowsers raises the trust version)", async () => {
    const { adapter, uid, client, signIn, code, dropSession } = await app()
    await signIn()
    await code({ trustDevice: "on" })
    const versionBefore = (await adapter.getTwoFactor(uid))!.trustVersion
    // The signed-in user forgets their trusted browsers, from the app's own server code.
    await forgetTrustedBrowsers(new Request(`${ORIGIN}/settings`, { headers: { cookie: client.jar.header() } }), client.config)
    expect((await adapter.getTwoFactor(uid))!.trustVersion).toBe(versionBefore + 1)
    dropSession()
    expect((await signIn()).headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`)
    expect(client.jar.get(SESSION)).toBeUndefined()
  })

  it("forgetTrustedBrowsers needs a session", async () => {
    const { client } = await app()
    await expect(forgetTrustedBrowsers(new Request(`${ORIGIN}/settings`), client.config)).rejects.toMatchObject({ type: "SessionRequired" })
  })
})

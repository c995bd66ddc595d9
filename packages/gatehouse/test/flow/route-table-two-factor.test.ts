/**
 * The two-factor routes in the route table: not served (the app keeps its own paths) without
 * `twoFactor`; served with it; a second-factor error leads back to the second-factor page.
 * Until the sign-in core and management parts exist, the served routes refuse with UnknownAction.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth } from "../../src/core/handler.js"
import { InvalidTwoFactorCode, TwoFactorExpired, TwoFactorFailed } from "../../src/errors.js"
import type { Adapter, AuthConfig } from "../../src/types.js"
import { base, Client, credentialsConfig, recordingLogger } from "./flow-helpers.js"

const challenge = vi.hoisted(() => ({ throws: undefined as Error | undefined }))
vi.mock("../../src/core/two-factor/challenge-route.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../src/core/two-factor/challenge-route.js")>()
  return {
    ...original,
    twoFactorChallenge: async (ctx: Parameters<typeof original.twoFactorChallenge>[0]) => {
      if (challenge.throws) throw challenge.throws
      return original.twoFactorChallenge(ctx)
    },
  }
})

afterEach(() => {
  challenge.throws = undefined
})

/**
 * The memory adapter with the two-factor methods the configuration check asks for, as stand-ins
 * (nothing calls them yet): the adapters gain the real ones in issue 37's storage part.
 */
function twoFactorAdapter(): Adapter {
  const stub = async () => null
  return {
    ...MemoryAdapter(),
    ...Object.fromEntries(
      ["getTwoFactor", "setTotpPendingSecret", "enableTotp", "useTotpStep", "updateTotpSecret", "replaceRecoveryCodes", "useRecoveryCode", "incrementTwoFactorTrustVersion", "deleteTwoFactor"].map((name) => [name, stub]),
    ),
  } as Adapter
}

function twoFactorConfig(extra: Partial<AuthConfig> = {}): AuthConfig & { raw?: undefined } {
  return credentialsConfig({ adapter: twoFactorAdapter(), session: { strategy: "jwt" }, twoFactor: { totp: { issuer: "Acme" } }, ...extra })
}

const auth = (request: Request, config: AuthConfig) => Auth(request, config as Omit<AuthConfig, "raw">)

describe("the two-factor routes", () => {
  it.each(["two-factor", "two-factor/status", "two-factor/totp"])("without twoFactor, GET and POST %s answer as any path that names no route", async (path) => {
    const config = credentialsConfig()
    for (const method of ["GET", "POST"]) {
      const response = await auth(new Request(`${base}/${path}`, { method }), config)
      const unknown = await auth(new Request(`${base}/no-such-route`, { method }), config)
      expect(response.status).toBe(400)
      expect(await response.text()).toBe(await unknown.text())
    }
  })

  it("with twoFactor, serves GET two-factor (without a pending sign-in: back to the sign-in page, TwoFactorExpired)", async () => {
    const { logger, lines } = recordingLogger()
    const response = await auth(new Request(`${base}/two-factor`), twoFactorConfig({ logger }))
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${base}/signin?error=TwoFactorExpired`)
    expect(lines.some((line) => line.code === "TwoFactorExpired")).toBe(true)
  })

  it("with twoFactor, serves GET two-factor/status without minting CSRF or callback-url cookies (signed out: 401 JSON)", async () => {
    const response = await auth(new Request(`${base}/two-factor/status`), twoFactorConfig())
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ error: "SessionRequired" })
    expect(response.headers.getSetCookie()).toEqual([])
  })

  it("with twoFactor, checks CSRF on POST two-factor/totp before anything else", async () => {
    const client = new Client(twoFactorConfig())
    const withoutToken = await client.postForm("two-factor/totp", {})
    expect(withoutToken.headers.get("location")).toBe(`${base}/signin?error=MissingCSRF`)
    const withToken = await client.postForm("two-factor/totp", { csrfToken: await client.csrfToken() })
    // Past the CSRF check, a signed-out caller has nothing to enrol.
    expect(withToken.headers.get("location")).toBe(`${base}/error?error=SessionRequired`)
  })

  it("with twoFactor, GET of a POST-only route and POST two-factor/status are unknown actions", async () => {
    const client = new Client(twoFactorConfig())
    expect((await client.get("two-factor/disable")).headers.get("location")).toBe(`${base}/error?error=UnknownAction`)
    expect((await client.postForm("two-factor/status", { csrfToken: await client.csrfToken() })).headers.get("location")).toBe(`${base}/error?error=UnknownAction`)
  })

  it("a wrong second-factor code leads back to the two-factor page with the error", async () => {
    challenge.throws = new InvalidTwoFactorCode("wrong code")
    const client = new Client(twoFactorConfig())
    expect((await client.postForm("two-factor", { code: "000000" })).headers.get("location")).toBe(`${base}/signin?error=MissingCSRF`)
    const response = await client.postForm("two-factor", { csrfToken: await client.csrfToken(), code: "000000" })
    expect(response.headers.get("location")).toBe(`${base}/two-factor?error=InvalidTwoFactorCode`)
  })

  it("… or to pages.twoFactor when the app has its own", async () => {
    challenge.throws = new InvalidTwoFactorCode("wrong code")
    const client = new Client(twoFactorConfig({ pages: { twoFactor: "/verify" } }))
    const response = await client.postForm("two-factor", { csrfToken: await client.csrfToken(), code: "000000" })
    expect(response.headers.get("location")).toBe("https://app.test/verify?error=InvalidTwoFactorCode")
  })

  it.each([
    ["TwoFactorExpired", () => new TwoFactorExpired("no pending sign-in")],
    ["TwoFactorFailed", () => new TwoFactorFailed("too many wrong codes")],
  ])("%s sends the user back to the sign-in page to start again", async (type, error) => {
    challenge.throws = error()
    const client = new Client(twoFactorConfig())
    const response = await client.postForm("two-factor", { csrfToken: await client.csrfToken(), code: "000000" })
    expect(response.headers.get("location")).toBe(`${base}/signin?error=${type}`)
  })

  it("a configuration error on GET two-factor shows the error page, and on GET two-factor/status answers JSON", async () => {
    const broken = twoFactorConfig({ twoFactor: { totp: { issuer: "" } } })
    const page = await auth(new Request(`${base}/two-factor`), broken)
    expect(page.headers.get("content-type")).toBe("text/html")
    const status = await auth(new Request(`${base}/two-factor/status`), broken)
    expect(status.status).toBe(500)
    expect(status.headers.get("content-type")).toBe("application/json")
  })
})

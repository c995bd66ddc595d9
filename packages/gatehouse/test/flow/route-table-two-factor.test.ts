/**
 * The two-factor routes in the route table: not served (the app keeps its own paths) without
 * `twoFactor`; served with it; a second-factor error leads back to the second-factor page. Every
 * management route (`totp`, `totp/confirm`, `recovery-codes`, `disable`) refuses a POST without
 * the CSRF token, or with a forged one, and changes nothing: no adapter write, no event, no notice,
 * no cookie; the same POST with the token goes through (so each refusal is the CSRF check's).
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth } from "../../src/core/handler.js"
import { InvalidTwoFactorCode, TwoFactorExpired, TwoFactorFailed } from "../../src/errors.js"
import type { Adapter, AuthConfig } from "../../src/types.js"
import { codeFor, enrolSetup, postJson, type EnrolSetup } from "../two-factor/enrol-support.js"
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

/** A memory adapter that records the name of every method called that may write (not get*, list*). */
function recordingAdapter(): { adapter: Adapter; writes: string[] } {
  const writes: string[] = []
  const adapter = new Proxy(MemoryAdapter(), {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver)
      if (typeof value !== "function" || typeof name !== "string" || /^(get|list)/.test(name)) return value
      return (...args: unknown[]) => (writes.push(name), (value as (...a: unknown[]) => unknown).apply(target, args))
    },
  })
  return { adapter, writes }
}

interface CsrfCell {
  s: EnrolSetup
  writes: string[]
  /** The route's fields, but the CSRF token. */
  fields: Record<string, string>
}

/** Ada signed in (JWT, so a read writes nothing) with nothing enrolled; with `enrolled`, enrolled through the routes (her session then at aal 2, recent). */
async function csrfCell(stage: "signed in" | "enrolling" | "enrolled"): Promise<CsrfCell> {
  const { adapter, writes } = recordingAdapter()
  const s = await enrolSetup(adapter, "jwt")
  expect((await s.signIn()).headers.get("location")).toBe("https://app.test/dashboard")
  if (stage === "signed in") return { s, writes, fields: {} }
  const { secret } = (await (await postJson(s.client, "two-factor/totp")).json()) as { secret: string }
  if (stage === "enrolling") return { s, writes, fields: { code: codeFor(secret) } }
  expect((await postJson(s.client, "two-factor/totp/confirm", { code: codeFor(secret) })).status).toBe(200)
  return { s, writes, fields: {} }
}

describe("CSRF on each two-factor management route", () => {
  it.each([
    ["totp", "signed in"],
    ["totp/confirm", "enrolling"],
    ["recovery-codes", "enrolled"],
    ["disable", "enrolled"],
  ] as const)("POST two-factor/%s without the CSRF token, or with a forged one, is refused and changes nothing", async (route, stage) => {
    const { s, writes, fields } = await csrfCell(stage)
    const stored = await s.adapter.getTwoFactor(s.uid)
    const events = () => [s.events.twoFactorEnabled.mock.calls.length, s.events.twoFactorDisabled.mock.calls.length, s.notify.mock.calls.length]
    const eventsBefore = events()
    writes.length = 0

    const refusals = [
      // A form from another site: the CSRF cookie comes along, the token does not.
      await s.client.postForm(`two-factor/${route}`, fields),
      // A script that guessed a token.
      await s.client.postJson(`two-factor/${route}`, { ...fields, csrfToken: "f".repeat(64) }, { accept: "application/json" }),
    ]
    for (const refused of refusals) {
      expect(refused.status === 302 ? refused.headers.get("location") : await refused.json()).toEqual(
        refused.status === 302 ? `${base}/signin?error=MissingCSRF` : { error: "MissingCSRF" },
      )
      expect(refused.headers.getSetCookie().filter((line) => !/^__Host-authjs\.csrf-token=|^__Secure-authjs\.callback-url=/.test(line))).toEqual([])
    }
    expect(writes).toEqual([])
    expect(await s.adapter.getTwoFactor(s.uid)).toEqual(stored)
    expect(events()).toEqual(eventsBefore)

    // The same POST with the token goes through: the refusals above were the CSRF check's.
    const allowed = await postJson(s.client, `two-factor/${route}`, fields)
    expect(allowed.status).toBe(200)
    expect(writes).not.toEqual([])
    expect(await s.adapter.getTwoFactor(s.uid)).not.toEqual(stored)
  })
})

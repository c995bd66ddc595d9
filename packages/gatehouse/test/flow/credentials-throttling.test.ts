/**
 * Throttling of credentials sign-in through `Auth()`: per identifier and per client IP, checked
 * before `authorize` (a refused attempt costs no password hash), answered 429 with Retry-After
 * as a page or as JSON, the same for identifiers with and without an account, counted in the
 * adapter's `hitRateLimit` when it has one, and surfaced by gatehouse-auth/client as an error.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import type { Adapter } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { signIn as clientSignIn } from "../../src/client/index.js"
import { Auth } from "../../src/core/handler.js"
import { Credentials } from "../../src/providers/credentials.js"
import type { CredentialsRateLimits } from "../../src/providers/types.js"
import type { AuthConfig } from "../../src/types.js"
import { ada, base, Client, CookieJar, credentialsConfig, origin, recordingLogger } from "./flow-helpers.js"

/** Where a wrong password goes: the sign-in page (the address is kept in a cookie, not in the URL). */
const WRONG = `${base}/signin?error=CredentialsSignin&code=credentials`
const THROTTLED = `${base}/signin?error=CredentialsRateLimited`
const FIFTEEN_MINUTES = 15 * 60

/**
 * A credentials configuration that signs in ada@app.test with `correct horse` (by `email`, or
 * `username: "ada"`) and counts its authorize calls.
 */
function counted(rateLimit?: CredentialsRateLimits | false, extra: Partial<AuthConfig> = {}) {
  const calls: Record<string, unknown>[] = []
  const provider = Credentials({
    credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
    authorize: (fields) => {
      calls.push(fields)
      const known = fields.email === ada.email || fields.username === "ada"
      return known && fields.password === "correct horse" ? { ...ada } : null
    },
    ...(rateLimit !== undefined && { rateLimit }),
  })
  const config = credentialsConfig({ providers: [provider], ...extra })
  return { config, calls }
}

/** One sign-in attempt from a fresh browser (so no cookie ties attempts together). */
async function attempt(config: AuthConfig, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  const client = new Client(config)
  return client.postForm("callback/credentials", { csrfToken: await client.csrfToken(), ...fields }, headers)
}

/** Where an answer sends the browser: its Location, or the sign-in link of a 429 page. */
async function destination(response: Response): Promise<string | null> {
  if (response.status !== 429) return response.headers.get("location")
  const link = /<a class="button" href="([^"]+)">Sign in<\/a>/.exec(await response.clone().text())?.[1]
  return link?.replaceAll("&amp;", "&") ?? null
}

const from = (ip: string) => ({ "x-forwarded-for": `10.9.8.7, ${ip}` })

afterEach(() => {
  vi.useRealTimers()
})

describe("credentials sign-in throttling", () => {
  describe("per identifier", () => {
    it("refuses the 11th attempt for one identifier within 15 minutes with 429 and Retry-After, without calling authorize", async () => {
      const { config, calls } = counted()
      const answers: (string | null)[] = []
      for (let i = 0; i < 10; i++) answers.push(await destination(await attempt(config, { email: ada.email!, password: `guess ${i}` })))
      expect(answers).toEqual(Array(10).fill(WRONG))
      expect(calls).toHaveLength(10)

      const refused = await attempt(config, { email: ada.email!, password: "correct horse" })
      expect(refused.status).toBe(429)
      const retryAfter = Number(refused.headers.get("retry-after"))
      expect(retryAfter).toBeGreaterThan(FIFTEEN_MINUTES - 60)
      expect(retryAfter).toBeLessThanOrEqual(FIFTEEN_MINUTES)
      expect(refused.headers.get("location")).toBeNull()
      expect(refused.headers.getSetCookie()).toEqual([])
      expect(await destination(refused)).toBe(THROTTLED)
      expect(await refused.text()).toContain("<h1>Too many attempts</h1>")
      // Not even the right password gets through, and authorize was not asked.
      expect(calls).toHaveLength(10)
    })

    it("counts username and email both, so junk in one does not dodge the count of the other", async () => {
      const { config, calls } = counted()
      for (let i = 0; i < 30; i++) await attempt(config, { username: "ada", email: `junk${i}@x.test`, password: `guess ${i}` })
      expect(calls.filter((fields) => fields.username === "ada")).toHaveLength(10)
    })

    it("counts a JSON array identifier as the string authorize would read", async () => {
      const { config, calls } = counted()
      for (let i = 0; i < 15; i++) {
        const client = new Client(config)
        await client.postJson("callback/credentials", { csrfToken: await client.csrfToken(), email: [ada.email], password: `guess ${i}` })
      }
      expect(calls).toHaveLength(10)
    })

    it("answers identifiers with and without an account alike, attempt by attempt and byte for byte", async () => {
      vi.useFakeTimers({ toFake: ["Date"] })
      const { config } = counted({ perIdentifier: { max: 3, windowSeconds: 600 } })
      const transcript = async (email: string) => {
        const answers: string[] = []
        for (let i = 0; i < 5; i++) {
          const response = await attempt(config, { email, password: "guess" })
          // The address typed comes back to the sign-in page: the one difference, and not the account's doing.
          const answer = `${response.status} ${response.headers.get("retry-after")} ${await destination(response)} ${await response.text()}`
          answers.push(answer.replaceAll(encodeURIComponent(email), "<typed>"))
        }
        return answers
      }
      const known = await transcript(ada.email!)
      const unknown = await transcript("nobody@app.test")
      expect(unknown).toEqual(known)
      expect(known.map((answer) => answer.split(" ")[0])).toEqual(["302", "302", "302", "429", "429"])
    })

    it("counts one identifier however it is spelled: case, spaces, NFKC; email before username", async () => {
      const { config, calls } = counted({ perIdentifier: { max: 3, windowSeconds: 600 } })
      for (const email of ["Ada@App.test", " ada@app.test ", "ａｄａ＠ａｐｐ．ｔｅｓｔ"]) {
        expect((await attempt(config, { email, password: "x" })).status).toBe(302)
      }
      expect((await attempt(config, { email: "ADA@APP.TEST", username: "someone-else", password: "x" })).status).toBe(429)
      // With no email, the username is the identifier: a different bucket.
      expect((await attempt(config, { username: "ada", password: "correct horse" })).headers.get("location")).toBe(origin)
      expect(calls).toHaveLength(4)
    })

    it("lets another identifier in while one is throttled", async () => {
      const { config } = counted({ perIdentifier: { max: 2, windowSeconds: 600 } })
      for (let i = 0; i < 3; i++) await attempt(config, { email: "victim@app.test", password: "guess" })
      expect((await attempt(config, { email: "victim@app.test", password: "guess" })).status).toBe(429)
      expect((await attempt(config, { email: ada.email!, password: "correct horse" })).headers.get("location")).toBe(origin)
    })

    it("counts under the provider's own identifier when it has one", async () => {
      const { config, calls } = counted({
        perIdentifier: { max: 2, windowSeconds: 600 },
        identifier: (fields) => (typeof fields.account === "string" ? `account:${fields.account}` : undefined),
      })
      // The custom identifier decides: another email for one account is the same bucket…
      expect((await attempt(config, { account: "42", email: "a@app.test", password: "x" })).status).toBe(302)
      expect((await attempt(config, { account: "42", email: "b@app.test", password: "x" })).status).toBe(302)
      expect((await attempt(config, { account: "42", email: "c@app.test", password: "x" })).status).toBe(429)
      // …and without an account field there is no identifier: only the per-IP limit (no IP here) applies.
      for (let i = 0; i < 4; i++) expect((await attempt(config, { email: "a@app.test", password: "x" })).status).toBe(302)
      expect(calls).toHaveLength(6)
    })

    it("starts counting again once the window has passed, with Retry-After counting down to it", async () => {
      vi.useFakeTimers({ toFake: ["Date"] })
      const { config, calls } = counted({ perIdentifier: { max: 1, windowSeconds: 600 } })
      expect((await attempt(config, { email: ada.email!, password: "x" })).status).toBe(302)
      vi.setSystemTime(Date.now() + 200_000)
      const refused = await attempt(config, { email: ada.email!, password: "correct horse" })
      expect(refused.status).toBe(429)
      expect(refused.headers.get("retry-after")).toBe("400")
      vi.setSystemTime(Date.now() + 399_000)
      expect((await attempt(config, { email: ada.email!, password: "correct horse" })).headers.get("retry-after")).toBe("1")
      vi.setSystemTime(Date.now() + 1_000)
      expect((await attempt(config, { email: ada.email!, password: "correct horse" })).headers.get("location")).toBe(origin)
      expect(calls).toHaveLength(2)
    })
  })

  describe("per client IP", () => {
    it("refuses a client spraying many identifiers after 100 attempts in 15 minutes (behind a trusted proxy)", async () => {
      const { config, calls } = counted({ perIdentifier: false })
      for (let i = 0; i < 100; i++) {
        expect((await attempt(config, { email: `user${i}@app.test`, password: "Summer2024!" }, from("203.0.113.9"))).status).toBe(302)
      }
      const refused = await attempt(config, { email: "user100@app.test", password: "Summer2024!" }, from("203.0.113.9"))
      expect(refused.status).toBe(429)
      expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(FIFTEEN_MINUTES)
      expect(await destination(refused)).toBe(THROTTLED)
      expect(calls).toHaveLength(100)
      // Another client is not affected, and ada signs in from it.
      expect((await attempt(config, { email: ada.email!, password: "correct horse" }, from("198.51.100.4"))).headers.get("location")).toBe(origin)
    })

    it("counts the client IP before the identifier, so a throttled client does not use up its victims' attempts", async () => {
      const { config } = counted({ perIp: { max: 2, windowSeconds: 600 }, perIdentifier: { max: 3, windowSeconds: 600 } })
      for (let i = 0; i < 2; i++) expect((await attempt(config, { email: ada.email!, password: "x" }, from("203.0.113.9"))).status).toBe(302)
      for (let i = 0; i < 5; i++) expect((await attempt(config, { email: ada.email!, password: "x" }, from("203.0.113.9"))).status).toBe(429)
      // ada's identifier has had two attempts counted, not seven: one more from elsewhere still gets through.
      expect((await attempt(config, { email: ada.email!, password: "correct horse" }, from("198.51.100.4"))).headers.get("location")).toBe(origin)
    })

    it("reads the client IP with the provider's clientIp when the proxy says it elsewhere", async () => {
      const { config } = counted({ perIdentifier: false, perIp: { max: 1, windowSeconds: 600 }, clientIp: (headers) => headers.get("cf-connecting-ip") })
      expect((await attempt(config, { email: "a@app.test", password: "x" }, { "cf-connecting-ip": "192.0.2.1" })).status).toBe(302)
      expect((await attempt(config, { email: "b@app.test", password: "x" }, { "cf-connecting-ip": "192.0.2.1", ...from("192.0.2.200") })).status).toBe(429)
      expect((await attempt(config, { email: "c@app.test", password: "x" }, { "cf-connecting-ip": "192.0.2.2" })).status).toBe(302)
    })

    it("counts by the last X-Forwarded-For hop alone: a client rotating X-Real-IP (or any other header) gets no fresh bucket", async () => {
      const { config, calls } = counted({ perIdentifier: false, perIp: { max: 2, windowSeconds: 600 } })
      const statuses = []
      for (const [i, forged] of ["192.0.2.1", "192.0.2.2", "192.0.2.3", "192.0.2.4"].entries()) {
        const headers = { ...from("203.0.113.9"), "x-real-ip": forged, "cf-connecting-ip": forged, "true-client-ip": forged, "fly-client-ip": forged }
        statuses.push((await attempt(config, { email: `user${i}@app.test`, password: "x" }, headers)).status)
      }
      expect(statuses).toEqual([302, 302, 429, 429])
      expect(calls).toHaveLength(2)
    })

    it("reads only the header named by trustedIpHeader (its first value), ignoring X-Forwarded-For", async () => {
      const { config } = counted({ perIdentifier: false, perIp: { max: 1, windowSeconds: 600 } }, { trustedIpHeader: "CF-Connecting-IP" })
      const status = async (headers: Record<string, string>) => (await attempt(config, { email: `${crypto.randomUUID()}@app.test`, password: "x" }, headers)).status
      expect(await status({ "cf-connecting-ip": "192.0.2.1", ...from("198.51.100.1") })).toBe(302)
      // The same client behind a new X-Forwarded-For hop, or with its header repeated: still counted.
      expect(await status({ "cf-connecting-ip": "192.0.2.1", ...from("198.51.100.2") })).toBe(429)
      expect(await status({ "cf-connecting-ip": " 192.0.2.1 , 10.0.0.1" })).toBe(429)
      // Another client whose X-Forwarded-For names the first: its own bucket.
      expect(await status({ "cf-connecting-ip": "192.0.2.2", ...from("192.0.2.1") })).toBe(302)
      // Without the header, no IP is known: only the per-identifier limit (off here) applies.
      for (let i = 0; i < 3; i++) expect(await status(from("192.0.2.1"))).toBe(302)
    })

    it("counts one client whatever port its proxy writes after the address (Azure Application Gateway's IP:port)", async () => {
      const { config } = counted({ perIdentifier: false, perIp: { max: 2, windowSeconds: 600 } })
      const status = async (hop: string) => (await attempt(config, { email: `${crypto.randomUUID()}@app.test`, password: "x" }, from(hop))).status
      expect([await status("203.0.113.9:50001"), await status("203.0.113.9:50002"), await status("203.0.113.9:50003")]).toEqual([302, 302, 429])
      expect([await status("[2001:db8::7]:50001"), await status("2001:db8::7"), await status("[2001:db8::7]:50003")]).toEqual([302, 302, 429])
    })
  })

  it("is off with rateLimit: false", async () => {
    const { config, calls } = counted(false)
    for (let i = 0; i < 15; i++) expect(await destination(await attempt(config, { email: ada.email!, password: "x" }, from("203.0.113.9")))).toBe(WRONG)
    expect(calls).toHaveLength(15)
  })

  it("keeps the counts in the adapter's hitRateLimit, under secret-keyed hashes only, shared by every instance", async () => {
    const adapter = MemoryAdapter()
    const keys: string[] = []
    const shared: Adapter = { ...adapter, hitRateLimit: (key, windowSeconds) => (keys.push(key), adapter.hitRateLimit(key, windowSeconds)) }
    const limits = { perIdentifier: { max: 2, windowSeconds: 600 }, perIp: { max: 50, windowSeconds: 900 } }
    // Two instances of the app: two configuration objects, one store.
    const first = counted(limits, { adapter: shared })
    const second = counted(limits, { adapter: shared })
    expect((await attempt(first.config, { email: ada.email!, password: "x" }, from("203.0.113.9"))).status).toBe(302)
    expect((await attempt(second.config, { email: ada.email!, password: "x" }, from("203.0.113.9"))).status).toBe(302)
    const refused = await attempt(first.config, { email: ada.email!, password: "correct horse" }, from("203.0.113.9"))
    expect(refused.status).toBe(429)
    // The store does not say when its window started: the whole window is the honest bound.
    expect(refused.headers.get("retry-after")).toBe("600")
    expect(keys).toHaveLength(6)
    for (const key of keys) expect(key).toMatch(/^credentials:(ip|identifier):[0-9a-f]{64}$/)
    expect(new Set(keys).size).toBe(2)
    const stored = keys.join("\n")
    for (const clear of ["203.0.113.9", "ada@app.test", "ada"]) expect(stored).not.toContain(clear)
  })

  it("answers a client asking with X-Auth-Return-Redirect with 429 JSON naming the sign-in page, and Retry-After", async () => {
    const { config } = counted({ perIdentifier: { max: 1, windowSeconds: 600 } })
    await attempt(config, { email: ada.email!, password: "x" })
    const response = await attempt(config, { email: ada.email!, password: "x" }, { "X-Auth-Return-Redirect": "1" })
    expect(response.status).toBe(429)
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0)
    expect(response.headers.get("content-type")).toContain("application/json")
    expect(await response.json()).toEqual({ url: THROTTLED })
  })

  it("refuses a trustedIpHeader that is not a header name, or that a client writes (X-Forwarded-For, Forwarded)", async () => {
    for (const [trustedIpHeader, named] of [
      ["cf connecting ip", "must be a header name"],
      ["", "must be a header name"],
      [["x-real-ip"], "must be a header name"],
      ["X-Forwarded-For", "cannot be X-Forwarded-For"],
      ["forwarded", "cannot be forwarded"],
    ] as const) {
      const log = recordingLogger()
      const { config } = counted(undefined, { logger: log.logger, trustedIpHeader: trustedIpHeader as unknown as string })
      expect((await Auth(new Request(`${base}/csrf`), config)).status).toBe(500)
      expect(log.lines.find((line) => line.code === "InvalidConfig")?.message[0]).toHaveProperty("message", expect.stringContaining(named))
    }
  })

  it("refuses a rateLimit that could not limit anything", async () => {
    for (const [rateLimit, named] of [
      [{ perIdentifier: { max: 0, windowSeconds: 60 } }, "rateLimit.perIdentifier"],
      [{ perIp: { max: 3, windowSeconds: Number.POSITIVE_INFINITY } }, "rateLimit.perIp"],
      [{ identifier: "email" }, "rateLimit.identifier"],
      [{ clientIp: "x-real-ip" }, "rateLimit.clientIp"],
      ["on", "rateLimit"],
    ] as const) {
      const log = recordingLogger()
      const { config } = counted(rateLimit as unknown as CredentialsRateLimits, { logger: log.logger })
      expect((await Auth(new Request(`${base}/csrf`), config)).status).toBe(500)
      expect(log.lines.find((line) => line.code === "InvalidConfig")?.message[0]).toHaveProperty("message", expect.stringContaining(`\`${named}\``))
    }
  })

  describe("gatehouse-auth/client", () => {
    const PAGE = `${origin}/account`
    let jar = new CookieJar()
    let navigations: string[] = []
    const { config } = counted({ perIdentifier: { max: 1, windowSeconds: 600 } })

    beforeEach(() => {
      jar = new CookieJar()
      navigations = []
      vi.stubGlobal("location", { href: PAGE, origin, assign: (url: string) => void navigations.push(url) })
      vi.stubGlobal("fetch", async (input: string, init: RequestInit = {}) => {
        const headers = new Headers(init.headers)
        if (jar.header()) headers.set("cookie", jar.header())
        return jar.store(await Auth(new Request(new URL(input, PAGE), { ...init, headers }), config))
      })
    })
    afterEach(() => {
      vi.unstubAllGlobals()
    })

    it("reports a throttled sign-in as an error with its status and Retry-After, without throwing or navigating", async () => {
      const fields = { email: "client@app.test", password: "x", redirect: false }
      expect(await clientSignIn("credentials", fields)).toMatchObject({ ok: false, error: "CredentialsSignin", status: 200, retryAfter: null })
      const result = await clientSignIn("credentials", fields)
      expect(result).toEqual({ ok: false, error: "CredentialsRateLimited", code: null, status: 429, retryAfter: expect.any(Number), url: THROTTLED })
      expect(result!.retryAfter).toBeGreaterThan(0)
      expect(navigations).toEqual([])
    })

    it("goes to the sign-in page naming the error when it navigates, as for any failed sign-in", async () => {
      await clientSignIn("credentials", { email: "nav@app.test", password: "x" })
      await clientSignIn("credentials", { email: "nav@app.test", password: "x" })
      expect(navigations).toEqual([WRONG, THROTTLED])
    })
  })
})

/**
 * Email (magic link) sign-in through `Auth()`, with the email captured by the provider's
 * `sendVerificationRequest`: the link, its single use, expiry, address checks, throttling, the
 * scanner-safe confirmation step, and what is left stored when sending fails. Real SMTP delivery
 * is in email-smtp-end-to-end.test.ts.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest"
import type { Adapter, VerificationToken } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth } from "../../src/core/handler.js"
import type { EmailConfig, VerificationRequestParams } from "../../src/providers/types.js"
import type { AuthConfig } from "../../src/types.js"
import { Browser, type Visit } from "../support/browser.js"
import { authApp, csrfToken, expectLandedOn, SESSION_COOKIE, sessionOf } from "./end-to-end-helpers.js"
import { failureMessage, isFailure, recordingLogger, secret, type RecordedLine } from "./flow-helpers.js"
import { storedAdapters, type FlowAdapter } from "./stored-adapters.js"

const APP = "https://app.test"
const DASHBOARD = `${APP}/dashboard`
const VERIFY_REQUEST = `${APP}/auth/verify-request?provider=email&type=email`

/** An email provider that keeps what it would have sent. */
function capturingProvider(overrides: Partial<EmailConfig> = {}) {
  const sent: VerificationRequestParams[] = []
  const provider: EmailConfig = {
    id: "email",
    name: "Email",
    type: "email",
    sendVerificationRequest: (params) => void sent.push(params),
    ...overrides,
  }
  return { provider, sent }
}

function setup(adapter: Adapter, overrides: Partial<EmailConfig> = {}, extra: Partial<AuthConfig> = {}) {
  const { provider, sent } = capturingProvider(overrides)
  const log = recordingLogger()
  const config: AuthConfig = { secret, trustHost: true, logger: log.logger, adapter, providers: [provider], ...extra }
  const browser = new Browser({ app: authApp(config), appOrigin: APP })
  return { config, browser, sent, log, provider }
}

/** Types an address into the sign-in page's email form and submits it. */
async function requestLink(browser: Browser, email: string, headers?: Record<string, string>) {
  const token = await csrfToken(browser)
  return browser.post(`${APP}/auth/signin/email`, { email, csrfToken: token, callbackUrl: DASHBOARD }, { follow: false, ...(headers && { headers }) })
}

const lastLink = (sent: VerificationRequestParams[]) => sent.at(-1)!.url

/**
 * Opens a sign-in link in `browser` the way a person does: where the link asks first (it was
 * opened in another browser than the one that asked for it), they press "Sign in".
 */
async function openLink(browser: Browser, url: string) {
  const opened = await browser.get(url)
  return opened.last.status === 200 && opened.last.body.includes("<form") ? browser.submitForm(opened) : opened
}

/** The `Cookie` header of `browser` for the app, as a raw request would carry it. */
const cookieHeader = (browser: Browser) => browser.cookies().map((c) => `${c.name}=${c.value}`).join("; ")

/** A throttled request's answer, as {@link outcome} reports it. */
const THROTTLED = "429 EmailRateLimited"

/**
 * Where a request for a link ended: the redirect's target, or for a throttled one (429, no
 * redirect) `429 <error>` with the error its page's sign-in link names, once its `Retry-After`
 * is checked to be within `maxRetryAfter`.
 */
function outcome(asked: Visit, maxRetryAfter = 15 * 60): string | undefined {
  const { last } = asked
  if (last.status !== 429) return last.location
  const retryAfter = Number(last.headers.get("retry-after"))
  expect(retryAfter).toBeGreaterThan(0)
  expect(retryAfter).toBeLessThanOrEqual(maxRetryAfter)
  expect(last.location).toBeUndefined()
  const link = /<a class="button" href="([^"]+)">Sign in<\/a>/.exec(last.body)?.[1]?.replaceAll("&amp;", "&")
  expect(link && new URL(link).pathname).toBe("/auth/signin")
  return `429 ${new URL(link!).searchParams.get("error")}`
}

describe.each(storedAdapters)("email sign-in ($name)", (store) => {
  let adapter: FlowAdapter
  let close: () => Promise<void>
  beforeAll(async () => {
    ;({ adapter, close } = await store.open())
  })
  afterAll(() => close?.())

  for (const strategy of ["jwt", "database"] as const) {
    it(`signs a new user in from the link and marks the address verified (${strategy} sessions)`, async () => {
      const { browser, sent, provider } = setup(adapter, {}, { session: { strategy } })
      const email = `new-${strategy}@example.com`
      const asked = await requestLink(browser, `  New-${strategy}@Example.COM `)
      expect(asked.last.status).toBe(302)
      expect(asked.last.location).toBe(VERIFY_REQUEST)

      expect(sent).toHaveLength(1)
      const { identifier, url, token, expires } = sent[0]!
      expect(identifier).toBe(email)
      expect(token).toMatch(/^[0-9a-f]{64}$/)
      expect(sent[0]!.provider).toMatchObject({ id: provider.id, type: "email" })
      const link = new URL(url)
      expect(link.origin + link.pathname).toBe(`${APP}/auth/callback/email`)
      expect(Object.fromEntries(link.searchParams)).toEqual({ callbackUrl: DASHBOARD, token, email })
      expect(expires.getTime() - Date.now()).toBeGreaterThan(86_400_000 - 60_000)

      expectLandedOn(await browser.get(url), DASHBOARD)
      expect(browser.cookie(SESSION_COOKIE)).toBeTruthy()
      expect(await sessionOf(browser)).toMatchObject({ user: { email } })
      const user = await adapter.getUserByEmail!(email)
      expect(user?.emailVerified).toBeInstanceOf(Date)
      // The token is stored hashed, never as sent, and is gone once used.
      expect(await adapter.useVerificationToken!({ identifier: email, token })).toBeNull()
    })
  }

  it("refuses a link the second time with the Verification page (403)", async () => {
    const { browser, sent } = setup(adapter)
    await requestLink(browser, "twice@example.com")
    expectLandedOn(await browser.get(lastLink(sent)), DASHBOARD)
    // The binding went with the first use, so the browser is asked first, then told.
    const again = await openLink(browser, lastLink(sent))
    expect(again.url).toBe(`${APP}/auth/error?error=Verification`)
    expect(again.status).toBe(403)
    // Elsewhere it asks first (see "a link opened in another browser"); confirming gets the same answer.
    const elsewhere = await openLink(new Browser({ app: authApp(setup(adapter).config), appOrigin: APP }), lastLink(sent))
    expect(elsewhere.url).toBe(`${APP}/auth/error?error=Verification`)
  })

  it("signs in exactly once when one link is clicked twenty times at once", async () => {
    const { config, browser, sent } = setup(adapter, {}, { session: { strategy: "database" } })
    await requestLink(browser, "race@example.com")
    const url = lastLink(sent)
    const cookie = cookieHeader(browser)
    const answers = await Promise.all(Array.from({ length: 20 }, () => Auth(new Request(url, { headers: { cookie } }), config as Omit<AuthConfig, "raw">)))
    const signedIn = answers.filter((answer) => answer.headers.get("location") === DASHBOARD)
    expect(signedIn).toHaveLength(1)
    expect(signedIn[0]!.headers.getSetCookie().some((line) => line.startsWith(`${SESSION_COOKIE}=`))).toBe(true)
    for (const answer of answers.filter((a) => a !== signedIn[0])) {
      expect(answer.headers.get("location")).toBe(`${APP}/auth/error?error=Verification`)
    }
  })
})

describe("email sign-in", () => {
  it("refuses an expired link", async () => {
    const { browser, sent } = setup(MemoryAdapter(), { maxAge: 60 })
    await requestLink(browser, "late@example.com")
    vi.useFakeTimers({ toFake: ["Date"] })
    try {
      vi.setSystemTime(Date.now() + 61_000)
      const visit = await openLink(browser, lastLink(sent))
      expect(visit.url).toBe(`${APP}/auth/error?error=Verification`)
      expect(visit.status).toBe(403)
    } finally {
      vi.useRealTimers()
    }
  })

  it("refuses a link whose email was changed, and keeps the token for the real address", async () => {
    const adapter = MemoryAdapter()
    const { browser, sent } = setup(adapter)
    await requestLink(browser, "owner@example.com")
    const forged = new URL(lastLink(sent))
    forged.searchParams.set("email", "attacker@example.com")
    expect((await browser.get(forged.href)).url).toBe(`${APP}/auth/error?error=Verification`)
    // The refusal took the link's binding with it: the real link asks first, then signs in.
    expectLandedOn(await openLink(browser, lastLink(sent)), DASHBOARD)
  })

  it.each([
    ["no address", ""],
    ["two @", "a@b@example.com"],
    ["a quoted local part", '"victim@example.com"@attacker.example'],
    ["a comma", "victim@example.com,attacker@example.net"],
    ["a full-width @ that normalises into a second one", "victim@example.com＠attacker.example"],
    ["angle brackets", "Victim <victim@example.com>"],
    ["a space", "vic tim@example.com"],
    ["an empty domain label", "victim@example..com"],
  ])("refuses %s on the sign-in page, sending nothing", async (_case, email) => {
    const { browser, sent } = setup(MemoryAdapter())
    const asked = await requestLink(browser, email)
    expect(asked.last.location).toBe(`${APP}/auth/signin?error=InvalidEmail`)
    expect(sent).toHaveLength(0)
    const page = await browser.follow(asked)
    expect(page.status).toBe(200)
    expect(page.last.body).toContain("not an e-mail address")
  })

  it.each([
    ["an encoded word some servers decode into another address", "=?utf-8?q?attacker=40evil.example?=@corp.example"],
    ["source routing with %", "attacker%evil.example@corp.example"],
    ["bang routing", "evil.example!attacker@corp.example"],
  ])("refuses %s", async (_case, email) => {
    const { browser, sent } = setup(MemoryAdapter())
    expect((await requestLink(browser, email)).last.location).toBe(`${APP}/auth/signin?error=InvalidEmail`)
    expect(sent).toHaveLength(0)
  })

  it.each(["o'brien@example.com", "first.last+tag@mail_server.example.com", "用户@例子.广告"])("accepts %s", async (email) => {
    const { browser, sent } = setup(MemoryAdapter())
    expect((await requestLink(browser, email)).last.location).toBe(VERIFY_REQUEST)
    expect(sent[0]?.identifier).toBe(email)
  })

  it("takes a full-width @ alone as the address it stands for", async () => {
    const { browser, sent } = setup(MemoryAdapter())
    await requestLink(browser, "ｗｉｄｅ＠example.com")
    expect(sent[0]?.identifier).toBe("wide@example.com")
  })

  it("uses the provider's normalizeIdentifier, and shows its refusal on the sign-in page", async () => {
    const { browser, sent } = setup(MemoryAdapter(), {
      normalizeIdentifier: (input) => {
        if (!input.endsWith("@corp.example")) throw new Error("Only corp.example addresses")
        return input.trim()
      },
    })
    await requestLink(browser, "Mixed.Case@corp.example")
    expect(sent[0]?.identifier).toBe("Mixed.Case@corp.example")
    expect((await requestLink(browser, "someone@gmail.example")).last.location).toBe(`${APP}/auth/signin?error=InvalidEmail`)
    expect(sent).toHaveLength(1)
  })

  describe("the signIn callback on the link request", () => {
    it("gets the user and verificationRequest: true, and a false stops before anything is sent", async () => {
      const seen: unknown[] = []
      const { browser, sent } = setup(MemoryAdapter(), {}, { callbacks: { signIn: (params) => (seen.push(params), false) } })
      const asked = await requestLink(browser, "denied@example.com")
      expect(asked.last.location).toBe(`${APP}/auth/error?error=AccessDenied`)
      expect(sent).toHaveLength(0)
      expect(seen[0]).toMatchObject({
        user: { email: "denied@example.com", emailVerified: null },
        account: { provider: "email", type: "email", providerAccountId: "denied@example.com" },
        email: { verificationRequest: true },
      })
    })

    it("turns a throw into AccessDenied and a string into a redirect", async () => {
      const thrower = setup(MemoryAdapter(), {}, { callbacks: { signIn: () => { throw new Error("nope") } } })
      expect((await requestLink(thrower.browser, "t@example.com")).last.location).toBe(`${APP}/auth/error?error=AccessDenied`)
      const redirecting = setup(MemoryAdapter(), {}, { callbacks: { signIn: () => "/waitlist" } })
      expect((await requestLink(redirecting.browser, "r@example.com")).last.location).toBe(`${APP}/waitlist`)
      expect(thrower.sent.length + redirecting.sent.length).toBe(0)
    })

    it("is asked again without verificationRequest when the link is clicked", async () => {
      const seen: { email?: unknown }[] = []
      const { browser, sent } = setup(MemoryAdapter(), {}, { callbacks: { signIn: (params) => (seen.push(params), true) } })
      await requestLink(browser, "twice-asked@example.com")
      expectLandedOn(await browser.get(lastLink(sent)), DASHBOARD)
      expect(seen).toHaveLength(2)
      expect(seen[1]!.email).toBeUndefined()
    })
  })

  it("removes the stored token when sending fails, and says the email could not be sent", async () => {
    const adapter = MemoryAdapter()
    const stored: VerificationToken[] = []
    const watching: Adapter = {
      ...adapter,
      createVerificationToken: async (token) => (stored.push(token), adapter.createVerificationToken(token)),
    }
    const { browser, log } = setup(watching, { sendVerificationRequest: () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:2525")) })
    const asked = await requestLink(browser, "unsent@example.com")
    expect(asked.last.location).toBe(`${APP}/auth/signin?error=EmailSignInError`)
    expect((await browser.follow(asked)).last.body).toContain("could not be sent")
    expect(stored).toHaveLength(1)
    expect(await adapter.useVerificationToken({ identifier: "unsent@example.com", token: stored[0]!.token })).toBeNull()
    expect(log.lines.some((line) => line.code === "EmailSignInError" && /ECONNREFUSED/.test(String((line.message[0] as Error).message)))).toBe(true)
  })

  it("accepts a link sent before the secret was rotated", async () => {
    const adapter = MemoryAdapter()
    const before = setup(adapter)
    await requestLink(before.browser, "rotated@example.com")
    const { config } = setup(adapter, {}, { secret: ["a-brand-new-secret-of-at-least-32-characters", secret] })
    // The browser's binding was made under the old secret too, and still holds.
    const answer = await Auth(new Request(lastLink(before.sent), { headers: { cookie: cookieHeader(before.browser) } }), config as Omit<AuthConfig, "raw">)
    expect(answer.headers.get("location")).toBe(DASHBOARD)
  })

  it("accepts a link Auth.js stored under a list of secrets (hashed with the list joined by commas)", async () => {
    const { createHash } = await import("node:crypto")
    const adapter = MemoryAdapter()
    const secrets = ["the-current-secret-of-at-least-32-characters", secret]
    const token = "f".repeat(64)
    const stored = createHash("sha256").update(`${token}${secrets.join(",")}`).digest("hex")
    await adapter.createVerificationToken({ identifier: "legacy@example.com", token: stored, expires: new Date(Date.now() + 60_000) })
    const { browser } = setup(adapter, {}, { secret: secrets })
    const link = `${APP}/auth/callback/email?${new URLSearchParams({ callbackUrl: DASHBOARD, token, email: "legacy@example.com" })}`
    // Auth.js set no binding cookie: the link asks once, then signs in.
    expectLandedOn(await openLink(browser, link), DASHBOARD)
  })

  it("reports a sender that throws a value without a string form as a failed send", async () => {
    const { browser } = setup(MemoryAdapter(), { sendVerificationRequest: () => { throw Object.create(null) } })
    expect((await requestLink(browser, "odd@example.com")).last.location).toBe(`${APP}/auth/signin?error=EmailSignInError`)
  })

  describe("throttling", () => {
    it("refuses a sixth email to one address within 15 minutes, the same for unknown and known addresses", async () => {
      const adapter = MemoryAdapter()
      await adapter.createUser({ email: "known@example.com", emailVerified: null })
      const { browser, sent } = setup(adapter)
      const outcomes: Record<string, (string | undefined)[]> = {}
      for (const email of ["known@example.com", "unknown@example.com"]) {
        outcomes[email] = []
        for (let i = 0; i < 6; i++) outcomes[email]!.push(outcome(await requestLink(browser, email)))
      }
      const expected = [...Array(5).fill(VERIFY_REQUEST), THROTTLED]
      expect(outcomes["known@example.com"]).toEqual(expected)
      expect(outcomes["unknown@example.com"]).toEqual(expected)
      expect(sent).toHaveLength(10)
    })

    it("counts per client IP behind a trusted proxy, and can be configured or turned off", async () => {
      const { browser, sent } = setup(MemoryAdapter(), { rateLimit: { perIp: { max: 2, windowSeconds: 60 }, perEmail: false } })
      // The last hop is the one the trusted proxy added; the client can write anything before it.
      const from = (ip: string) => ({ "x-forwarded-for": `${Math.random()}, ${ip}` })
      const locations = []
      for (const [email, ip] of [["a@example.com", "203.0.113.7"], ["b@example.com", "203.0.113.7"], ["c@example.com", "203.0.113.7"], ["d@example.com", "198.51.100.2"]] as const) {
        locations.push(outcome(await requestLink(browser, email, from(ip)), 60))
      }
      expect(locations).toEqual([VERIFY_REQUEST, VERIFY_REQUEST, THROTTLED, VERIFY_REQUEST])
      expect(sent.map((params) => params.identifier)).toEqual(["a@example.com", "b@example.com", "d@example.com"])

      const off = setup(MemoryAdapter(), { rateLimit: false })
      for (let i = 0; i < 8; i++) expect((await requestLink(off.browser, "many@example.com")).last.location).toBe(VERIFY_REQUEST)
    })

    it("reads the client IP with the provider's clientIp when the proxy says it elsewhere", async () => {
      const { browser } = setup(MemoryAdapter(), {
        rateLimit: { perIp: { max: 1, windowSeconds: 60 }, perEmail: false, clientIp: (headers) => headers.get("cf-connecting-ip") },
      })
      const asked = []
      for (const [email, ip] of [["a@example.com", "192.0.2.1"], ["b@example.com", "192.0.2.1"], ["c@example.com", "192.0.2.2"]] as const) {
        asked.push(outcome(await requestLink(browser, email, { "cf-connecting-ip": ip }), 60))
      }
      expect(asked).toEqual([VERIFY_REQUEST, THROTTLED, VERIFY_REQUEST])
    })

    it("counts by the last X-Forwarded-For hop alone: a client rotating X-Real-IP gets no fresh bucket", async () => {
      const { browser, sent } = setup(MemoryAdapter(), { rateLimit: { perIp: { max: 2, windowSeconds: 60 }, perEmail: false } })
      const asked = []
      for (const [i, forged] of ["192.0.2.1", "192.0.2.2", "192.0.2.3"].entries()) {
        asked.push(outcome(await requestLink(browser, `spray${i}@example.com`, { "x-forwarded-for": `${forged}, 203.0.113.7`, "x-real-ip": forged }), 60))
      }
      expect(asked).toEqual([VERIFY_REQUEST, VERIFY_REQUEST, THROTTLED])
      expect(sent).toHaveLength(2)
    })

    it("reads only the header named by trustedIpHeader, ignoring X-Forwarded-For", async () => {
      const { browser } = setup(MemoryAdapter(), { rateLimit: { perIp: { max: 1, windowSeconds: 60 }, perEmail: false } }, { trustedIpHeader: "cf-connecting-ip" })
      const asked = []
      for (const [email, ip, hop] of [["a@example.com", "192.0.2.1", "198.51.100.1"], ["b@example.com", "192.0.2.1", "198.51.100.2"], ["c@example.com", "192.0.2.2", "192.0.2.1"]] as const) {
        asked.push(outcome(await requestLink(browser, email, { "cf-connecting-ip": ip, "x-forwarded-for": hop }), 60))
      }
      expect(asked).toEqual([VERIFY_REQUEST, THROTTLED, VERIFY_REQUEST])
    })

    it("does not count requests the signIn callback refuses", async () => {
      let allow = false
      const { browser } = setup(MemoryAdapter(), { rateLimit: { perEmail: { max: 1, windowSeconds: 60 } } }, { callbacks: { signIn: () => allow } })
      for (let i = 0; i < 3; i++) expect((await requestLink(browser, "victim@example.com")).last.location).toBe(`${APP}/auth/error?error=AccessDenied`)
      allow = true
      expect((await requestLink(browser, "victim@example.com")).last.location).toBe(VERIFY_REQUEST)
    })

    it.each([
      [{ perEmail: { max: Number.NaN, windowSeconds: 60 } }, "rateLimit.perEmail"],
      [{ perIp: { max: 3 } }, "rateLimit.perIp"],
      [{ perEmail: { max: 2, windowSeconds: -1 } }, "rateLimit.perEmail"],
      [{ clientIp: "x-real-ip" }, "rateLimit.clientIp"],
    ])("refuses a rateLimit that could not limit anything: %j", async (rateLimit, named) => {
      const { config, log } = setup(MemoryAdapter(), { rateLimit } as unknown as Partial<EmailConfig>)
      const answer = await Auth(new Request(`${APP}/auth/csrf`), config as Omit<AuthConfig, "raw">)
      expect(answer.status).toBe(500)
      expect(log.lines.find((line) => line.code === "InvalidConfig")?.message[0]).toHaveProperty("message", expect.stringContaining(named))
    })

    it("keeps the counts in the adapter when it can store them", async () => {
      const adapter = MemoryAdapter()
      const keys: string[] = []
      let count = 0
      const counting: Adapter = { ...adapter, hitRateLimit: async (key) => (keys.push(key), ++count) }
      const { browser } = setup(counting, { rateLimit: { perEmail: { max: 1, windowSeconds: 60 } } })
      expect((await requestLink(browser, "stored@example.com")).last.location).toBe(VERIFY_REQUEST)
      const refused = await requestLink(browser, "stored@example.com")
      expect(outcome(refused)).toBe(THROTTLED)
      // The adapter does not say when its window started: the whole window is the honest bound.
      expect(refused.last.headers.get("retry-after")).toBe("60")
      expect(keys).toHaveLength(2)
      // Keyed with the secret: neither the address nor a plain hash of it is stored.
      for (const key of keys) expect(key).toMatch(/^email:email:[0-9a-f]{64}$/)
    })
  })

  describe("confirmSignIn (links safe from mail scanners)", () => {
    it("shows a Sign in as page on GET, spends nothing, and signs in from its button", async () => {
      const adapter = MemoryAdapter()
      const { browser, sent } = setup(adapter, { confirmSignIn: true })
      await requestLink(browser, "scanned@example.com")
      const url = lastLink(sent)

      // A scanner opens the link first, with no cookies; twice, and with HEAD.
      const scanner = new Browser({ app: authApp(setup(adapter, { confirmSignIn: true }).config), appOrigin: APP })
      for (let i = 0; i < 2; i++) {
        const page = await scanner.get(url)
        expect(page.status).toBe(200)
        expect(page.last.body).toContain("Sign in as scanned@example.com")
        expect(page.last.headers.get("cache-control")).toBe("no-store")
        expect(page.last.headers.get("content-security-policy")).toBe("frame-ancestors 'none'")
      }
      const head = await Auth(new Request(url, { method: "HEAD" }), setup(adapter, { confirmSignIn: true }).config as Omit<AuthConfig, "raw">)
      expect(head.headers.get("set-cookie") ?? "").not.toContain(SESSION_COOKIE)

      const page = await browser.get(url)
      expectLandedOn(await browser.submitForm(page), DASHBOARD)
      expect(await sessionOf(browser)).toMatchObject({ user: { email: "scanned@example.com" } })
    })

    it("refuses a POST that did not come from the page: no CSRF token, or another site", async () => {
      const { browser, sent, config } = setup(MemoryAdapter(), { confirmSignIn: true })
      await requestLink(browser, "forged@example.com")
      const link = new URL(lastLink(sent))
      const form = { token: link.searchParams.get("token")!, email: "forged@example.com", callbackUrl: DASHBOARD }
      const bare = await browser.post(`${APP}/auth/callback/email`, form, { follow: false })
      expect(bare.last.location).toBe(`${APP}/auth/signin?error=MissingCSRF`)

      const token = await csrfToken(browser)
      const cookie = browser.cookies().map((c) => `${c.name}=${c.value}`).join("; ")
      const crossSite = await Auth(
        new Request(`${APP}/auth/callback/email`, {
          method: "POST",
          headers: { cookie, "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "cross-site" },
          body: new URLSearchParams({ ...form, csrfToken: token }),
        }),
        config as Omit<AuthConfig, "raw">,
      )
      expect(crossSite.headers.get("location")).toBe(`${APP}/auth/signin?error=MissingCSRF`)

      // The token was not spent by either: the real page still signs in.
      expectLandedOn(await browser.submitForm(await browser.get(link.href)), DASHBOARD)
    })

    it("escapes what the link carries on the page", async () => {
      const { browser } = setup(MemoryAdapter(), { confirmSignIn: true })
      const page = await browser.get(`${APP}/auth/callback/email?token=%22%3E%3Cscript%3Ex()%3C/script%3E&email=%3Cb%3E@example.com`)
      expect(page.last.body).not.toContain("<script>x()")
      expect(page.last.body).not.toContain("<b>@")
      expect(page.last.body).toContain("&lt;b&gt;@example.com")
    })
  })

  it("takes a POST of the link only with the confirmation page's CSRF token, also without confirmSignIn", async () => {
    const { browser, sent } = setup(MemoryAdapter())
    await requestLink(browser, "post@example.com")
    const link = new URL(lastLink(sent))
    const fields = { token: link.searchParams.get("token")!, email: "post@example.com", callbackUrl: DASHBOARD }
    const bare = await browser.post(`${APP}/auth/callback/email`, fields, { follow: false })
    expect(bare.last.location).toBe(`${APP}/auth/signin?error=MissingCSRF`)
    const posted = await browser.post(`${APP}/auth/callback/email`, { ...fields, csrfToken: await csrfToken(browser) }, { follow: false })
    expect(posted.last.location).toBe(DASHBOARD)
  })

  describe("a link opened in another browser than the one that asked for it (login CSRF)", () => {
    it("names the account and signs nobody in until the person confirms; the link stays usable", async () => {
      const adapter = MemoryAdapter()
      const { browser: attacker, sent, config } = setup(adapter)
      await requestLink(attacker, "attacker@example.com")
      const link = lastLink(sent)

      const victim = new Browser({ app: authApp(config), appOrigin: APP })
      const opened = await victim.get(link)
      expect(opened.status).toBe(200)
      expect(opened.last.body).toContain("Sign in as attacker@example.com")
      expect(opened.last.body).toContain("opened in a different browser")
      expect(opened.last.headers.getSetCookie().join("\n")).not.toContain(SESSION_COOKIE)
      expect(await sessionOf(victim)).toBeNull()
      // The page spent nothing: the browser that asked still signs in with the link.
      expectLandedOn(await attacker.get(link), DASHBOARD)
    })

    it("signs in someone who really switched devices once they confirm", async () => {
      const { browser: laptop, sent, config } = setup(MemoryAdapter())
      await requestLink(laptop, "switcher@example.com")
      const phone = new Browser({ app: authApp(config), appOrigin: APP })
      const opened = await phone.get(lastLink(sent))
      expectLandedOn(await phone.submitForm(opened), DASHBOARD)
      expect(await sessionOf(phone)).toMatchObject({ user: { email: "switcher@example.com" } })
    })

    it("asks in a browser whose binding is for another link (only the latest request's is kept)", async () => {
      const { browser, sent } = setup(MemoryAdapter())
      await requestLink(browser, "first@example.com")
      const first = lastLink(sent)
      await requestLink(browser, "second@example.com")
      expect((await browser.get(first)).last.body).toContain("Sign in as first@example.com")
      expectLandedOn(await browser.get(lastLink(sent)), DASHBOARD)
    })
  })
})

describe("the link's binding cookie, once the link has been used or refused", () => {
  const BINDING = "__Secure-authjs.email-link"

  it("is gone once the link signed in, in the browser that asked for it", async () => {
    const { browser, sent } = setup(MemoryAdapter())
    await requestLink(browser, "bound@example.com")
    expect(browser.cookie(BINDING)).toBeTruthy()
    expectLandedOn(await browser.get(lastLink(sent)), DASHBOARD)
    expect(browser.cookie(BINDING)).toBeUndefined()
  })

  it("is gone once the link was refused there: spent elsewhere, or changed to another address", async () => {
    const adapter = MemoryAdapter()
    const spent = setup(adapter)
    await requestLink(spent.browser, "spent@example.com")
    const spentLink = lastLink(spent.sent)
    // Spent by someone else, elsewhere, after confirming.
    expectLandedOn(await openLink(new Browser({ app: authApp(spent.config), appOrigin: APP }), spentLink), DASHBOARD)
    expect((await spent.browser.get(spentLink)).url).toBe(`${APP}/auth/error?error=Verification`)
    expect(spent.browser.cookie(BINDING)).toBeUndefined()

    // (An expired link's binding expired with it: the browser no longer sends it.)
    const other = setup(adapter)
    await requestLink(other.browser, "owner@example.com")
    const changed = new URL(lastLink(other.sent))
    changed.searchParams.set("email", "someone-else@example.com")
    expect((await other.browser.get(changed.href)).url).toBe(`${APP}/auth/error?error=Verification`)
    expect(other.browser.cookie(BINDING)).toBeUndefined()
  })

  it("under confirmSignIn, stays while the page asks, and is gone once the person confirms", async () => {
    const { browser, sent } = setup(MemoryAdapter(), { confirmSignIn: true })
    await requestLink(browser, "confirming@example.com")
    const page = await browser.get(lastLink(sent))
    expect(page.last.body).toContain("Sign in as confirming@example.com")
    expect(browser.cookie(BINDING)).toBeTruthy()
    expectLandedOn(await browser.submitForm(page), DASHBOARD)
    expect(browser.cookie(BINDING)).toBeUndefined()
  })

  it("stays for the link this browser asked for when another link is used or refused here", async () => {
    const { browser, sent } = setup(MemoryAdapter())
    await requestLink(browser, "earlier@example.com")
    const earlier = lastLink(sent)
    await requestLink(browser, "latest@example.com")
    const latest = lastLink(sent)
    const held = browser.cookie(BINDING)
    // The earlier link, confirmed here; a link that matches nothing, opened here (any page can send the browser there).
    expectLandedOn(await openLink(browser, earlier), DASHBOARD)
    expect((await openLink(browser, `${APP}/auth/callback/email?token=${"0".repeat(64)}&email=latest%40example.com`)).url).toBe(`${APP}/auth/error?error=Verification`)
    expect(browser.cookie(BINDING)).toBe(held)
    // So the latest link still signs in at once, without asking.
    expectLandedOn(await browser.get(latest), DASHBOARD)
    expect(browser.cookie(BINDING)).toBeUndefined()
  })
})

describe("guessing a short sign-in code", () => {
  /** A provider mailing 6-digit codes, the kind a person types in; the same browser guesses. */
  function codeSetup(adapter: Adapter, overrides: Partial<EmailConfig> = {}) {
    let next = 0
    const codes = ["123456", "654321", "111111"]
    return setup(adapter, { generateVerificationToken: () => codes[next++ % codes.length]!, ...overrides })
  }

  /** Posts `code` for `email` as the confirmation page does (the way a guesser would try codes). */
  async function tryCode(browser: Browser, email: string, code: string) {
    const posted = await browser.post(`${APP}/auth/callback/email`, { token: code, email, csrfToken: await csrfToken(browser), callbackUrl: DASHBOARD }, { follow: false })
    return posted.last.location
  }

  it("spends the outstanding code after 5 wrong ones: the right one then fails, and a new one works", async () => {
    const adapter = MemoryAdapter()
    const { browser } = codeSetup(adapter)
    await requestLink(browser, "coded@example.com")
    for (const wrong of ["000001", "000002", "000003", "000004"]) {
      expect(await tryCode(browser, "coded@example.com", wrong)).toBe(`${APP}/auth/error?error=Verification`)
    }
    // The fifth wrong code, from anywhere (a guesser's own browser), spends the outstanding one.
    const guesser = new Browser({ app: authApp(codeSetup(adapter).config), appOrigin: APP })
    expect(await tryCode(guesser, "coded@example.com", "999999")).toBe(`${APP}/auth/error?error=Verification`)
    expect(await tryCode(browser, "coded@example.com", "123456")).toBe(`${APP}/auth/error?error=Verification`)

    // A minute later (lookups are limited per minute too), the owner's next code works.
    vi.useFakeTimers({ toFake: ["Date"] })
    try {
      vi.setSystemTime(Date.now() + 61_000)
      await requestLink(browser, "coded@example.com")
      expect(await tryCode(browser, "coded@example.com", "654321")).toBe(DASHBOARD)
    } finally {
      vi.useRealTimers()
    }
  })

  describe("with a minute between tries, so the per-minute lookup limit never refuses one", () => {
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ["Date"] })
    })
    afterEach(() => {
      vi.useRealTimers()
    })

    /** Tries each code a minute after the last, and says where each try landed. */
    async function spacedTries(browser: Browser, email: string, codes: string[]): Promise<(string | undefined)[]> {
      const landed: (string | undefined)[] = []
      for (const code of codes) {
        vi.setSystemTime(Date.now() + 61_000)
        landed.push(await tryCode(browser, email, code))
      }
      return landed
    }
    const REFUSED = `${APP}/auth/error?error=Verification`
    const tooManyLogged = (lines: RecordedLine[]) => lines.filter((line) => isFailure(line) && failureMessage(line).startsWith("Too many attempts (5)")).length

    it("takes the right code after four wrong ones", async () => {
      const { browser, log } = codeSetup(MemoryAdapter())
      await requestLink(browser, "spaced@example.com")
      expect(await spacedTries(browser, "spaced@example.com", ["000001", "000002", "000003", "000004", "123456"])).toEqual([REFUSED, REFUSED, REFUSED, REFUSED, DASHBOARD])
      expect(tooManyLogged(log.lines)).toBe(0)
    })

    it("spends the code at the fifth wrong one: the right one after it fails", async () => {
      const { browser, log } = codeSetup(MemoryAdapter())
      await requestLink(browser, "spaced@example.com")
      expect(await spacedTries(browser, "spaced@example.com", ["000001", "000002", "000003", "000004"])).toEqual(Array(4).fill(REFUSED))
      expect(tooManyLogged(log.lines)).toBe(0)
      expect(await spacedTries(browser, "spaced@example.com", ["000005"])).toEqual([REFUSED])
      expect(tooManyLogged(log.lines)).toBe(1)
      expect(await spacedTries(browser, "spaced@example.com", ["123456"])).toEqual([REFUSED])
    })
  })

  it("gives a burst of parallel guesses no more lookups than the limit: the right code among 300 signs nobody in", async () => {
    const adapter = MemoryAdapter()
    const { config, browser } = codeSetup(adapter)
    await requestLink(browser, "burst@example.com")
    const csrf = await csrfToken(browser)
    const cookie = browser.cookies().map((c) => `${c.name}=${c.value}`).join("; ")
    const guess = (code: string) =>
      Auth(
        new Request(`${APP}/auth/callback/email`, {
          method: "POST",
          headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ token: code, email: "burst@example.com", csrfToken: csrf, callbackUrl: DASHBOARD }),
        }),
        config as Omit<AuthConfig, "raw">,
      )
    const codes = Array.from({ length: 299 }, (_, i) => String(200_000 + i))
    const answers = await Promise.all([...codes, "123456"].map(guess))
    expect(answers.filter((answer) => answer.headers.get("location") === DASHBOARD)).toEqual([])
  })

  it("counts nothing with the default 256-bit tokens: wrong tokens for an address cannot spend its owner's link", async () => {
    const { browser, sent } = setup(MemoryAdapter())
    const wrong = () => tryCode(browser, "owner@example.com", "f".repeat(64))
    for (let i = 0; i < 5; i++) expect(await wrong()).toBe(`${APP}/auth/error?error=Verification`)
    await requestLink(browser, "owner@example.com")
    expect(await wrong()).toBe(`${APP}/auth/error?error=Verification`)
    expectLandedOn(await browser.get(lastLink(sent)), DASHBOARD)
  })

  it("counts per address: wrong codes for one address leave another's alone", async () => {
    const adapter = MemoryAdapter()
    const { browser } = codeSetup(adapter)
    await requestLink(browser, "kept@example.com")
    for (let i = 0; i < 10; i++) await tryCode(browser, "other@example.com", `00000${i}`)
    expect(await tryCode(browser, "kept@example.com", "123456")).toBe(DASHBOARD)
  })

  it("lets four wrong codes through and the right fifth sign in", async () => {
    const { browser } = codeSetup(MemoryAdapter())
    await requestLink(browser, "careful@example.com")
    for (const wrong of ["000001", "000002", "000003", "000004"]) await tryCode(browser, "careful@example.com", wrong)
    expect(await tryCode(browser, "careful@example.com", "123456")).toBe(DASHBOARD)
  })

  it("with an adapter that cannot spend links by address, refuses every attempt past the limit until the window ends", async () => {
    const { deleteVerificationTokens: _cannot, ...adapter } = MemoryAdapter()
    const { browser } = codeSetup(adapter, { maxAge: 600 })
    await requestLink(browser, "fallback@example.com")
    for (let i = 0; i < 5; i++) await tryCode(browser, "fallback@example.com", `00000${i}`)
    expect(await tryCode(browser, "fallback@example.com", "123456")).toBe(`${APP}/auth/error?error=Verification`)
    vi.useFakeTimers({ toFake: ["Date"] })
    try {
      vi.setSystemTime(Date.now() + 601_000)
      await requestLink(browser, "fallback@example.com")
      expect(await tryCode(browser, "fallback@example.com", "654321")).toBe(DASHBOARD)
    } finally {
      vi.useRealTimers()
    }
  })

  it("counts nothing with maxAttempts: false, and refuses a maxAttempts that is not a whole number", async () => {
    const { browser } = codeSetup(MemoryAdapter(), { maxAttempts: false })
    await requestLink(browser, "uncounted@example.com")
    for (let i = 0; i < 8; i++) await tryCode(browser, "uncounted@example.com", `00000${i}`)
    expect(await tryCode(browser, "uncounted@example.com", "123456")).toBe(DASHBOARD)

    const { config } = codeSetup(MemoryAdapter(), { maxAttempts: 0.5 })
    const answer = await Auth(new Request(`${APP}/auth/csrf`), config as Omit<AuthConfig, "raw">)
    expect(answer.status).toBe(500)
  })
})

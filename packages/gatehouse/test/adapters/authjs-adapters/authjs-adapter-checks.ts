/**
 * What each of Auth.js's own adapters is put through, unchanged: Gatehouse's conformance suite for
 * the methods it has (the conformance failures it is known for asserted as failures, each with
 * its reason), and real flows through `Auth()` on its documented schema: credentials and database
 * sessions, an OAuth sign-up and return against the GitHub-shaped server, an email link, the
 * undoing of a failed sign-up, and what Gatehouse does for the features that need a method the
 * adapter lacks (refuses at startup naming it, or falls back).
 */
import { createHash, randomUUID } from "node:crypto"
import { afterAll, afterEach, beforeAll, describe, expect, it, test, vi } from "vitest"
import type { Adapter, AdapterUser } from "../../../src/adapters/index.js"
import { assertConfig } from "../../../src/core/assert-config.js"
import { resolveConfig } from "../../../src/core/config.js"
import { signOutEverywhere } from "../../../src/core/sign-out-everywhere.js"
import { MissingAdapterMethods } from "../../../src/errors.js"
import { GitHub } from "../../../src/providers/github.js"
import { Passkey } from "../../../src/providers/passkey.js"
import type { CredentialsConfig, EmailConfig, VerificationRequestParams } from "../../../src/providers/types.js"
import { conformanceCases } from "../../../src/testing/adapter-conformance/index.js"
import { GATEHOUSE_ADDITIONS, runAdapterConformance } from "../../../src/testing/adapter.js"
import type { AuthConfig } from "../../../src/types.js"
import { authApp, csrfToken, expectLandedOn, SESSION_COOKIE, signIn } from "../../flow/end-to-end-helpers.js"
import { Client, moveClockOn, recordingLogger, secret, storedKey, UPDATE_AGE_MS, type RecordedLine } from "../../flow/flow-helpers.js"
import { Browser } from "../../support/browser.js"
import { startGitHubLikeServer, type GitHubLikeServer } from "../../support/github-like-server.js"

/** One store behind an Auth.js adapter, made in the test file's `describe` and opened before its tests. */
export interface AuthjsStore {
  /** The adapter exactly as its package makes it. */
  adapter: Adapter
  /** Creates the adapter's documented schema (or connects). */
  open(): Promise<void>
  close(): Promise<void>
  /** The session tokens as the database holds them, read past the adapter. */
  sessionTokens(): Promise<string[]>
  /** The verification tokens as the database holds them, read past the adapter. */
  verificationTokens(): Promise<{ identifier: string; token: string }[]>
}

/** An Auth.js adapter on one database, and what is known about it. */
export interface AuthjsAdapterUnderTest {
  /** e.g. `@auth/drizzle-adapter on SQLite`. */
  name: string
  /** Makes the store; called inside the `describe`, so it may set up per-file resources. */
  store: () => AuthjsStore
  /** The methods of Auth.js's own contract the adapter does not have. */
  lacks: readonly (keyof Adapter)[]
  /** Conformance tests this adapter fails, each with the reason; each is asserted to fail. */
  knownLimits?: Readonly<Record<string, string>>
}

/** Every method the conformance suite tests (it covers the whole contract). */
const ALL_METHODS: readonly (keyof Adapter)[] = [...new Set(conformanceCases.map((testCase) => testCase.uses[0]!))]
/** Auth.js's contract: the methods Gatehouse did not add. */
export const AUTHJS_METHODS: readonly (keyof Adapter)[] = ALL_METHODS.filter((method) => !GATEHOUSE_ADDITIONS.includes(method))

const APP = "https://app.test"
const DASHBOARD = `${APP}/dashboard`
const AUTHENTICATOR_METHODS = ["createAuthenticator", "getAuthenticator", "listAuthenticatorsByUserId", "updateAuthenticatorCounter"] as const

const sha256Hex = (text: string) => createHash("sha256").update(text, "utf8").digest("hex")
const errorOf = (url: string) => new URL(url).searchParams.get("error")
const codes = (lines: RecordedLine[]) => lines.map((line) => line.code)
const messages = (lines: RecordedLine[]) => lines.map((line) => String(line.message[0] instanceof Error ? line.message[0].message : line.message[0]))

/**
 * The warnings the startup check of `config` gives. Read from the check itself: the log shows each
 * warning once per process and configuration, and another file's tests may have shown it first.
 */
const startupWarnings = (config: AuthConfig) => assertConfig(resolveConfig(config)).warnings

/** Opens a sign-in link; where it asks first (another browser than the one that asked), presses "Sign in". */
async function openLink(browser: Browser, url: string) {
  const opened = await browser.get(url)
  return opened.last.status === 200 && opened.last.body.includes("<form") ? browser.submitForm(opened) : opened
}

/** An email provider that keeps what it would have sent. */
function capturingEmail(overrides: Partial<EmailConfig> = {}) {
  const sent: VerificationRequestParams[] = []
  const provider: EmailConfig = { id: "email", name: "Email", type: "email", sendVerificationRequest: (params) => void sent.push(params), ...overrides }
  return { provider, sent }
}

/** A credentials provider that signs in as whichever stored user the test names. */
function credentialsFor(user: () => AdapterUser): CredentialsConfig {
  return {
    id: "credentials",
    name: "Credentials",
    type: "credentials",
    credentials: {},
    authorize: ({ password }) => (password === "correct horse" ? { id: String(user().id) } : null),
    rateLimit: false,
  }
}

/** Registers the conformance suite and the flows for one Auth.js adapter on one database. */
export function describeAuthjsAdapter(subject: AuthjsAdapterUnderTest): void {
  describe(subject.name, () => {
    const store = subject.store()
    const { adapter } = store
    let github: GitHubLikeServer
    beforeAll(async () => {
      await store.open()
      github = await startGitHubLikeServer({ clientId: "gh-client", clientSecret: "gh-secret" })
    }, 60_000)
    afterAll(async () => {
      await github?.stop()
      await store.close()
    })
    afterEach(() => {
      vi.useRealTimers()
    })

    /** A database-session configuration over the adapter, its log recorded. */
    function setup(providers: AuthConfig["providers"], extra: Partial<AuthConfig> = {}) {
      const { logger, lines } = recordingLogger()
      const config: AuthConfig = { secret, trustHost: true, logger, adapter, session: { strategy: "database" }, providers, ...extra }
      return { config, lines, browser: new Browser({ app: authApp(config), appOrigin: APP }) }
    }

    const freshEmail = () => `user-${randomUUID()}@example.com`
    const gitHub = (options: Partial<Parameters<typeof GitHub>[0]> = {}) =>
      GitHub({ clientId: "gh-client", clientSecret: "gh-secret", enterprise: { baseUrl: github.url }, ...options })

    let gitHubIds = 5000
    /** Makes the GitHub-shaped server answer for a new person with a verified `email`. */
    function newGitHubUser(email: string): string {
      github.user.id = ++gitHubIds
      github.user.email = null
      github.emails = [{ email, primary: true, verified: true, visibility: "private" }]
      return String(github.user.id)
    }

    describe("Gatehouse's conformance suite, for the methods the adapter has", () => {
      it("has every method of Auth.js's contract but those listed as lacking, and none of Gatehouse's additions", () => {
        const has = (method: keyof Adapter) => typeof adapter[method] === "function"
        expect(AUTHJS_METHODS.filter((method) => !has(method))).toEqual([...subject.lacks])
        expect(GATEHOUSE_ADDITIONS.filter(has)).toEqual([])
      })

      const limits = new Map(Object.entries(subject.knownLimits ?? {}))
      const registered: string[] = []
      runAdapterConformance({
        adapter,
        skip: subject.lacks,
        test: (name, fn) => {
          registered.push(name)
          const reason = limits.get(name)
          if (reason === undefined) return test(name, fn)
          // Asserted, so that the table's "known limit" stops being true the day the adapter changes.
          return test(`${name} — fails: ${reason}`, async () => {
            await expect(fn()).rejects.toThrow()
          })
        },
      })

      it("names only conformance tests that ran as known limits", () => {
        expect([...limits.keys()].filter((name) => !registered.includes(name))).toEqual([])
      })
    })

    describe("flows through Auth()", () => {
      it("signs in with credentials into a database session stored as sha256:<hex>, reads, updates, extends and ends it", async () => {
        const email = freshEmail()
        const user = await adapter.createUser!({ id: randomUUID(), email, emailVerified: null, name: "Ada Lovelace", image: null })
        const updates: unknown[] = []
        const { config } = setup([credentialsFor(() => user)], {
          callbacks: {
            session: ({ session, trigger, newSession }) => {
              if (trigger === "update") updates.push(newSession)
              return session
            },
          },
        })
        const client = new Client(config)
        expect((await client.signIn({ password: "correct horse" })).status).toBe(302)
        const token = client.jar.get(SESSION_COOKIE)
        expect(token).toMatch(/^[0-9a-f]{64}$/)
        // Only the hash is stored: the table alone signs nobody in.
        const stored = await store.sessionTokens()
        expect(stored).toContain(storedKey(token))
        expect(stored).not.toContain(token)
        const row = await adapter.getSessionAndUser!(storedKey(token))
        expect(String(row?.session.userId)).toBe(String(user.id))

        expect(await client.session()).toMatchObject({ user: { email, name: "Ada Lovelace" } })
        const updated = await client.postJson("session", { csrfToken: await client.csrfToken(), data: { theme: "dark" } })
        expect(updated.status).toBe(200)
        expect(updates).toEqual([{ theme: "dark" }])

        // A read past updateAge extends the row through updateSession.
        const expires = row!.session.expires.getTime()
        moveClockOn(UPDATE_AGE_MS + 60_000)
        expect(await client.session()).toMatchObject({ user: { email } })
        const extended = (await adapter.getSessionAndUser!(storedKey(token)))!.session.expires.getTime()
        expect(extended).toBeGreaterThanOrEqual(expires + UPDATE_AGE_MS)

        const signedOut = await client.postForm("signout", { csrfToken: await client.csrfToken() })
        expect(signedOut.status).toBe(302)
        expect(await store.sessionTokens()).not.toContain(storedKey(token))
        expect(await client.session()).toBeNull()
      })

      it("signs a new GitHub user up (user, account and session stored) and signs them in again as the same user", async () => {
        const email = freshEmail()
        const accountId = newGitHubUser(email)
        const created: { given: string; stored: string }[] = []
        const watched: Adapter = {
          ...adapter,
          createUser: async (user) => {
            const stored = await adapter.createUser!(user)
            created.push({ given: user.id, stored: String(stored.id) })
            return stored
          },
        }
        const { browser } = setup([gitHub()], { adapter: watched })
        expectLandedOn(await signIn(browser, "github"), DASHBOARD)
        const first = await adapter.getSessionAndUser!(storedKey(browser.cookie(SESSION_COOKIE)))
        expect(first?.user).toMatchObject({ email, name: "The Octocat" })
        // Gatehouse hands createUser a random id; these adapters assign their own, and that one is used.
        expect(created).toHaveLength(1)
        expect(created[0]!.given).toMatch(/^[0-9a-f-]{36}$/)
        expect(created[0]!.stored).not.toBe(created[0]!.given)
        expect(String(first?.user.id)).toBe(created[0]!.stored)
        expect(String(first?.session.userId)).toBe(created[0]!.stored)
        expect(created[0]!.stored).not.toBe(accountId)
        expect((await adapter.getUserByAccount!({ provider: "github", providerAccountId: accountId }))?.id).toEqual(first?.user.id)

        const { browser: later } = setup([gitHub()])
        expectLandedOn(await signIn(later, "github"), DASHBOARD)
        const again = await adapter.getSessionAndUser!(storedKey(later.cookie(SESSION_COOKIE)))
        expect(again?.user.id).toEqual(first?.user.id)
        expect(later.cookie(SESSION_COOKIE)).not.toBe(browser.cookie(SESSION_COOKIE))
      })

      it("under JWT sessions, stores the new GitHub user and account and no session row, and the JWT names the stored user", async () => {
        const email = freshEmail()
        const accountId = newGitHubUser(email)
        const { browser } = setup([gitHub()], {
          session: { strategy: "jwt" },
          callbacks: { session: ({ session, token }) => ({ ...session, user: { ...session.user, id: String(token?.sub) } }) },
        })
        const before = (await store.sessionTokens()).length
        expectLandedOn(await signIn(browser, "github"), DASHBOARD)
        const stored = await adapter.getUserByAccount!({ provider: "github", providerAccountId: accountId })
        expect(stored).toMatchObject({ email })
        expect(await store.sessionTokens()).toHaveLength(before)
        const session = (await browser.get(`${APP}/auth/session`)).last.json() as { user: { id: string; email: string } }
        expect(session.user).toMatchObject({ id: String(stored?.id), email })
      })

      it("takes back, through deleteUser, the user of a sign-up whose account could not be linked, so that a retry signs up", async () => {
        const email = freshEmail()
        newGitHubUser(email)
        let failures = 1
        const flaky: Adapter = {
          ...adapter,
          linkAccount: async (account) => {
            if (failures-- > 0) throw new Error("the account row could not be written")
            await adapter.linkAccount!(account)
          },
        }
        const { browser, lines } = setup([gitHub()], { adapter: flaky })
        const failed = await signIn(browser, "github")
        expect(new URL(failed.url).pathname).toBe("/auth/error")
        expect(codes(lines)).toContain("AdapterError")
        expect(await adapter.getUserByEmail!(email)).toBeNull()

        expectLandedOn(await signIn(browser, "github"), DASHBOARD)
        expect(await adapter.getUserByEmail!(email)).toMatchObject({ email })
      })

      it("signs in from an email link whose token is stored only as sha256(token + secret), and only once", async () => {
        const email = freshEmail()
        const { provider, sent } = capturingEmail()
        const { browser, config } = setup([provider])
        const asked = await browser.post(`${APP}/auth/signin/email`, { email, csrfToken: await csrfToken(browser), callbackUrl: DASHBOARD }, { follow: false })
        expect(asked.last.location).toBe(`${APP}/auth/verify-request?provider=email&type=email`)
        const { token, url } = sent[0]!
        const stored = (await store.verificationTokens()).filter((row) => row.identifier === email)
        expect(stored).toEqual([{ identifier: email, token: sha256Hex(`${token}${secret}`) }])

        expectLandedOn(await browser.get(url), DASHBOARD)
        const user = await adapter.getUserByEmail!(email)
        expect(user?.emailVerified).toBeInstanceOf(Date)
        expect((await adapter.getSessionAndUser!(storedKey(browser.cookie(SESSION_COOKIE))))?.user.id).toEqual(user?.id)
        expect((await store.verificationTokens()).filter((row) => row.identifier === email)).toEqual([])

        const reused = await openLink(new Browser({ app: authApp(config), appOrigin: APP }), url)
        expect(errorOf(reused.url)).toBe("Verification")
        // Said at startup: without listAccountsByUserId nobody's unproven account can be claimed (next test).
        expect(startupWarnings({ ...config })).toContain("unproven-accounts-unclaimable")
      })
    })

    describe("features that need a method the adapter lacks", () => {
      it("an email link for an account whose address was never proven fails (it cannot be claimed), changing nothing", async () => {
        const email = freshEmail()
        const unproven = await adapter.createUser!({ id: randomUUID(), email, emailVerified: null, name: "Mallory's doing", image: null })
        const { provider, sent } = capturingEmail()
        const { browser, lines } = setup([provider])
        await browser.post(`${APP}/auth/signin/email`, { email, csrfToken: await csrfToken(browser), callbackUrl: DASHBOARD })
        const opened = await browser.get(sent[0]!.url)
        expect(errorOf(opened.url)).toBe("Configuration")
        expect(browser.cookie(SESSION_COOKIE)).toBeUndefined()
        expect(codes(lines)).toContain("MissingAdapterMethods")
        expect(messages(lines).join("\n")).toContain("listAccountsByUserId")
        expect(await adapter.getUser!(String(unproven.id))).toMatchObject({ email, emailVerified: null })
      })

      it("signOutEverywhere refuses, naming deleteSessionsByUserId (database) or the session-version methods (JWT)", async () => {
        const { config } = setup([credentialsFor(() => ({ id: "1", email: "x@example.com", emailVerified: null }))])
        await expect(signOutEverywhere("1", config)).rejects.toThrow(MissingAdapterMethods)
        await expect(signOutEverywhere("1", config)).rejects.toThrow(/deleteSessionsByUserId/)
        await expect(signOutEverywhere("1", { ...config, session: { strategy: "jwt" } })).rejects.toThrow(/getSessionVersion, incrementSessionVersion/)
      })

      it("refreshing access tokens under database sessions is refused at startup, naming the methods", async () => {
        const { browser, lines } = setup([gitHub({ refreshAccessToken: true })])
        const visit = await browser.get(`${APP}/auth/session`)
        expect(visit.status).toBe(500)
        const missing = ["listAccountsByUserId", "updateAccount", "getAccount"].filter((method) => typeof adapter[method as keyof Adapter] !== "function")
        expect(messages(lines)).toContain(`Required adapter methods were missing: ${missing.join(", ")}`)
      })

      it("passkeys are refused at startup without the authenticator methods, else accepted with a warning that spent challenges stay in memory", async () => {
        const { browser, lines, config } = setup([Passkey()], { experimental: { enableWebAuthn: true } })
        const visit = await browser.get(`${APP}/auth/providers`)
        const missing = ["getAccount", ...AUTHENTICATOR_METHODS].filter((method) => typeof adapter[method as keyof Adapter] !== "function")
        if (missing.length > 0) {
          expect(visit.status).toBe(500)
          const line = messages(lines).find((message) => message.startsWith("Required adapter methods were missing: "))
          expect(line?.slice("Required adapter methods were missing: ".length).split(", ").sort()).toEqual(missing.sort())
        } else {
          expect(visit.status).toBe(200)
          expect(startupWarnings({ ...config })).toContain("webauthn-challenges-in-memory")
        }
      })

      it("the account routes are refused at startup, naming the methods they need", async () => {
        const { browser, lines } = setup([credentialsFor(() => ({ id: "1", email: "x@example.com", emailVerified: null }))], { account: { routes: true } })
        expect((await browser.get(`${APP}/auth/accounts`)).status).toBe(500)
        // Auth.js's adapters have unlinkAccount; listing accounts and session rows is Gatehouse's.
        expect(typeof adapter.unlinkAccount).toBe("function")
        expect(messages(lines)).toContain("Required adapter methods were missing: listAccountsByUserId, listSessionsByUserId")
      })

      it("throttles sign-in emails in memory without hitRateLimit", async () => {
        const email = freshEmail()
        const { provider, sent } = capturingEmail({ rateLimit: { perEmail: { max: 1, windowSeconds: 60 } } })
        const { browser } = setup([provider])
        const ask = async () => browser.post(`${APP}/auth/signin/email`, { email, csrfToken: await csrfToken(browser), callbackUrl: DASHBOARD }, { follow: false })
        expect((await ask()).last.status).toBe(302)
        expect((await ask()).last.status).toBe(429)
        expect(sent).toHaveLength(1)
      })
    })
  })
}

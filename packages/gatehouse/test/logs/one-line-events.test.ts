/**
 * What an operator reads at the default level: each event one line, what the user got wrong at
 * `warn`, what broke at `error` with its cause summarised on the same line, no stack. Driven
 * through real failing flows with the built-in logger (the console): a wrong password, a second
 * factor mistyped, a user refusing consent at a real OpenID Provider, that provider's token
 * endpoint failing, the database failing under a sign-in. With `debug: true` a fault prints whole.
 */
import { format } from "node:util"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Credentials from "../../src/providers/credentials.js"
import type { OAuthConfig } from "../../src/providers/types.js"
import type { SharedStore } from "../../src/stores/index.js"
import type { AuthConfig } from "../../src/types.js"
import { Browser } from "../support/browser.js"
import type { OidcServer } from "../support/oidc-server.js"
import { authApp, signInUntilCallback } from "../flow/end-to-end-helpers.js"
import { ada, Client, credentialsConfig, secret } from "../flow/flow-helpers.js"
import { DRIVER_MESSAGE, faultyAdapter, STORE_KINDS } from "../reliability/faulty-adapter-support.js"
import { DB_PASSWORD, failingAsDrizzle } from "./driver-errors.js"
import { startFaultyOidcProvider, type OidcFaultProxy } from "../reliability/oidc-faults-support.js"

const APP = "https://app.test"
const CLIENT_SECRET = `client-secret-${crypto.randomUUID()}`

interface Printed {
  level: "error" | "warn" | "debug" | "log"
  text: string
}

/** Everything printed to the console while `run` runs, each call as the console would print it. */
async function printed(run: () => Promise<unknown>): Promise<Printed[]> {
  const lines: Printed[] = []
  for (const level of ["error", "warn", "debug", "log"] as const) {
    vi.spyOn(console, level).mockImplementation((...data: unknown[]) => void lines.push({ level, text: format(...data) }))
  }
  try {
    await run()
  } finally {
    vi.restoreAllMocks()
  }
  return lines
}

/** The configuration with the built-in logger (no `logger`). */
function builtIn(config: AuthConfig): AuthConfig {
  const { logger: _dropped, ...rest } = config
  return rest
}

function expectOneLine(lines: Printed[], level: Printed["level"], prefix: string): string {
  expect(lines.map((line) => `${line.level} ${line.text}`)).toEqual([expect.stringMatching(new RegExp(`^${level} `))])
  const [{ text }] = lines as [Printed]
  expect(text.startsWith(prefix), text).toBe(true)
  expect(text).not.toMatch(/[\n\r]/)
  expect(text).not.toContain("    at ")
  return text
}

let server: OidcServer
let faults: OidcFaultProxy
let stop: (() => Promise<void>) | undefined
beforeAll(async () => {
  ;({ server, faults, stop } = await startFaultyOidcProvider(APP, CLIENT_SECRET))
})
afterAll(() => stop?.())
afterEach(() => faults.clear())

function oidcApp(extra: Partial<AuthConfig> = {}) {
  const store = STORE_KINDS.find((kind) => kind.name === "SQLite")!.open()
  const provider: OAuthConfig = { id: "idp", name: "IdP", type: "oidc", issuer: server.issuer, clientId: "app-client", clientSecret: CLIENT_SECRET, fetch: faults.fetch }
  const config: AuthConfig = { secret, trustHost: true, adapter: store.real, session: { strategy: "database" }, providers: [provider], ...extra }
  return { browser: new Browser({ app: authApp(config), appOrigin: APP }), store }
}

describe("what the user got wrong is one warn line", () => {
  it("a wrong password: CredentialsSignin at warn, nothing at error", async () => {
    const client = new Client(builtIn(credentialsConfig()))
    const lines = await printed(() => client.signIn({ username: "ada", password: "wrong" }))
    expect(expectOneLine(lines, "warn", "[auth][warn][CredentialsSignin] ")).toBe(
      "[auth][warn][CredentialsSignin] The authorize function returned no user (code: credentials)",
    )
  })

  it("consent refused at the OpenID Provider (error=access_denied on the callback): OAuthCallbackError at warn", async () => {
    const { browser, store } = oidcApp()
    try {
      const callback = new URL(await signInUntilCallback(browser, "idp"))
      const refused = new URL(callback.pathname, APP)
      // As the provider redirects a refusal: its error, the flow's state, its issuer (RFC 9207).
      refused.search = new URLSearchParams({
        error: "access_denied",
        error_description: "The user refused\nconsent",
        state: callback.searchParams.get("state") ?? "",
        iss: callback.searchParams.get("iss") ?? server.issuer,
      }).toString()
      const lines = await printed(() => browser.get(refused.href, { follow: false }))
      const text = expectOneLine(lines, "warn", "[auth][warn][OAuthCallbackError] ")
      expect(text).toContain("access_denied")
    } finally {
      store.close()
    }
  })
})

describe("what broke is one error line with its cause", () => {
  it("the provider's token endpoint answering 500: CallbackRouteError at error, the cause on the same line", async () => {
    const { browser, store } = oidcApp()
    try {
      const callback = await signInUntilCallback(browser, "idp")
      faults.set("token", "server-error")
      const lines = await printed(() => browser.get(callback, { follow: false }))
      const text = expectOneLine(lines, "error", "[auth][error] CallbackRouteError ")
      expect(text).toContain("(cause: ")
      expect(text).not.toContain(CLIENT_SECRET)
    } finally {
      store.close()
    }
  })

  it("the database failing under a credentials sign-in: AdapterError at error, the driver's message on the same line", async () => {
    const store = STORE_KINDS.find((kind) => kind.name === "SQLite")!.open()
    try {
      await store.real.createUser({ ...ada, id: ada.id!, email: ada.email!, emailVerified: null })
      const faulty = faultyAdapter(store.real)
      const client = new Client(builtIn(credentialsConfig({ adapter: faulty.adapter, session: { strategy: "database" } })))
      faulty.arm({ method: "createSession" }, { kind: "throw" })
      const lines = await printed(() => client.signIn())
      expect(faulty.fired).toBe(true)
      const text = expectOneLine(lines, "error", "[auth][error] AdapterError ")
      expect(text).toContain(DRIVER_MESSAGE)
    } finally {
      store.close()
    }
  })

  it("the database failing as Drizzle reports it while linking an account: the query's params (the tokens) and the URL's password are not on the line", async () => {
    const linked: Record<string, unknown>[] = []
    const real = MemoryAdapter()
    const adapter = failingAsDrizzle(real, "linkAccount")
    // What linkAccount was given: the tokens the query's params carry.
    const recording = { ...adapter, linkAccount: (account: Parameters<NonNullable<typeof real.linkAccount>>[0]) => (linked.push({ ...account }), adapter.linkAccount!(account)) }
    const { browser, store } = oidcApp({ adapter: recording })
    try {
      const callback = await signInUntilCallback(browser, "idp")
      const lines = await printed(() => browser.get(callback, { follow: false }))
      const text = expectOneLine(lines, "error", "[auth][error] ")
      const tokens = linked.flatMap((account) => [account.access_token, account.id_token, account.refresh_token]).filter((token) => typeof token === "string")
      expect(tokens.length).toBeGreaterThan(0)
      for (const token of tokens) expect(text).not.toContain(String(token).slice(0, 40))
      expect(text).toContain('Failed query: insert into "account"')
      expect(text).toContain("params: (not logged)")
      expect(text).toContain("postgres://gatehouse:***@db.internal:5432/app")
      expect(text).not.toContain(DB_PASSWORD)
    } finally {
      store.close()
    }
  })

  it("the shared store failing under a throttled sign-in: one warn line naming the fallback and the store's error", async () => {
    // Redis refusing connections, as its client reports it.
    const refused = () => Promise.reject(new Error("connect ECONNREFUSED 10.0.0.7:6379"))
    const failing: SharedStore = { increment: refused, setIfAbsent: refused, get: refused, set: refused, delete: refused }
    const provider = Credentials({
      credentials: { username: {}, password: { type: "password" } },
      authorize: ({ username, password }) => (username === "ada" && password === "correct horse" ? { ...ada } : null),
    })
    // The adapter's hitRateLimit counts while the store is down; JWT sessions, as the user is authorize's own.
    const client = new Client(builtIn(credentialsConfig({ providers: [provider], sharedStore: failing, adapter: MemoryAdapter(), session: { strategy: "jwt" } })))
    const lines = await printed(() => client.signIn())
    // One line for each use of the store that fell back: the rate limits, the session version.
    expect(lines.map((line) => line.level)).toEqual(["warn", "warn"])
    for (const { text } of lines) {
      expect(text.startsWith("[auth][warn][shared-store-unavailable] The shared store (sharedStore) failed for "), text).toBe(true)
      expect(text).toContain("Error: connect ECONNREFUSED 10.0.0.7:6379")
      expect(text).not.toMatch(/[\n\r]/)
    }
    expect(lines[0]!.text).toContain("are counted by the adapter's hitRateLimit")
  })

  it("is printed whole, stack and cause, with debug: true", async () => {
    const store = STORE_KINDS.find((kind) => kind.name === "SQLite")!.open()
    try {
      await store.real.createUser({ ...ada, id: ada.id!, email: ada.email!, emailVerified: null })
      const faulty = faultyAdapter(store.real)
      const client = new Client(builtIn(credentialsConfig({ adapter: faulty.adapter, session: { strategy: "database" }, debug: true })))
      faulty.arm({ method: "createSession" }, { kind: "throw" })
      const lines = await printed(() => client.signIn())
      const errors = lines.filter((line) => line.level === "error")
      expect(errors).toHaveLength(1)
      expect(errors[0]!.text).toContain("\n    at ")
      expect(errors[0]!.text).toContain(DRIVER_MESSAGE)
    } finally {
      store.close()
    }
  })
})

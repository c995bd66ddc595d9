/**
 * The OpenID Provider failing: its discovery document, token endpoint and userinfo endpoint
 * answering 500, HTML, JSON that does not parse, JSON of the wrong shape, or dropping the
 * connection; a slow token endpoint, and one that never answers. Against the real oidc-provider
 * from test/support, with a faulty proxy in front of it, under database sessions on SQLite.
 *
 * Each time: a redirect to the error page with `Configuration` (the spec's answer for a failure
 * that is not the user's: `CallbackRouteError` in the log, like Auth.js), the failure logged
 * without the client secret, nothing stored (no user, no account, no session), and a sign-in
 * that works as soon as the provider does.
 */
import { inspect } from "node:util"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import type { OAuthConfig } from "../../src/providers/types.js"
import type { AuthConfig } from "../../src/types.js"
import { Browser } from "../support/browser.js"
import type { OidcServer } from "../support/oidc-server.js"
import { authApp, csrfToken, expectLandedOn, sessionOf, signIn, signInUntilCallback } from "../flow/end-to-end-helpers.js"
import { recordingLogger, secret } from "../flow/flow-helpers.js"
import { STORE_KINDS, type FaultStore } from "./faulty-adapter-support.js"
import { startFaultyOidcProvider, type OidcFault, type OidcFaultProxy } from "./oidc-faults-support.js"

const APP = "https://app.test"
const DASHBOARD = `${APP}/dashboard`
const CONFIGURATION_ERROR = `${APP}/auth/error?error=Configuration`
const CLIENT_SECRET = `client-secret-${crypto.randomUUID()}`
const BROKEN_ANSWERS: readonly OidcFault[] = ["server-error", "html", "invalid-json", "wrong-shape", "drop-connection"]

let server: OidcServer
let faults: OidcFaultProxy
let stop: (() => Promise<void>) | undefined
beforeAll(async () => {
  ;({ server, faults, stop } = await startFaultyOidcProvider(APP, CLIENT_SECRET))
})
afterAll(() => stop?.())

let store: FaultStore | undefined
afterEach(() => {
  faults.clear()
  store?.close()
})

/** A fresh app (and store) with a fresh provider object, so nothing discovered earlier is reused. */
function setup(overrides: Partial<OAuthConfig> = {}) {
  store = STORE_KINDS.find((kind) => kind.name === "SQLite")!.open()
  const log = recordingLogger()
  const provider: OAuthConfig = { id: "idp", name: "IdP", type: "oidc", issuer: server.issuer, clientId: "app-client", clientSecret: CLIENT_SECRET, fetch: faults.fetch, ...overrides }
  const config: AuthConfig = { secret, trustHost: true, logger: log.logger, adapter: store.real, session: { strategy: "database" }, providers: [provider] }
  return { browser: new Browser({ app: authApp(config), appOrigin: APP }), log, store }
}

type Setup = ReturnType<typeof setup>

/** The failure is in the log, with no client secret in it; the store holds nothing; nobody is signed in. */
async function expectCleanFailure({ browser, log, store }: Setup, code?: string): Promise<void> {
  const errors = log.lines.filter((line) => line.level === "error")
  expect(errors.length).toBeGreaterThan(0)
  if (code) expect(errors.map((line) => line.code)).toContain(code)
  expect(inspect(log.lines, { depth: 12 })).not.toContain(CLIENT_SECRET)
  const snapshot = await store.snapshot()
  expect([snapshot.users, snapshot.accounts, snapshot.sessions]).toEqual([[], [], []])
  expect(await sessionOf(browser)).toBeNull()
}

/** Once the provider is well, the same browser signs in, and the store holds one whole user. */
async function expectRecovery({ browser, store }: Setup): Promise<void> {
  faults.clear()
  expectLandedOn(await signIn(browser, "idp"), DASHBOARD)
  expect(await sessionOf(browser)).toMatchObject({ user: { email: "ada@example.com" } })
  const snapshot = await store.snapshot()
  expect([snapshot.users.length, snapshot.accounts.length, snapshot.sessions.length]).toEqual([1, 1, 1])
}

/** Follows the sign-in to the provider and back, then visits the callback once, without following on. */
async function callbackAnswer(app: Setup, breakFirst: () => void): Promise<string | undefined> {
  const callback = await signInUntilCallback(app.browser, "idp")
  breakFirst()
  return (await app.browser.get(callback, { follow: false })).last.location
}

describe.each(BROKEN_ANSWERS)("an OpenID Provider whose endpoint answers %s", (fault) => {
  it("at discovery: the sign-in stops before leaving the app, with Configuration, and starts once discovery works", async () => {
    const app = setup()
    faults.set("discovery", fault)
    const started = await app.browser.post(`${APP}/auth/signin/idp`, { csrfToken: await csrfToken(app.browser), callbackUrl: DASHBOARD }, { follow: false })
    expect(started.last.status).toBe(302)
    expect(started.last.location).toBe(CONFIGURATION_ERROR)
    await expectCleanFailure(app)
    await expectRecovery(app)
  })

  it("at the token endpoint: the callback ends in Configuration, stores nothing, and the next sign-in works", async () => {
    const app = setup()
    expect(await callbackAnswer(app, () => faults.set("token", fault))).toBe(CONFIGURATION_ERROR)
    await expectCleanFailure(app, "CallbackRouteError")
    await expectRecovery(app)
  })

  it("at userinfo: the callback ends in Configuration, stores nothing, and the next sign-in works", async () => {
    const app = setup({ idToken: false })
    expect(await callbackAnswer(app, () => faults.set("userinfo", fault))).toBe(CONFIGURATION_ERROR)
    await expectCleanFailure(app, "CallbackRouteError")
    await expectRecovery(app)
  })
})

it("signs in whatever the JWKS endpoint answers: ID tokens come straight from the token endpoint and are never checked against it", async () => {
  for (const fault of [...BROKEN_ANSWERS, "silent"] as const) {
    const app = setup()
    faults.set("jwks", fault)
    const mark = faults.paths.length
    expectLandedOn(await signIn(app.browser, "idp"), DASHBOARD)
    expect(faults.paths.slice(mark), fault).toContain("/token")
    expect(faults.paths.slice(mark), fault).not.toContain("/jwks")
    store?.close()
  }
})

it("waits for a slow token endpoint and signs in", async () => {
  const app = setup()
  const callback = await signInUntilCallback(app.browser, "idp")
  faults.set("token", "slow")
  expectLandedOn(await app.browser.get(callback), DASHBOARD)
  expect(await sessionOf(app.browser)).toMatchObject({ user: { email: "ada@example.com" } })
})

it("gives up on a token endpoint that never answers, with Configuration and nothing stored, and signs in once it answers", async () => {
  const app = setup()
  expect(await callbackAnswer(app, () => faults.set("token", "silent"))).toBe(CONFIGURATION_ERROR)
  await expectCleanFailure(app, "CallbackRouteError")
  await expectRecovery(app)
}, 40_000)

/**
 * Linking and unlinking a provider end to end, with the real oidc-provider and a SQLite store: a
 * user signed in with a password links the provider through `POST {basePath}/link/<provider>`
 * (the provider's real login, consent and code exchange), sees it among their accounts, and
 * unlinks it; a user whose only way in is that provider cannot unlink it until a second provider
 * is linked. Events fire for each change.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import type { Adapter, AdapterUser, StoredAdapter as FullAdapter } from "../../src/adapters/index.js"
import type { AuthConfig } from "../../src/types.js"
import { Browser } from "../support/browser.js"
import { startOidcServer, type OidcServer } from "../support/oidc-server.js"
import { authApp, csrfToken, expectLandedOn, sessionOf, signIn } from "./end-to-end-helpers.js"
import { recordingLogger, secret } from "./flow-helpers.js"
import { storedAdapters, type OpenStore } from "./stored-adapters.js"

const APP = "https://app.test"

let idp: OidcServer
let store: OpenStore
let adapter: FullAdapter
let events: { name: string; message: Record<string, unknown> }[]

beforeAll(async () => {
  idp = await startOidcServer({
    clients: [
      { client_id: "first-client", client_secret: "first-secret", redirect_uris: [`${APP}/auth/callback/idp`] },
      { client_id: "second-client", client_secret: "second-secret", redirect_uris: [`${APP}/auth/callback/work`] },
    ],
    accounts: { alice: { email: "alice@example.com", email_verified: true, name: "Alice" } },
  })
})
afterAll(async () => {
  await idp?.stop()
})
beforeEach(async () => {
  store = await storedAdapters.find((candidate) => candidate.name === "SQLite file")!.open()
  adapter = store.adapter as FullAdapter
  events = []
})
afterEach(async () => {
  await store?.close()
})

function oidc(id: string, name: string, clientId: string, clientSecret: string) {
  return { id, name, type: "oidc" as const, issuer: idp.issuer, clientId, clientSecret, authorization: { params: { scope: "openid email profile" } } }
}

function config(password: AdapterUser | undefined, logger = recordingLogger()): AuthConfig {
  return {
    secret,
    trustHost: true,
    adapter: adapter as Adapter,
    logger: logger.logger,
    session: { strategy: "database" },
    account: { routes: true, canUseCredentials: (user) => user.id === password?.id },
    events: {
      linkAccount: (message) => void events.push({ name: "linkAccount", message: message as unknown as Record<string, unknown> }),
      unlinkAccount: (message) => void events.push({ name: "unlinkAccount", message: message as unknown as Record<string, unknown> }),
    },
    providers: [
      {
        id: "credentials",
        name: "Password",
        type: "credentials",
        credentials: {},
        authorize: ({ username }) => (password && username === "ada" ? { id: password.id, email: password.email } : null),
        rateLimit: false,
      },
      oidc("idp", "IdP", "first-client", "first-secret"),
      oidc("work", "Work IdP", "second-client", "second-secret"),
    ],
  }
}

type Listed = { provider: string; providerAccountId: string; type: string; providerName: string | null }

async function accountsOf(browser: Browser): Promise<Listed[]> {
  const visit = await browser.get(`${APP}/auth/accounts`)
  expect(visit.status).toBe(200)
  expect(visit.last.body).not.toMatch(/access_token|id_token|refresh_token|eyJ/)
  return (visit.last.json() as { accounts: Listed[] }).accounts
}

async function link(browser: Browser, provider: string) {
  return browser.post(`${APP}/auth/link/${provider}`, { csrfToken: await csrfToken(browser), callbackUrl: `${APP}/account` })
}

async function unlink(browser: Browser, provider: string, providerAccountId: string) {
  return browser.post(`${APP}/auth/accounts`, { csrfToken: await csrfToken(browser), unlink: provider, providerAccountId }, { follow: false })
}

describe("linking a provider while signed in, then unlinking it", () => {
  it("links the provider's account to the password user through the real provider, lists it without tokens, fires linkAccount, and unlinks it", async () => {
    const ada = await adapter.createUser({ id: crypto.randomUUID(), name: "Ada", email: "ada@app.test", emailVerified: null, image: null })
    const browser = new Browser({ app: authApp(config(ada)), appOrigin: APP })
    await browser.post(`${APP}/auth/callback/credentials`, { csrfToken: await csrfToken(browser), username: "ada" })
    expect(await sessionOf(browser)).toMatchObject({ user: { email: "ada@app.test" } })
    expect(await accountsOf(browser)).toEqual([])

    expectLandedOn(await link(browser, "idp"), `${APP}/account`)
    // Still Ada (the provider's different address did not make another user), now with the account.
    expect(await sessionOf(browser)).toMatchObject({ user: { email: "ada@app.test" } })
    expect(await accountsOf(browser)).toEqual([{ provider: "idp", providerAccountId: "alice", type: "oidc", providerName: "IdP" }])
    expect((await adapter.getUserByAccount({ provider: "idp", providerAccountId: "alice" }))?.id).toBe(ada.id)
    expect(events).toEqual([{ name: "linkAccount", message: expect.objectContaining({ user: expect.objectContaining({ id: ada.id }), account: expect.objectContaining({ provider: "idp", providerAccountId: "alice" }) }) }])

    const unlinked = await unlink(browser, "idp", "alice")
    expect(unlinked.status).toBe(200)
    expect((unlinked.last.json() as { accounts: Listed[] }).accounts).toEqual([])
    expect(await adapter.getUserByAccount({ provider: "idp", providerAccountId: "alice" })).toBeNull()
    expect(events.at(-1)).toEqual({ name: "unlinkAccount", message: { user: expect.objectContaining({ id: ada.id }), account: { provider: "idp", providerAccountId: "alice", type: "oidc" } } })
    // The password still signs Ada in.
    expect(await sessionOf(browser)).toMatchObject({ user: { email: "ada@app.test" } })
  })

  it("refuses to unlink a provider that is the user's only way in, until a second provider is linked", async () => {
    const browser = new Browser({ app: authApp(config(undefined)), appOrigin: APP })
    await signIn(browser, "idp")
    expect(await sessionOf(browser)).toMatchObject({ user: { email: "alice@example.com" } })

    const refused = await unlink(browser, "idp", "alice")
    expect(refused.status).toBe(409)
    expect(refused.last.json()).toMatchObject({ error: "LastSignInMethod" })
    expect(await adapter.getUserByAccount({ provider: "idp", providerAccountId: "alice" })).not.toBeNull()

    expectLandedOn(await link(browser, "work"), `${APP}/account`)
    expect((await accountsOf(browser)).map((account) => account.provider).sort()).toEqual(["idp", "work"])

    expect((await unlink(browser, "idp", "alice")).status).toBe(200)
    const last = await unlink(browser, "work", "alice")
    expect(last.status).toBe(409)
    expect(last.last.json()).toMatchObject({ error: "LastSignInMethod" })
    expect(await accountsOf(browser)).toEqual([{ provider: "work", providerAccountId: "alice", type: "oidc", providerName: "Work IdP" }])
  })

  it("does not start a link for a signed-out browser, and links nothing", async () => {
    const browser = new Browser({ app: authApp(config(undefined)), appOrigin: APP })
    const visit = await browser.post(`${APP}/auth/link/idp`, { csrfToken: await csrfToken(browser), callbackUrl: `${APP}/account` }, { follow: false })
    expect(visit.last.location ?? "").not.toContain(idp.issuer)
    expect(visit.last.location).toMatch(/error=SessionRequired/)
    expect(await adapter.getUserByAccount({ provider: "idp", providerAccountId: "alice" })).toBeNull()
  })

  it("refuses to link a provider account another user already owns (OAuthAccountNotLinked), and changes nothing", async () => {
    const owner = await adapter.createUser({ id: crypto.randomUUID(), name: "Owner", email: "owner@app.test", emailVerified: null, image: null })
    await adapter.linkAccount({ userId: owner.id, type: "oidc", provider: "idp", providerAccountId: "alice" })
    const ada = await adapter.createUser({ id: crypto.randomUUID(), name: "Ada", email: "ada@app.test", emailVerified: null, image: null })
    const browser = new Browser({ app: authApp(config(ada)), appOrigin: APP })
    await browser.post(`${APP}/auth/callback/credentials`, { csrfToken: await csrfToken(browser), username: "ada" })
    const visit = await link(browser, "idp")
    expect(visit.url).toContain("error=OAuthAccountNotLinked")
    expect((await adapter.getUserByAccount({ provider: "idp", providerAccountId: "alice" }))?.id).toBe(owner.id)
    expect(await sessionOf(browser)).toMatchObject({ user: { email: "ada@app.test" } })
    expect(events).toEqual([])
  })
})

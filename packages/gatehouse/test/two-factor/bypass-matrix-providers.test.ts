/**
 * The bypass matrix (issue 37), the first factors bypass-matrix.test.ts
 * does not cover: OpenID Connect against a real oidc-provider (its ID token claiming `amr` values,
 * `response_mode=form_post`, dangerous email linking to an enrolled user, `POST link/<provider>`
 * while signed in), the email link's confirmation-page POST, passkeys with and without user
 * verification, passkey registration while signed in, the email link into an account whose address
 * was never proven (a squatter's factor goes with the rest), and the redirect proxy. JWT and database
 * sessions on the memory adapter; the SQL stores are in bypass-matrix-stores.test.ts.
 *
 * OIDC, the email confirmation POST and passkeys without user verification run under every
 * `require` policy of the matrix (POLICIES: "enrolled", "always", a function answering true or
 * false), for a user enrolled or not. Each cell: after the first factor no session cookie, no
 * session row, no `signIn` event, no `jwt` callback, no session read, Location the two-factor
 * page; after the right TOTP code (computed here) one session at the expected authentication, the
 * event once. Where the policy says no second factor is due, the session is there at once, at the
 * expected aal.
 *
 * Email-code sign-in (`code: true`) as a first factor and a brand-new user enrolling before any
 * session are in bypass-matrix.test.ts; framework sign-ins in bypass-matrix-integrations.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import type { AdapterUser } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Passkey } from "../../src/providers/passkey.js"
import type { EmailConfig, OAuthConfig, VerificationRequestParams } from "../../src/providers/types.js"
import type { AuthConfig, JWTCallbackParams, SessionStrategy, TwoFactorRequire } from "../../src/types.js"
import { Browser, type Visit } from "../support/browser.js"
import { startOidcServer, type OidcServer } from "../support/oidc-server.js"
import { SoftwareAuthenticator } from "../support/software-authenticator.js"
import { authApp, csrfToken, sessionOf, signIn, signInUntilCallback } from "../flow/end-to-end-helpers.js"
import { Client, recordingLogger, secret } from "../flow/flow-helpers.js"
import {
  DASHBOARD,
  ORIGIN,
  PENDING,
  SESSION,
  TWO_FACTOR_PAGE,
  AT_ONCE,
  ENROLMENT_FIRST,
  POLICIES,
  enrol,
  sets,
  totpNow,
  type Adapted,
  type Authentication,
} from "./bypass-matrix-helpers.js"

const PROXY = "https://proxy.test"
const STRATEGIES = ["jwt", "database"] as const

let idp: OidcServer
beforeAll(async () => {
  idp = await startOidcServer({
    clients: [
      { client_id: "app-client", client_secret: "app-secret", redirect_uris: ["idp", "idp-form", "idp-dangerous"].map((id) => `${ORIGIN}/auth/callback/${id}`) },
      { client_id: "proxied-client", client_secret: "proxied-secret", redirect_uris: [`${PROXY}/auth/callback/proxied`] },
    ],
    accounts: { alice: { email: "alice@example.com", email_verified: true, name: "Alice Liddell" } },
  })
})
afterAll(() => idp?.stop())

/** What a cell watches: the store, the `signIn` event and the jwt callback. */
function watched() {
  return { adapter: MemoryAdapter() as Adapted, signInEvent: vi.fn((_message: unknown) => {}), jwtCallback: vi.fn(({ token }: JWTCallbackParams) => token) }
}
type Watched = ReturnType<typeof watched>

function appConfig(w: Watched, strategy: SessionStrategy, providers: AuthConfig["providers"], twoFactor: Partial<NonNullable<AuthConfig["twoFactor"]>> = {}, extra: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret,
    trustHost: true,
    logger: recordingLogger().logger,
    adapter: w.adapter,
    session: { strategy },
    providers,
    twoFactor: { totp: { issuer: "Gatehouse tests" }, require: "enrolled", ...twoFactor },
    events: { signIn: w.signInEvent },
    callbacks: { jwt: w.jwtCallback },
    ...extra,
  }
}

/** Nothing of a session for `uid` after a first factor: no new row, no event, no jwt callback. */
async function expectNothingIssued(w: Watched, uid: string, rowsBefore = 0): Promise<void> {
  expect(await w.adapter.listSessionsByUserId(uid)).toHaveLength(rowsBefore)
  expect(w.signInEvent).not.toHaveBeenCalled()
  expect(w.jwtCallback).not.toHaveBeenCalled()
}

/** Exactly one session for `uid`, one `signIn` event, the jwt callback run once for the sign-in. */
async function expectOneSession(w: Watched, strategy: SessionStrategy, uid: string, rowsBefore = 0): Promise<void> {
  expect(w.signInEvent).toHaveBeenCalledTimes(1)
  expect(w.signInEvent.mock.calls[0]![0]).toMatchObject({ user: expect.objectContaining({ id: uid }) })
  if (strategy === "database") expect(await w.adapter.listSessionsByUserId(uid)).toHaveLength(rowsBefore + 1)
  else expect(w.jwtCallback.mock.calls.filter(([params]) => params.trigger === "signIn" || params.trigger === "signUp")).toHaveLength(1)
}

/** A stored user with an OIDC account of `provider` for the IdP's `alice`, signed in before (so not new). */
async function storedAlice(adapter: Adapted, provider: string): Promise<string> {
  const user = await adapter.createUser({ id: "", name: "Alice Liddell", email: "alice@example.com", emailVerified: new Date() } as AdapterUser)
  await adapter.linkAccount({ userId: user.id, type: "oidc", provider, providerAccountId: "alice" })
  return user.id
}

function oidc(id: string, clientId = "app-client", clientSecret = "app-secret", extra: Partial<OAuthConfig> = {}): OAuthConfig {
  return { id, name: `IdP ${id}`, type: "oidc", issuer: idp.issuer, clientId, clientSecret, ...extra }
}

/** The browser's TOTP POST on the app, not followed. */
async function postTotp(browser: Browser, code: string): Promise<Visit> {
  return browser.post(`${ORIGIN}/auth/two-factor`, { csrfToken: await csrfToken(browser), code, method: "totp" }, { follow: false })
}

describe.each(STRATEGIES)("%s sessions: OpenID Connect (oidc-provider)", (strategy) => {
  afterAll(() => {
    idp.failures.idTokenClaims = undefined
  })

  it.each(POLICIES)("require %s: an enrolled user whose ID token claims amr [pwd, mfa] gets no session until the TOTP code; then aal 2", async (_name, policy) => {
    const w = watched()
    const uid = await storedAlice(w.adapter, "idp")
    const key = await enrol(w.adapter, uid)
    const browser = new Browser({ app: authApp(appConfig(w, strategy, [oidc("idp")], { require: policy() })), appOrigin: ORIGIN })
    // The IdP says it did two factors itself: an app's own second factor is still asked for.
    idp.failures.idTokenClaims = { amr: ["pwd", "mfa"] }

    const callback = await signInUntilCallback(browser, "idp", { login_hint: "alice" })
    const first = await browser.get(callback, { follow: false })
    expect(first.last.status).toBe(302)
    expect(first.last.location).toBe(TWO_FACTOR_PAGE)
    expect(sets(first.last, SESSION)).toBe(false)
    expect(browser.cookie(PENDING)).toBeTruthy()
    expect(await sessionOf(browser)).toBeNull()
    await expectNothingIssued(w, uid)

    const done = await postTotp(browser, totpNow(key))
    expect(done.last.location).toBe(DASHBOARD)
    expect(browser.cookie(SESSION)).toBeTruthy()
    await expectOneSession(w, strategy, uid)
    const { authentication } = (await sessionOf(browser)) as { authentication: Authentication }
    expect(authentication).toMatchObject({ aal: 2, amr: ["pwd", "otp", "mfa"] })
  })

  it.each(AT_ONCE)('a user who is not enrolled, require %s: signed in at once at aal 1 with the IdP\'s amr (without its "mfa"); no amr claim reads as "fed"', async (_name, policy) => {
    for (const claimed of [["pwd"], undefined, ["pwd", "mfa"]]) {
      const w = watched()
      const uid = await storedAlice(w.adapter, "idp")
      const browser = new Browser({ app: authApp(appConfig(w, strategy, [oidc("idp")], { require: policy() })), appOrigin: ORIGIN })
      idp.failures.idTokenClaims = claimed && { amr: claimed }
      const callback = await signInUntilCallback(browser, "idp", { login_hint: "alice" })
      const first = await browser.get(callback, { follow: false })
      expect(first.last.location).toBe(DASHBOARD)
      expect(browser.cookie(PENDING)).toBeUndefined()
      await expectOneSession(w, strategy, uid)
      // The IdP's own "mfa" makes no aal 2 here, and an aal 1 session's amr does not claim it:
      // `mfa` is there only where Gatehouse counted two factors.
      const expected = claimed?.filter((value) => value !== "mfa") ?? ["fed"]
      expect(((await sessionOf(browser)) as { authentication: Authentication }).authentication).toEqual({ aal: 1, amr: expected, secondFactorAt: null })
    }
  })

  it.each(ENROLMENT_FIRST)("a user who is not enrolled, require %s: no session, enrolment first", async (_name, policy) => {
    const w = watched()
    const uid = await storedAlice(w.adapter, "idp")
    const browser = new Browser({ app: authApp(appConfig(w, strategy, [oidc("idp")], { require: policy() })), appOrigin: ORIGIN })
    idp.failures.idTokenClaims = { amr: ["pwd", "mfa"] }
    const callback = await signInUntilCallback(browser, "idp", { login_hint: "alice" })
    const first = await browser.get(callback, { follow: false })
    expect(first.last.location).toBe(TWO_FACTOR_PAGE)
    expect(sets(first.last, SESSION)).toBe(false)
    expect(await sessionOf(browser)).toBeNull()
    await expectNothingIssued(w, uid)
  })
})

describe.each(STRATEGIES)("%s sessions: OpenID Connect, more ways in", (strategy) => {
  it("response_mode=form_post (the callback is a cross-site POST): no session until the TOTP code", async () => {
    const w = watched()
    const uid = await storedAlice(w.adapter, "idp-form")
    const key = await enrol(w.adapter, uid)
    const provider = oidc("idp-form", "app-client", "app-secret", {
      checks: ["pkce", "state", "nonce"],
      authorization: { url: `${idp.issuer}/auth`, params: { response_mode: "form_post" } },
    })
    const browser = new Browser({ app: authApp(appConfig(w, strategy, [provider])), appOrigin: ORIGIN })
    const visit = await signIn(browser, "idp-form", { query: { login_hint: "alice" } })
    const callback = visit.hops.find((hop) => hop.url === `${ORIGIN}/auth/callback/idp-form`)
    expect(callback).toMatchObject({ method: "POST", status: 302, location: TWO_FACTOR_PAGE })
    expect(sets(callback!, SESSION)).toBe(false)
    expect(visit.last.url).toBe(TWO_FACTOR_PAGE)
    expect(await sessionOf(browser)).toBeNull()
    await expectNothingIssued(w, uid)

    expect((await postTotp(browser, totpNow(key))).last.location).toBe(DASHBOARD)
    await expectOneSession(w, strategy, uid)
    expect(((await sessionOf(browser)) as { authentication: Authentication }).authentication).toMatchObject({ aal: 2 })
  })

  it.each(POLICIES)("dangerous email linking to an enrolled user, require %s: nothing linked and no session before the code; both after it", async (_name, policy) => {
    const w = watched()
    const linkAccountEvent = vi.fn((_message: unknown) => {})
    const { id: uid } = await w.adapter.createUser({ id: "", name: "Alice", email: "alice@example.com", emailVerified: new Date() } as AdapterUser)
    const key = await enrol(w.adapter, uid)
    const config = appConfig(w, strategy, [oidc("idp-dangerous", "app-client", "app-secret", { allowDangerousEmailAccountLinking: true })], { require: policy() })
    const browser = new Browser({ app: authApp({ ...config, events: { ...config.events, linkAccount: linkAccountEvent } }), appOrigin: ORIGIN })
    const account = { provider: "idp-dangerous", providerAccountId: "alice" }

    const callback = await signInUntilCallback(browser, "idp-dangerous", { login_hint: "alice" })
    expect((await browser.get(callback, { follow: false })).last.location).toBe(TWO_FACTOR_PAGE)
    expect(await w.adapter.getUserByAccount(account)).toBeNull()
    expect(linkAccountEvent).not.toHaveBeenCalled()
    await expectNothingIssued(w, uid)

    expect((await postTotp(browser, totpNow(key))).last.location).toBe(DASHBOARD)
    expect((await w.adapter.getUserByAccount(account))?.id).toBe(uid)
    expect(linkAccountEvent).toHaveBeenCalledTimes(1)
    await expectOneSession(w, strategy, uid)
  })

  it.each(POLICIES)("dangerous email linking to a user who is not enrolled, require %s: aal 1 at once, or no session until enrolment", async (_name, policy, notEnrolled) => {
    const w = watched()
    const { id: uid } = await w.adapter.createUser({ id: "", name: "Alice", email: "alice@example.com", emailVerified: new Date() } as AdapterUser)
    const config = appConfig(w, strategy, [oidc("idp-dangerous", "app-client", "app-secret", { allowDangerousEmailAccountLinking: true })], { require: policy() })
    const browser = new Browser({ app: authApp(config), appOrigin: ORIGIN })
    idp.failures.idTokenClaims = undefined
    const callback = await signInUntilCallback(browser, "idp-dangerous", { login_hint: "alice" })
    const first = await browser.get(callback, { follow: false })
    if (notEnrolled === "aal 1") {
      expect(first.last.location).toBe(DASHBOARD)
      await expectOneSession(w, strategy, uid)
      expect(((await sessionOf(browser)) as { authentication: Authentication }).authentication).toEqual({ aal: 1, amr: ["fed"], secondFactorAt: null })
      return
    }
    expect(first.last.location).toBe(TWO_FACTOR_PAGE)
    expect(sets(first.last, SESSION)).toBe(false)
    expect(await sessionOf(browser)).toBeNull()
    await expectNothingIssued(w, uid)
  })

  it("POST link/<provider> while signed in at aal 2: the account is linked, the session keeps its authentication, nothing is asked", async () => {
    const w = watched()
    const { id: uid } = await w.adapter.createUser({ id: "", name: "Alice", email: "alice@example.com", emailVerified: new Date() } as AdapterUser)
    const key = await enrol(w.adapter, uid)
    const credentials = { id: "credentials", name: "Password", type: "credentials" as const, credentials: {}, authorize: () => ({ id: uid, email: "alice@example.com" }), rateLimit: false as const }
    const config = appConfig(w, strategy, [credentials, oidc("idp")], {}, { account: { routes: true } })
    const browser = new Browser({ app: authApp(config), appOrigin: ORIGIN })
    await browser.post(`${ORIGIN}/auth/callback/credentials`, { csrfToken: await csrfToken(browser), callbackUrl: DASHBOARD }, { follow: false })
    await postTotp(browser, totpNow(key))
    const before = ((await sessionOf(browser)) as { authentication: Authentication }).authentication
    expect(before.aal).toBe(2)

    const visit = await browser.post(`${ORIGIN}/auth/link/idp`, { csrfToken: await csrfToken(browser), callbackUrl: `${ORIGIN}/account` })
    expect(visit.url).toBe(`${ORIGIN}/account`)
    expect(browser.cookie(PENDING)).toBeUndefined()
    expect((await w.adapter.getUserByAccount({ provider: "idp", providerAccountId: "alice" }))?.id).toBe(uid)
    expect(((await sessionOf(browser)) as { authentication: Authentication }).authentication).toEqual(before)
  })
})

describe.each(STRATEGIES)("%s sessions: the email link opened in another browser (confirmation page, then POST)", (strategy) => {
  async function emailApp(w: Watched, require: TwoFactorRequire) {
    const sent: VerificationRequestParams[] = []
    const provider = { id: "email", name: "Email", type: "email", sendVerificationRequest: (params) => void sent.push(params) } as EmailConfig
    const config = appConfig(w, strategy, [provider], { require })
    const user = await w.adapter.createUser({ id: "", name: "Ada", email: "ada@app.test", emailVerified: new Date() } as AdapterUser)
    const asking = new Client(config)
    await asking.postForm("signin/email", { csrfToken: await asking.csrfToken(), email: "ada@app.test", callbackUrl: DASHBOARD })
    const link = new URL(sent.at(-1)!.url)
    // Another browser (a phone's mail app): the GET shows a page, its form POSTs the link.
    const opening = new Client(config)
    const page = await opening.get(`callback/email${link.search}`)
    expect(page.status).toBe(200)
    expect(opening.jar.get(SESSION)).toBeUndefined()
    const confirm = () =>
      opening.csrfToken().then((csrf) =>
        opening.postForm("callback/email", { csrfToken: csrf, token: link.searchParams.get("token")!, email: link.searchParams.get("email")! }),
      )
    return { uid: user.id, opening, confirm }
  }

  it.each(POLICIES)("require %s, an enrolled user: the POST gives no session; the right TOTP code gives one at aal 2", async (_name, policy) => {
    const w = watched()
    const { uid, opening, confirm } = await emailApp(w, policy())
    const key = await enrol(w.adapter, uid)
    const first = await confirm()
    expect(first.status).toBe(302)
    expect(first.headers.get("location")).toBe(TWO_FACTOR_PAGE)
    expect(sets(first, SESSION)).toBe(false)
    expect(opening.jar.get(PENDING)).toBeTruthy()
    expect(await opening.session()).toBeNull()
    await expectNothingIssued(w, uid)

    const done = await opening.postForm("two-factor", { csrfToken: await opening.csrfToken(), code: totpNow(key) })
    expect(done.headers.get("location")).toBe(DASHBOARD)
    await expectOneSession(w, strategy, uid)
    // Two one-time passwords of different factors (the mailbox's link, then the authenticator's
    // code): amr is a set (RFC 8176), so `otp` once, and `mfa` because the second was not the
    // mailbox again (a code to the same mailbox is never offered: mailbox-not-second-factor.test.ts).
    expect(((await opening.session()) as { authentication: Authentication }).authentication).toMatchObject({ aal: 2, amr: ["otp", "mfa"] })
  })

  it.each(AT_ONCE)("require %s, a user who is not enrolled: at once at aal 1", async (_name, policy) => {
    const w = watched()
    const signedIn = await emailApp(w, policy())
    expect((await signedIn.confirm()).headers.get("location")).toBe(DASHBOARD)
    await expectOneSession(w, strategy, signedIn.uid)
    expect(((await signedIn.opening.session()) as { authentication: Authentication }).authentication).toEqual({ aal: 1, amr: ["otp"], secondFactorAt: null })
  })

  it.each(ENROLMENT_FIRST)("require %s, a user who is not enrolled: nothing, enrolment first", async (_name, policy) => {
    const w = watched()
    const refused = await emailApp(w, policy())
    const first = await refused.confirm()
    expect(first.headers.get("location")).toBe(TWO_FACTOR_PAGE)
    expect(sets(first, SESSION)).toBe(false)
    expect(await refused.opening.session()).toBeNull()
    await expectNothingIssued(w, refused.uid)
  })
})

describe.each(STRATEGIES)("%s sessions: the email link into an account whose address was never proven", (strategy) => {
  /** A squatter's account for ada's address (never proven), with the squatter's TOTP enrolled; ada asks for a link. */
  async function squatted(w: Watched, require: TwoFactorRequire) {
    const sent: VerificationRequestParams[] = []
    const provider = { id: "email", name: "Email", type: "email", sendVerificationRequest: (params) => void sent.push(params) } as EmailConfig
    const notify = vi.fn((_notice: unknown) => {})
    const disabled = vi.fn((_message: unknown) => {})
    const config = appConfig(w, strategy, [provider], { require, notify }, { events: { signIn: w.signInEvent, twoFactorDisabled: disabled } })
    const { id: uid } = await w.adapter.createUser({ id: "", name: "Squatter", email: "ada@app.test", emailVerified: null } as AdapterUser)
    const squatterKey = await enrol(w.adapter, uid)
    const owner = new Client(config)
    await owner.postForm("signin/email", { csrfToken: await owner.csrfToken(), email: "ada@app.test", callbackUrl: DASHBOARD })
    const openLink = () => owner.get(`callback/email${new URL(sent.at(-1)!.url).search}`)
    return { uid, squatterKey, owner, openLink, notify, disabled }
  }

  it('removes the squatter\'s factor with the rest, and says so; the owner is signed in at aal 1 under "enrolled"', async () => {
    const w = watched()
    const { uid, owner, openLink, notify, disabled } = await squatted(w, "enrolled")
    const opened = await openLink()
    expect(opened.status).toBe(200)
    expect(await opened.text()).toContain("Two-step verification")
    expect(await w.adapter.getTwoFactor!(uid)).toBeNull()
    // Removed as any disabling is: the event and the notice, to the owner whose address it now is.
    expect(disabled.mock.calls).toEqual([[{ user: expect.objectContaining({ id: uid, emailVerified: expect.any(Date) }) }]])
    expect(notify.mock.calls).toEqual([[{ user: expect.objectContaining({ id: uid }), change: "disabled" }]])
    expect(owner.jar.get(PENDING)).toBeUndefined()
    await expectOneSession(w, strategy, uid)
    expect(((await owner.session()) as { authentication: Authentication }).authentication).toEqual({ aal: 1, amr: ["otp"], secondFactorAt: null })
  })

  it('under "always" the owner enrols before any session: the squatter\'s code finishes nothing', async () => {
    const w = watched()
    const { uid, squatterKey, owner, openLink } = await squatted(w, "always")
    const opened = await openLink()
    expect(opened.headers.get("location")).toBe(TWO_FACTOR_PAGE)
    expect(await w.adapter.getTwoFactor!(uid)).toBeNull()
    await expectNothingIssued(w, uid)
    await owner.postForm("two-factor", { csrfToken: await owner.csrfToken(), code: totpNow(squatterKey) })
    expect(owner.jar.get(SESSION)).toBeUndefined()
    await expectNothingIssued(w, uid)
  })
})

describe.each(STRATEGIES)("%s sessions: passkeys", (strategy) => {
  /** A passkey provider that accepts responses without user verification, so both kinds of key work. */
  const passkey = () => Passkey({ verifyAuthenticationOptions: { requireUserVerification: false }, verifyRegistrationOptions: { requireUserVerification: false } })

  async function passkeyApp(w: Watched, twoFactor: Partial<NonNullable<AuthConfig["twoFactor"]>>, userVerified: boolean) {
    const config = appConfig(w, strategy, [passkey()], twoFactor, { experimental: { enableWebAuthn: true } })
    const authenticator = new SoftwareAuthenticator({ userVerified })
    // Registered before two-factor mattered to this user: the user exists with the passkey.
    const registering = new Client({ ...config, twoFactor: undefined, events: {}, callbacks: {} }, ORIGIN)
    const options = (await (await registering.get(`webauthn-options/passkey?${new URLSearchParams({ action: "register", email: "pat@app.test" })}`)).json()) as { options: { challenge: string } }
    const credential = authenticator.register({ challenge: options.options.challenge, origin: ORIGIN, rpId: "app.test" })
    const registered = await registering.postForm("callback/passkey", { action: "register", data: JSON.stringify(credential) })
    expect(registered.headers.get("location")).toBe(ORIGIN)
    // Stored as standard base64, as Auth.js stores it.
    const uid = (await w.adapter.getAuthenticator!(authenticator.credentialId.toString("base64")))!.userId
    // The registration's own session (database strategy) is the baseline.
    const rowsBefore = (await w.adapter.listSessionsByUserId(uid)).length
    const client = new Client(config, ORIGIN)
    const authenticate = async () => {
      const started = (await (await client.get("webauthn-options/passkey?action=authenticate")).json()) as { options: { challenge: string } }
      const answer = authenticator.authenticate({ challenge: started.options.challenge, origin: ORIGIN, rpId: "app.test" })
      return client.postForm("callback/passkey", { action: "authenticate", data: JSON.stringify(answer) })
    }
    return { uid, client, authenticate, rowsBefore }
  }

  it.each(POLICIES.flatMap(([name, policy]) => [true, false].map((enrolled) => [name, enrolled, policy] as const)))("with user verification, require %s, user enrolled %s: aal 2 at once, no challenge", async (_name, enrolled, policy) => {
    const w = watched()
    const { uid, client, authenticate, rowsBefore } = await passkeyApp(w, { require: policy() }, true)
    if (enrolled) await enrol(w.adapter, uid)
    const first = await authenticate()
    expect(first.headers.get("location")).toBe(ORIGIN)
    expect(client.jar.get(PENDING)).toBeUndefined()
    await expectOneSession(w, strategy, uid, rowsBefore)
    const { authentication } = (await client.session()) as { authentication: Authentication }
    expect(authentication).toMatchObject({ aal: 2, amr: ["hwk", "user", "mfa"] })
  })

  it.each(POLICIES)("without user verification, require %s, an enrolled user: no session until the TOTP code; then aal 2 (hwk + otp)", async (_name, policy) => {
    const w = watched()
    const { uid, client, authenticate, rowsBefore } = await passkeyApp(w, { require: policy() }, false)
    const key = await enrol(w.adapter, uid)
    const first = await authenticate()
    expect(first.headers.get("location")).toBe(TWO_FACTOR_PAGE)
    expect(sets(first, SESSION)).toBe(false)
    expect(await client.session()).toBeNull()
    await expectNothingIssued(w, uid, rowsBefore)
    const done = await client.postForm("two-factor", { csrfToken: await client.csrfToken(), code: totpNow(key) })
    expect(done.headers.get("location")).toBe(ORIGIN)
    await expectOneSession(w, strategy, uid, rowsBefore)
    expect(((await client.session()) as { authentication: Authentication }).authentication).toMatchObject({ aal: 2, amr: ["hwk", "otp", "mfa"] })
  })

  it.each(AT_ONCE)("without user verification, require %s, not enrolled: aal 1 at once", async (_name, policy) => {
    const w = watched()
    const one = await passkeyApp(w, { require: policy() }, false)
    expect((await one.authenticate()).headers.get("location")).toBe(ORIGIN)
    await expectOneSession(w, strategy, one.uid, one.rowsBefore)
    expect(((await one.client.session()) as { authentication: Authentication }).authentication).toEqual({ aal: 1, amr: ["hwk"], secondFactorAt: null })
  })

  it.each(ENROLMENT_FIRST)("without user verification, require %s, not enrolled: nothing, enrolment first", async (_name, policy) => {
    const w = watched()
    const two = await passkeyApp(w, { require: policy() }, false)
    const first = await two.authenticate()
    expect(first.headers.get("location")).toBe(TWO_FACTOR_PAGE)
    expect(sets(first, SESSION)).toBe(false)
    expect(await two.client.session()).toBeNull()
    await expectNothingIssued(w, two.uid, two.rowsBefore)
  })

  it('with user verification under passkey: "one-factor", an enrolled user: no session until the TOTP code', async () => {
    const w = watched()
    const { uid, client, authenticate, rowsBefore } = await passkeyApp(w, { require: "enrolled", passkey: "one-factor" }, true)
    const key = await enrol(w.adapter, uid)
    const first = await authenticate()
    expect(first.headers.get("location")).toBe(TWO_FACTOR_PAGE)
    expect(sets(first, SESSION)).toBe(false)
    await expectNothingIssued(w, uid, rowsBefore)
    await client.postForm("two-factor", { csrfToken: await client.csrfToken(), code: totpNow(key) })
    await expectOneSession(w, strategy, uid, rowsBefore)
    expect(((await client.session()) as { authentication: Authentication }).authentication).toMatchObject({ aal: 2, amr: ["hwk", "user", "otp", "mfa"] })
  })
})

describe.each(STRATEGIES)("%s sessions: a passkey registered while signed in", (strategy) => {
  async function signedIn(w: Watched) {
    const sent: VerificationRequestParams[] = []
    const email = { id: "email", name: "Email", type: "email", sendVerificationRequest: (params) => void sent.push(params) } as EmailConfig
    const config = appConfig(w, strategy, [email, Passkey()], { require: "enrolled" }, { experimental: { enableWebAuthn: true } })
    const { id: uid } = await w.adapter.createUser({ id: "", name: "Ada", email: "ada@app.test", emailVerified: new Date() } as AdapterUser)
    const client = new Client(config, ORIGIN)
    const signInByLink = async () => {
      await client.postForm("signin/email", { csrfToken: await client.csrfToken(), email: "ada@app.test", callbackUrl: DASHBOARD })
      return client.get(`callback/email${new URL(sent.at(-1)!.url).search}`)
    }
    const registerPasskey = async () => {
      const options = (await (await client.get("webauthn-options/passkey?action=register")).json()) as { options: { challenge: string } }
      const credential = new SoftwareAuthenticator().register({ challenge: options.options.challenge, origin: ORIGIN, rpId: "app.test" })
      return client.postForm("callback/passkey", { action: "register", data: JSON.stringify(credential) })
    }
    return { uid, client, signInByLink, registerPasskey }
  }
  const authenticationOf = async (client: Client) => ((await client.session()) as { authentication: Authentication }).authentication

  it("keeps an aal 1 session at aal 1: a verified passkey made inside a session raises nothing", async () => {
    const w = watched()
    const { uid, client, signInByLink, registerPasskey } = await signedIn(w)
    expect((await signInByLink()).headers.get("location")).toBe(DASHBOARD)
    const before = await authenticationOf(client)
    expect(before).toEqual({ aal: 1, amr: ["otp"], secondFactorAt: null })
    const registered = await registerPasskey()
    expect(registered.status).toBe(302)
    expect(client.jar.get(PENDING)).toBeUndefined()
    expect(await w.adapter.listAuthenticatorsByUserId!(uid)).toHaveLength(1)
    expect(await authenticationOf(client)).toEqual(before)
  })

  it("keeps an aal 2 session at aal 2 with the same check time: never re-dated", async () => {
    const w = watched()
    const { uid, client, signInByLink, registerPasskey } = await signedIn(w)
    const key = await enrol(w.adapter, uid)
    expect((await signInByLink()).headers.get("location")).toBe(TWO_FACTOR_PAGE)
    await client.postForm("two-factor", { csrfToken: await client.csrfToken(), code: totpNow(key) })
    const before = await authenticationOf(client)
    expect(before.aal).toBe(2)
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.now() + 5_000)
    try {
      expect((await registerPasskey()).status).toBe(302)
      expect(client.jar.get(PENDING)).toBeUndefined()
      expect(await authenticationOf(client)).toEqual(before)
    } finally {
      vi.useRealTimers()
    }
  })
})

describe("the redirect proxy", () => {
  it("answers the provider's callback with a forward only: no session and no pending cookie on the proxy; the app then asks for the code", async () => {
    const w = watched()
    const uid = await storedAlice(w.adapter, "proxied")
    const key = await enrol(w.adapter, uid)
    const redirectProxyUrl = `${PROXY}/auth`
    const provider = () => oidc("proxied", "proxied-client", "proxied-secret")
    idp.failures.idTokenClaims = undefined
    const browser = new Browser({
      app: authApp(appConfig(w, "database", [provider()], {}, { redirectProxyUrl })),
      appOrigin: ORIGIN,
      // The proxy deployment shares the secret, not the store.
      origins: { [PROXY]: authApp(appConfig(watched(), "database", [provider()], {}, { redirectProxyUrl })) },
    })
    const visit = await signIn(browser, "proxied", { query: { login_hint: "alice" } })
    const atProxy = visit.hops.find((hop) => hop.url.startsWith(`${PROXY}/auth/callback/proxied`))!
    expect(atProxy.status).toBe(302)
    expect(new URL(atProxy.location!).origin).toBe(ORIGIN)
    expect(sets(atProxy, SESSION)).toBe(false)
    expect(sets(atProxy, PENDING)).toBe(false)
    expect(browser.cookie(SESSION, PROXY)).toBeUndefined()
    expect(browser.cookie(PENDING, PROXY)).toBeUndefined()
    // The app's own callback made the pending sign-in and sent the browser to the two-factor page.
    expect(visit.last.url).toBe(TWO_FACTOR_PAGE)
    expect(browser.cookie(PENDING)).toBeTruthy()
    expect(await sessionOf(browser)).toBeNull()
    await expectNothingIssued(w, uid)

    expect((await postTotp(browser, totpNow(key))).last.location).toBe(DASHBOARD)
    await expectOneSession(w, "database", uid)
    expect(((await sessionOf(browser)) as { authentication: Authentication }).authentication).toMatchObject({ aal: 2, amr: ["fed", "otp", "mfa"] })
  })
})

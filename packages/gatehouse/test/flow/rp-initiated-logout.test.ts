/**
 * OpenID Connect RP-Initiated Logout against the real oidc-provider: a user signs in through the
 * provider, signs out at the app asking to sign out of the provider too, goes through the
 * provider's end-session confirmation and lands back on the app, signed out at both: the app has
 * no session and the provider's session cookie no longer signs anyone in (a `prompt=none`
 * authorization request answers `login_required`). Database sessions (SQLite) and JWT sessions,
 * with and without an adapter keeping the ID token; a provider the session did not come from, a
 * provider without an end-session endpoint and a signed-out request make a plain sign-out.
 */
import { decodeJwt } from "jose"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import type { Adapter } from "../../src/adapters/index.js"
import { Auth } from "../../src/core/handler.js"
import type { AuthConfig } from "../../src/types.js"
import { Browser, type Visit } from "../support/browser.js"
import { startOidcServer, type OidcServer } from "../support/oidc-server.js"
import { authApp, csrfToken, expectLandedOn, sessionOf, signIn } from "./end-to-end-helpers.js"
import { recordingLogger, secret } from "./flow-helpers.js"
import { storedAdapters, type OpenStore } from "./stored-adapters.js"

const APP = "https://app.test"
const SIGNED_OUT = `${APP}/signed-out`

let idp: OidcServer
let store: OpenStore

beforeAll(async () => {
  idp = await startOidcServer({
    clients: [
      {
        client_id: "app-client",
        client_secret: "app-secret",
        redirect_uris: [`${APP}/auth/callback/idp`, `${APP}/auth/callback/other`, `${APP}/auth/callback/plain`],
        post_logout_redirect_uris: [SIGNED_OUT, `${APP}/dashboard`],
      },
    ],
    accounts: { alice: { email: "alice@example.com", email_verified: true, name: "Alice" } },
  })
})
afterAll(async () => {
  await idp?.stop()
})
beforeEach(async () => {
  store = await storedAdapters.find((candidate) => candidate.name === "SQLite file")!.open()
})
afterEach(async () => {
  await store?.close()
})

/** The provider: discovered (its metadata names an end_session_endpoint), under `id`. */
function idpProvider(id = "idp") {
  return {
    id,
    name: id === "idp" ? "IdP" : "Other",
    type: "oidc" as const,
    issuer: idp.issuer,
    clientId: "app-client",
    clientSecret: "app-secret",
    authorization: { params: { scope: "openid email profile" } },
  }
}

function config(strategy: "database" | "jwt", { adapter = true }: { adapter?: boolean } = {}): AuthConfig {
  return {
    secret,
    trustHost: true,
    ...(adapter && { adapter: store.adapter as Adapter }),
    session: { strategy },
    providers: [idpProvider(), idpProvider("other")],
  }
}

function browserFor(authConfig: AuthConfig): Browser {
  return new Browser({ app: authApp(authConfig), appOrigin: APP })
}

/** Posts the sign-out form (as a sign-out button would) without following the answer. */
async function postSignOut(browser: Browser, fields: Record<string, string>): Promise<Visit> {
  return browser.post(`${APP}/auth/signout`, { csrfToken: await csrfToken(browser), ...fields }, { follow: false })
}

/**
 * Follows the sign-out to the provider's end-session page, confirms there ("Yes, sign me out":
 * oidc-provider's form posts `xsrf` and `logout=yes`) and follows the provider back.
 */
async function confirmAtProvider(browser: Browser, signOut: Visit): Promise<Visit> {
  const confirmation = await browser.follow(signOut)
  expect(confirmation.url.startsWith(`${idp.issuer}/session/end`), confirmation.url).toBe(true)
  expect(confirmation.last.body).toContain("op.logoutForm")
  return browser.submitForm(confirmation, { fields: { logout: "yes" } })
}

/**
 * Whether the provider still has a session for this browser: a `prompt=none` authorization
 * request returns a code with one, `login_required` without.
 */
async function providerSession(browser: Browser): Promise<"signed in" | "login_required"> {
  const query = new URLSearchParams({
    client_id: "app-client",
    response_type: "code",
    scope: "openid",
    redirect_uri: `${APP}/auth/callback/idp`,
    prompt: "none",
    state: "probe",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
  })
  let visit = await browser.get(`${idp.issuer}/auth?${query}`, { follow: false })
  // oidc-provider may hop through its own resume URL before answering the redirect_uri.
  while (visit.last.location?.startsWith(idp.issuer)) visit = await browser.follow(visit, { follow: false })
  const answer = new URL(visit.last.location ?? "about:blank")
  expect(answer.href.startsWith(`${APP}/auth/callback/idp`), answer.href).toBe(true)
  if (answer.searchParams.has("code")) return "signed in"
  expect(answer.searchParams.get("error")).toBe("login_required")
  return "login_required"
}

function endSessionParams(visit: Visit): URLSearchParams {
  const location = visit.last.location
  expect(location?.startsWith(`${idp.issuer}/`), location).toBe(true)
  return new URL(location!).searchParams
}

describe("RP-initiated logout with the real oidc-provider", () => {
  for (const strategy of ["database", "jwt"] as const) {
    it(`ends the ${strategy} session here and the provider's session, with id_token_hint, client_id and post_logout_redirect_uri, and lands back on the app`, async () => {
      const browser = browserFor(config(strategy))
      await signIn(browser, "idp")
      expect(await sessionOf(browser)).toMatchObject({ user: { email: "alice@example.com" } })
      expect(await providerSession(browser)).toBe("signed in")

      const signOut = await postSignOut(browser, { provider: "idp", callbackUrl: SIGNED_OUT })
      const params = endSessionParams(signOut)
      expect(params.get("client_id")).toBe("app-client")
      expect(params.get("post_logout_redirect_uri")).toBe(SIGNED_OUT)
      // The ID token of the sign-in, from the account row the adapter keeps (never from the JWT).
      const hint = decodeJwt(params.get("id_token_hint")!)
      expect(hint).toMatchObject({ iss: idp.issuer, aud: "app-client", sub: "alice" })
      // Signed out here before the browser even reaches the provider.
      expect(await sessionOf(browser)).toBeNull()

      const back = await confirmAtProvider(browser, signOut)
      expectLandedOn(back, SIGNED_OUT)
      expect(await sessionOf(browser)).toBeNull()
      expect(await providerSession(browser)).toBe("login_required")
    })
  }

  it("under JWT sessions without an adapter sends no id_token_hint (none is kept) and still ends both sessions", async () => {
    const browser = browserFor(config("jwt", { adapter: false }))
    await signIn(browser, "idp")
    expect(await sessionOf(browser)).toMatchObject({ user: { email: "alice@example.com" } })
    const signOut = await postSignOut(browser, { provider: "idp", callbackUrl: SIGNED_OUT })
    const params = endSessionParams(signOut)
    expect(params.has("id_token_hint")).toBe(false)
    expect(params.get("client_id")).toBe("app-client")
    expectLandedOn(await confirmAtProvider(browser, signOut), SIGNED_OUT)
    expect(await sessionOf(browser)).toBeNull()
    expect(await providerSession(browser)).toBe("login_required")
  })

  it("uses an id_token the application's jwt callback keeps in the token", async () => {
    const browser = browserFor({
      ...config("jwt", { adapter: false }),
      callbacks: { jwt: ({ token, account }) => (account?.id_token ? { ...token, id_token: account.id_token } : token) },
    })
    await signIn(browser, "idp")
    const params = endSessionParams(await postSignOut(browser, { provider: "idp", callbackUrl: SIGNED_OUT }))
    expect(decodeJwt(params.get("id_token_hint")!)).toMatchObject({ aud: "app-client", sub: "alice" })
  })

  it("sends post_logout_redirect_uri only after the redirect callback: another site's callbackUrl becomes the app's", async () => {
    const browser = browserFor(config("database"))
    await signIn(browser, "idp")
    const params = endSessionParams(await postSignOut(browser, { provider: "idp", callbackUrl: "https://evil.test/phish" }))
    expect(new URL(params.get("post_logout_redirect_uri")!).origin).toBe(APP)
  })

  it("makes a plain sign-out for a provider the session did not come from: signed out here, still signed in there", async () => {
    const browser = browserFor(config("database"))
    await signIn(browser, "idp")
    const signOut = await postSignOut(browser, { provider: "other", callbackUrl: SIGNED_OUT })
    expect(signOut.last.location).toBe(SIGNED_OUT)
    expect(await sessionOf(browser)).toBeNull()
    expect(await providerSession(browser)).toBe("signed in")
  })

  it("makes a plain sign-out for a provider whose metadata has no end_session_endpoint, and for an unknown one", async () => {
    // The same provider configured by its endpoints, without discovery: nothing names an end-session endpoint.
    const plain = {
      id: "plain",
      name: "Plain",
      type: "oidc" as const,
      issuer: idp.issuer,
      clientId: "app-client",
      clientSecret: "app-secret",
      authorization: { url: `${idp.issuer}/auth`, params: { scope: "openid email profile" } },
      token: `${idp.issuer}/token`,
      userinfo: `${idp.issuer}/me`,
    }
    const browser = browserFor({ ...config("jwt"), providers: [plain] })
    await signIn(browser, "plain")
    expect(await sessionOf(browser)).toMatchObject({ user: { email: "alice@example.com" } })
    const signOut = await postSignOut(browser, { provider: "plain", callbackUrl: SIGNED_OUT })
    expect(signOut.last.location).toBe(SIGNED_OUT)
    expect(await sessionOf(browser)).toBeNull()

    await signIn(browser, "plain")
    const unknown = await postSignOut(browser, { provider: "nope", callbackUrl: SIGNED_OUT })
    expect(unknown.last.location).toBe(SIGNED_OUT)
    expect(await sessionOf(browser)).toBeNull()
  })

  it("makes a plain sign-out for a signed-out request naming a provider, without an error", async () => {
    const browser = browserFor(config("database"))
    const signOut = await postSignOut(browser, { provider: "idp", callbackUrl: SIGNED_OUT })
    expect(signOut.last.location).toBe(SIGNED_OUT)
  })

  it("still refuses a sign-out with a provider but without the CSRF token", async () => {
    const logger = recordingLogger()
    const browser = browserFor({ ...config("database"), logger: logger.logger })
    await signIn(browser, "idp")
    const refused = await browser.post(`${APP}/auth/signout`, { provider: "idp", callbackUrl: SIGNED_OUT }, { follow: false })
    expect(refused.last.location ?? "").not.toContain(idp.issuer)
    expect(logger.lines.map((line) => line.code)).toContain("MissingCSRF")
    expect(await sessionOf(browser)).toMatchObject({ user: { email: "alice@example.com" } })
  })
})

describe("the built-in sign-out page", () => {
  it("offers to sign out of the provider the session came from, and that button signs out at both", async () => {
    const browser = browserFor(config("database"))
    await signIn(browser, "idp")
    const page = await browser.get(`${APP}/auth/signout`)
    expect(page.last.body).toContain('name="provider" value="idp"')
    expect(page.last.body).toContain("Sign out of IdP too")
    // The second button: the form's fields plus its name and value.
    const signOut = await browser.submitForm(page, { follow: false, fields: { provider: "idp" } })
    expect(endSessionParams(signOut).get("post_logout_redirect_uri")).toBe(`${APP}/dashboard`)
    expectLandedOn(await confirmAtProvider(browser, signOut), `${APP}/dashboard`)
    expect(await sessionOf(browser)).toBeNull()
    expect(await providerSession(browser)).toBe("login_required")
  })

  it("offers only the plain sign-out to a session that did not come from such a provider, or to no session", async () => {
    const signedOut = browserFor(config("database"))
    expect((await signedOut.get(`${APP}/auth/signout`)).last.body).not.toContain('name="provider"')
    // Signed in through a provider configured without discovery: no end-session endpoint known.
    const plain = { ...idpProvider("plain"), authorization: { url: `${idp.issuer}/auth`, params: { scope: "openid email profile" } }, token: `${idp.issuer}/token`, userinfo: `${idp.issuer}/me` }
    const browser = browserFor({ ...config("database"), providers: [idpProvider(), plain] })
    await signIn(browser, "plain")
    expect(await sessionOf(browser)).toMatchObject({ user: { email: "alice@example.com" } })
    expect((await browser.get(`${APP}/auth/signout`)).last.body).not.toContain('name="provider"')
  })
})

describe("Auth() on a signed-out request", () => {
  it("answers the sign-out page without an OIDC provider configured (no lookup)", async () => {
    const response = await Auth(new Request(`${APP}/auth/signout`), { secret, trustHost: true, providers: [] })
    expect(response.status).toBe(200)
    expect(await response.text()).not.toContain('name="provider"')
  })
})

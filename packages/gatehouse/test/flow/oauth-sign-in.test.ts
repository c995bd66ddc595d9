/**
 * OAuth 2 sign-in through `Auth()` against a provider answered by the provider's own `fetch`
 * (the end-to-end tests use real servers; this one looks at every parameter and cookie).
 */
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import type { OAuthConfig } from "../../src/providers/types.js"
import type { Account, AuthConfig } from "../../src/types.js"
import { Client, recordingLogger, secret, storedKey } from "./flow-helpers.js"

const SESSION_COOKIE = "__Secure-authjs.session-token"

/** A GitHub-shaped provider whose token and user endpoints live in this test. */
function fakeProvider(overrides: Partial<OAuthConfig> = {}) {
  const seen: { url: string; body: URLSearchParams | undefined; headers: Headers }[] = []
  let profile: Record<string, unknown> = { id: 4242, login: "octo", name: "Octo Cat", email: "Octo@Example.com", avatar_url: "https://img.test/o.png" }
  let tokenStatus = 200
  const provider: OAuthConfig = {
    id: "hub",
    name: "Hub",
    type: "oauth",
    clientId: "client id",
    clientSecret: "s3cret:with/odd chars",
    authorization: { url: "https://hub.test/authorize", params: { scope: "read:user user:email" } },
    token: "https://hub.test/token",
    userinfo: "https://hub.test/user",
    profile: (p) => ({ id: String(p.id), name: (p.name as string) ?? null, email: (p.email as string) ?? null, image: p.avatar_url as string }),
    fetch: async (input, init) => {
      const url = String(input instanceof Request ? input.url : input)
      const body = init?.body ? new URLSearchParams(String(init.body)) : undefined
      seen.push({ url, body, headers: new Headers(init?.headers) })
      if (url === "https://hub.test/token") {
        if (tokenStatus !== 200) return new Response("upstream broke", { status: tokenStatus })
        return Response.json({ access_token: "at-1", token_type: "Bearer", scope: "read:user", expires_in: 3600, refresh_token: "rt-1" })
      }
      if (url === "https://hub.test/user") return Response.json(profile)
      return new Response("not found", { status: 404 })
    },
    ...overrides,
  }
  return {
    provider,
    seen,
    setProfile: (next: Record<string, unknown>) => void (profile = next),
    failToken: (status: number) => void (tokenStatus = status),
  }
}

/** Starts a sign-in and returns the authorization URL the browser is sent to. */
async function start(client: Client, query = "") {
  const response = await client.postForm(`signin/hub${query}`, { csrfToken: await client.csrfToken(), callbackUrl: "/dashboard" })
  expect(response.status).toBe(302)
  return new URL(response.headers.get("location")!)
}

/** Starts a sign-in and comes back to the callback as the provider would: with `code` and the state it was sent. */
async function signInWithCode(client: Client, code = "c") {
  const state = (await start(client)).searchParams.get("state")!
  return client.get(`callback/hub?${new URLSearchParams({ code, state })}`)
}

describe("OAuth sign-in", () => {
  function setup(extra: Partial<AuthConfig> = {}, overrides: Partial<OAuthConfig> = {}) {
    const fake = fakeProvider(overrides)
    const { logger, lines } = recordingLogger()
    const client = new Client({ secret, trustHost: true, logger, providers: [fake.provider], ...extra } as AuthConfig)
    return { ...fake, client, lines }
  }

  it("sends the browser to the provider with the client, redirect URI, scope, forwarded params and PKCE", async () => {
    const { client } = setup()
    const url = await start(client, "?prompt=login")
    expect(url.origin + url.pathname).toBe("https://hub.test/authorize")
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: "code",
      client_id: "client id",
      redirect_uri: "https://app.test/auth/callback/hub",
      scope: "read:user user:email",
      prompt: "login",
      code_challenge_method: "S256",
    })
    expect(url.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/)
    // State as well as PKCE, although the provider sets no checks: PKCE binds nothing where a
    // provider ignores the verifier.
    expect(url.searchParams.get("state")!.split(".")).toHaveLength(5)
    expect(client.jar.get("__Secure-authjs.pkce.code_verifier")).toBeTruthy()
    expect(client.jar.get("__Secure-authjs.state")).toBeTruthy()
  })

  it("adds state to the checks a provider sets, and leaves it out only for checks: [\"none\"]", async () => {
    const nonce = await start(setup({}, { checks: ["nonce"] }).client)
    expect(nonce.searchParams.has("state")).toBe(true)
    expect(nonce.searchParams.has("nonce")).toBe(true)
    expect(nonce.searchParams.has("code_challenge")).toBe(false)

    const { client } = setup({}, { checks: ["none"] })
    const none = await start(client)
    expect(["state", "nonce", "code_challenge"].filter((name) => none.searchParams.has(name))).toEqual([])
    expect(client.jar.get("__Secure-authjs.state")).toBeUndefined()
    const back = await client.get("callback/hub?code=c")
    expect(back.headers.get("location")).toBe("https://app.test/dashboard")
  })

  it("exchanges the code with the PKCE verifier and basic client auth, and signs the user in", async () => {
    const { client, seen } = setup()
    const back = await signInWithCode(client, "the-code")
    expect(back.status).toBe(302)
    expect(back.headers.get("location")).toBe("https://app.test/dashboard")
    expect(client.jar.get("__Secure-authjs.pkce.code_verifier")).toBeUndefined()
    expect(client.jar.get("__Secure-authjs.state")).toBeUndefined()

    const token = seen.find((request) => request.url === "https://hub.test/token")!
    expect(token.body?.get("code")).toBe("the-code")
    expect(token.body?.get("grant_type")).toBe("authorization_code")
    expect(token.body?.get("redirect_uri")).toBe("https://app.test/auth/callback/hub")
    expect(token.body?.get("code_verifier")).toMatch(/^[\w-]{43}$/)
    expect(token.headers.get("authorization")).toBe(`Basic ${btoa("client+id:s3cret%3Awith%2Fodd+chars")}`)
    expect(seen.find((request) => request.url === "https://hub.test/user")!.headers.get("authorization")).toBe("Bearer at-1")

    expect(await client.session()).toEqual({
      user: { name: "Octo Cat", email: "octo@example.com", image: "https://img.test/o.png" },
      expires: expect.any(String),
    })
  })

  it("hands the jwt callback a lower-cased token type, expires_at and the string account id", async () => {
    let account: Account | null | undefined
    const { client } = setup({ callbacks: { jwt: (params) => ((account ??= params.account), params.token) } })
    const before = Math.floor(Date.now() / 1000)
    await signInWithCode(client)
    expect(account).toMatchObject({ provider: "hub", type: "oauth", providerAccountId: "4242", token_type: "bearer", access_token: "at-1", refresh_token: "rt-1" })
    expect(account!.expires_at).toBeGreaterThanOrEqual(before + 3600)
    expect(account!.expires_at).toBeLessThanOrEqual(before + 3601)
  })

  it("creates and links a stored user under database sessions, and finds them again next time", async () => {
    const adapter = MemoryAdapter()
    const { client } = setup({ adapter })
    await signInWithCode(client)
    const stored = await adapter.getUserByAccount({ provider: "hub", providerAccountId: "4242" })
    expect(stored).toMatchObject({ email: "octo@example.com", name: "Octo Cat" })
    expect((await adapter.getSessionAndUser(storedKey(client.jar.get(SESSION_COOKIE))))?.user.id).toBe(stored!.id)

    const again = new Client(client.config)
    await signInWithCode(again)
    expect((await adapter.getSessionAndUser(storedKey(again.jar.get(SESSION_COOKIE))))?.user.id).toBe(stored!.id)
  })

  it("stores none of the tokens when the provider's account() returns nothing, as Auth.js does", async () => {
    const adapter = MemoryAdapter()
    const { client } = setup({ adapter }, { account: () => undefined })
    expect((await signInWithCode(client)).status).toBe(302)
    const stored = await adapter.getAccount!("4242", "hub")
    expect(stored).toMatchObject({ provider: "hub", providerAccountId: "4242", type: "oauth" })
    expect(stored).not.toHaveProperty("access_token")
    expect(stored).not.toHaveProperty("refresh_token")
  })

  it("sends a new user to pages.newUser with the callback URL", async () => {
    const { client } = setup({ adapter: MemoryAdapter(), pages: { newUser: "/welcome" } })
    const back = await signInWithCode(client)
    expect(back.headers.get("location")).toBe("/welcome?callbackUrl=https%3A%2F%2Fapp.test%2Fdashboard")
  })

  it.each([
    ["the PKCE cookie (state turned off)", { checks: ["none", "pkce"] } as Partial<OAuthConfig>],
    ["the state cookie", {}],
  ])("refuses a callback without %s, or with one made for another provider", async (_, checks) => {
    const { client } = setup({}, checks)
    const missing = await client.get("callback/hub?code=c")
    expect(missing.headers.get("location")).toBe("https://app.test/auth/error?error=InvalidCheck")

    const other = setup({}, { id: "other" })
    const otherClient = new Client({ ...client.config, providers: [client.config.providers[0]!, other.provider] } as AuthConfig)
    const url = new URL((await otherClient.postForm("signin/other", { csrfToken: await otherClient.csrfToken() })).headers.get("location")!)
    expect(url.searchParams.get("code_challenge")).toBeTruthy()
    const crossed = await otherClient.get(`callback/hub?${new URLSearchParams({ code: "c", state: url.searchParams.get("state")! })}`)
    expect(crossed.headers.get("location")).toBe("https://app.test/auth/error?error=InvalidCheck")
    expect(await otherClient.session()).toBeNull()
  })

  it("refuses a callback without state or with a tampered one, and that ends the flow", async () => {
    const { client, seen } = setup({}, { checks: ["pkce", "state"] })
    const state = (await start(client)).searchParams.get("state")!
    expect(state.split(".")).toHaveLength(5)
    const missing = await client.get("callback/hub?code=c")
    expect(missing.headers.get("location")).toBe("https://app.test/auth/error?error=InvalidCheck")

    const again = (await start(client)).searchParams.get("state")!
    const tampered = await client.get(`callback/hub?code=c&state=${again.slice(0, -2)}xx`)
    expect(tampered.headers.get("location")).toBe("https://app.test/auth/error?error=InvalidCheck")
    // The failed callback deleted the flow's checks, so its real state does not complete it either.
    expect(client.jar.get("__Secure-authjs.state")).toBeUndefined()
    expect(client.jar.get("__Secure-authjs.pkce.code_verifier")).toBeUndefined()
    const late = await client.get(`callback/hub?code=c&state=${encodeURIComponent(again)}`)
    expect(late.headers.get("location")).toBe("https://app.test/auth/error?error=InvalidCheck")
    expect(seen.filter((request) => request.url === "https://hub.test/token")).toHaveLength(0)
    expect(await client.session()).toBeNull()
  })

  it("deletes the check cookies a failed callback carried, with the names and attributes they were set with", async () => {
    const { client } = setup()
    await start(client)
    const failed = await client.get("callback/hub?code=c&state=forged")
    expect(failed.headers.get("location")).toBe("https://app.test/auth/error?error=InvalidCheck")
    const deletions = failed.headers.getSetCookie().filter((line) => /^__Secure-authjs\.(pkce|state|nonce)/.test(line))
    expect(deletions.map((line) => line.slice(0, line.indexOf("=")))).toEqual(["__Secure-authjs.pkce.code_verifier", "__Secure-authjs.state"])
    for (const line of deletions) expect(line).toMatch(/^[^=]+=; Max-Age=0; Path=\/; .*HttpOnly; Secure; SameSite=Lax$/)
    // Nothing else of the failed callback goes out.
    expect(failed.headers.getSetCookie()).toHaveLength(2)

    // A form_post provider's checks were set SameSite=None, and are deleted so.
    const posted = setup({}, { authorization: { url: "https://hub.test/authorize", params: { response_mode: "form_post", scope: "name" } } })
    await posted.client.postForm("signin/hub", { csrfToken: await posted.client.csrfToken() })
    const refused = await posted.client.postForm("callback/hub", { code: "c", state: "forged" })
    const postedDeletions = refused.headers.getSetCookie().filter((line) => /^__Secure-authjs\.(pkce|state)/.test(line))
    expect(postedDeletions).toHaveLength(2)
    for (const line of postedDeletions) expect(line).toMatch(/Max-Age=0; .*Secure; SameSite=None$/)
  })

  it("leaves another provider's pending flow alone: a failed callback deletes only its own provider's check cookies (and unreadable ones)", async () => {
    const fake = fakeProvider()
    const client = new Client({ secret, trustHost: true, logger: recordingLogger().logger, providers: [fake.provider, { ...fake.provider, id: "other", name: "Other" }] } as AuthConfig)
    const state = (await start(client)).searchParams.get("state")!
    // Any page can send the browser to another provider's callback: it fails, and ends nothing of hub's.
    const elsewhere = await client.get("callback/other?code=c&state=forged")
    expect(elsewhere.headers.get("location")).toBe("https://app.test/auth/error?error=InvalidCheck")
    expect(elsewhere.headers.getSetCookie().filter((line) => /^__Secure-authjs\.(pkce|state|nonce)/.test(line))).toEqual([])
    const back = await client.get(`callback/hub?${new URLSearchParams({ code: "c", state })}`)
    expect(back.headers.get("location")).toBe("https://app.test/dashboard")

    // A check cookie that no longer decodes serves no flow: the callback deletes it too.
    client.jar.cookies.set("__Secure-authjs.nonce", "not-a-token")
    const junk = await client.get("callback/other?code=c&state=forged")
    expect(junk.headers.getSetCookie().filter((line) => line.startsWith("__Secure-authjs.nonce=;"))).toHaveLength(1)
  })

  it("shows a provider's refusal on the sign-in page", async () => {
    const { client } = setup()
    const state = (await start(client)).searchParams.get("state")!
    const back = await client.get(`callback/hub?${new URLSearchParams({ error: "access_denied", error_description: "User cancelled", state })}`)
    expect(back.headers.get("location")).toBe("https://app.test/auth/signin?error=OAuthCallbackError")
  })

  it.each([
    ["invalid_grant with HTTP 400, as RFC 6749 says", 400, "invalid_grant"],
    ["bad_verification_code with HTTP 200, as GitHub says", 200, "bad_verification_code"],
  ])("shows a provider refusing the code (%s) on the sign-in page as OAuthCallbackError", async (_, status, error) => {
    const { client, lines } = setup({}, {
      fetch: async (input) => String(input instanceof Request ? input.url : input) === "https://hub.test/token"
        ? Response.json({ error, error_description: "The code passed is incorrect or expired." }, { status })
        : new Response("not found", { status: 404 }),
    })
    const back = await signInWithCode(client)
    expect(back.status).toBe(302)
    expect(back.headers.get("location")).toBe("https://app.test/auth/signin?error=OAuthCallbackError")
    expect(lines.map((line) => line.code)).toContain("OAuthCallbackError")
    expect(lines.map((line) => line.code)).not.toContain("CallbackRouteError")
    expect(await client.session()).toBeNull()
  })

  it.each([
    ["invalid_client with HTTP 401", 401, "invalid_client"],
    ["unauthorized_client with HTTP 400", 400, "unauthorized_client"],
    ["incorrect_client_credentials with HTTP 200, as GitHub says", 200, "incorrect_client_credentials"],
  ])("keeps a token endpoint's refusal of the client (%s) a server-side Configuration error", async (_, status, error) => {
    const { client, lines } = setup({}, {
      fetch: async () => Response.json({ error }, { status }),
    })
    const back = await signInWithCode(client)
    expect(back.headers.get("location")).toBe("https://app.test/auth/error?error=Configuration")
    expect(lines.map((line) => line.code)).toContain("CallbackRouteError")
  })

  it("fails cleanly when the token endpoint breaks or the profile is not an object", async () => {
    const broken = setup()
    broken.failToken(500)
    expect((await signInWithCode(broken.client)).headers.get("location")).toBe("https://app.test/auth/error?error=Configuration")
    expect(broken.lines.map((line) => line.code)).toContain("CallbackRouteError")

    const garbage = setup()
    garbage.setProfile([1, 2, 3] as unknown as Record<string, unknown>)
    expect((await signInWithCode(garbage.client)).headers.get("location")).toBe("https://app.test/auth/error?error=Configuration")
    expect(garbage.lines.map((line) => line.code)).toContain("OAuthProfileParseError")
  })

  it("reports a throwing profile() as OAuthProfileParseError on the error page, not a broken URL", async () => {
    const { client, lines } = setup({}, { profile: () => { throw new Error("no id in profile") } })
    const back = await signInWithCode(client)
    expect(back.headers.get("location")).toBe("https://app.test/auth/error?error=Configuration")
    expect(lines.map((line) => line.code)).toContain("OAuthProfileParseError")
  })

  it("makes the check cookies SameSite=None for form_post providers and reads the posted response", async () => {
    const { client } = setup({}, { authorization: { url: "https://hub.test/authorize", params: { response_mode: "form_post", scope: "name" } } })
    const response = await client.postForm("signin/hub", { csrfToken: await client.csrfToken() })
    for (const name of ["__Secure-authjs.pkce.code_verifier", "__Secure-authjs.state"]) {
      const check = response.headers.getSetCookie().find((line) => line.startsWith(`${name}=`))!
      expect(check).toMatch(/SameSite=None/)
      expect(check).toMatch(/Secure/)
    }
    const lines = response.headers.getSetCookie().filter((line) => line.startsWith("__Secure-authjs.callback-url="))
    expect(lines.at(-1)).toMatch(/SameSite=None/)
    const state = new URL(response.headers.get("location")!).searchParams.get("state")!
    const back = await client.postForm("callback/hub", { code: "posted-code", state })
    expect(back.headers.get("location")).toBe("https://app.test")
    expect(await client.session()).toMatchObject({ user: { email: "octo@example.com" } })
  })

  it("authenticates with client_secret_post when configured", async () => {
    const { client, seen } = setup({}, { client: { token_endpoint_auth_method: "client_secret_post" } })
    await signInWithCode(client)
    const token = seen.find((request) => request.url === "https://hub.test/token")!
    expect(token.headers.get("authorization")).toBeNull()
    expect(token.body?.get("client_secret")).toBe("s3cret:with/odd chars")
  })
})

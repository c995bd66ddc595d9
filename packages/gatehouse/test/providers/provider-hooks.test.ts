import { describe, expect, it } from "vitest"
import Apple from "../../src/providers/apple.js"
import Bitbucket from "../../src/providers/bitbucket.js"
import Dropbox from "../../src/providers/dropbox.js"
import GitHub from "../../src/providers/github.js"
import GitLab from "../../src/providers/gitlab.js"
import Google from "../../src/providers/google.js"
import MicrosoftEntraID from "../../src/providers/microsoft-entra-id.js"
import Notion from "../../src/providers/notion.js"
import Twitch from "../../src/providers/twitch.js"
import Threads from "../../src/providers/threads.js"
import TikTok from "../../src/providers/tiktok.js"
import Todoist from "../../src/providers/todoist.js"
import Trakt from "../../src/providers/trakt.js"
import Webex from "../../src/providers/webex.js"
import WeChat from "../../src/providers/wechat.js"
import WorkOS from "../../src/providers/workos.js"
import Zoho from "../../src/providers/zoho.js"
import { oauthProvider, withBearerTokenType } from "../../src/providers/oauth-user-config.js"
import type { OAuthConfig } from "../../src/types.js"
import { conformHook, endpointParams, endpointURL, fakeFetch, mapProfile, requestContext, requestHook } from "./helpers.js"

const credentials = { clientId: "id", clientSecret: "secret" }

describe("GitHub userinfo.request", () => {
  const user = { login: "octocat", id: 583231, name: "The Octocat", email: null, avatar_url: "https://avatars.githubusercontent.com/u/583231?v=4" }
  const emails = [
    { email: "old@example.com", primary: false, verified: true, visibility: null },
    { email: "unverified@example.com", primary: true, verified: false, visibility: null },
    { email: "octocat@github.com", primary: true, verified: true, visibility: "private" },
  ]

  it("looks up the primary verified email when /user has none, through the injected fetch", async () => {
    const config = GitHub(credentials)
    const { fetch, calls } = fakeFetch({ "https://api.github.com/user": user, "https://api.github.com/user/emails": emails })
    const profile = await requestHook(config.userinfo)(requestContext(config, fetch))
    expect(profile).toMatchObject({ id: 583231, email: "octocat@github.com" })
    expect(calls.map((call) => call.url)).toEqual(["https://api.github.com/user", "https://api.github.com/user/emails"])
    for (const call of calls) {
      expect(call.headers.get("authorization")).toBe("Bearer at-123")
      expect(call.headers.get("user-agent")).toBeTruthy()
    }
    expect(await mapProfile(config, profile as object)).toEqual({ id: "583231", name: "The Octocat", email: "octocat@github.com", image: user.avatar_url })
  })

  it("keeps a public email, proven only when /user/emails lists it as verified", async () => {
    const config = GitHub(credentials)
    const listed = [{ email: "Public@Example.com", primary: false, verified: true, visibility: "public" }]
    const verified = fakeFetch({ "https://api.github.com/user": { ...user, email: "public@example.com" }, "https://api.github.com/user/emails": listed })
    expect(await requestHook(config.userinfo)(requestContext(config, verified.fetch))).toMatchObject({ email: "public@example.com", email_verified: true })
    expect(verified.calls).toHaveLength(2)
    const unlisted = fakeFetch({ "https://api.github.com/user": { ...user, email: "public@example.com" }, "https://api.github.com/user/emails": [{ ...listed[0], verified: false }] })
    expect(await requestHook(config.userinfo)(requestContext(config, unlisted.fetch))).toMatchObject({ email: "public@example.com", email_verified: false })
    const failing = fakeFetch({ "https://api.github.com/user": { ...user, email: "public@example.com" }, "https://api.github.com/user/emails": new Response("{}", { status: 403 }) })
    expect(await requestHook(config.userinfo)(requestContext(config, failing.fetch))).toMatchObject({ email: "public@example.com", email_verified: false })
  })

  it("leaves the email null when no primary address is verified, or /user/emails fails", async () => {
    const config = GitHub(credentials)
    const unverified = fakeFetch({ "https://api.github.com/user": user, "https://api.github.com/user/emails": emails.slice(0, 2) })
    expect(await requestHook(config.userinfo)(requestContext(config, unverified.fetch))).toMatchObject({ email: null })
    const forbidden = fakeFetch({ "https://api.github.com/user": user, "https://api.github.com/user/emails": new Response("{}", { status: 403 }) })
    expect(await requestHook(config.userinfo)(requestContext(config, forbidden.fetch))).toMatchObject({ email: null })
  })

  it("fails when /user fails, rather than signing in an empty profile", async () => {
    const config = GitHub(credentials)
    const { fetch } = fakeFetch({ "https://api.github.com/user": new Response("{}", { status: 401 }) })
    await expect(async () => requestHook(config.userinfo)(requestContext(config, fetch))).rejects.toThrow(/401/)
  })

  it("speaks to GitHub Enterprise Server under its baseUrl", async () => {
    const config = GitHub({ ...credentials, enterprise: { baseUrl: "https://github.example.com/" } })
    expect(endpointURL(config.authorization).href).toBe("https://github.example.com/login/oauth/authorize?scope=read%3Auser+user%3Aemail")
    expect(endpointURL(config.token).href).toBe("https://github.example.com/login/oauth/access_token")
    expect(endpointURL(config.userinfo).href).toBe("https://github.example.com/api/v3/user")
    expect(config).not.toHaveProperty("enterprise")
    const { fetch, calls } = fakeFetch({ "https://github.example.com/api/v3/user": user, "https://github.example.com/api/v3/user/emails": emails })
    expect(await requestHook(config.userinfo)(requestContext(config, fetch))).toMatchObject({ email: "octocat@github.com" })
    expect(calls.map((call) => call.url)).toEqual(["https://github.example.com/api/v3/user", "https://github.example.com/api/v3/user/emails"])
  })
})

describe("Bitbucket userinfo.request", () => {
  const user = { account_id: "557058:c0b7", uuid: "{d301aafa}", display_name: "Ada", links: {} }
  it("adds the primary confirmed email", async () => {
    const config = Bitbucket(credentials)
    const { fetch, calls } = fakeFetch({
      "https://api.bitbucket.org/2.0/user": user,
      "https://api.bitbucket.org/2.0/user/emails": {
        values: [
          { email: "second@example.com", is_primary: false, is_confirmed: true },
          { email: "ada@example.com", is_primary: true, is_confirmed: true },
        ],
      },
    })
    expect(await requestHook(config.userinfo)(requestContext(config, fetch))).toMatchObject({ account_id: "557058:c0b7", email: "ada@example.com" })
    expect(calls.every((call) => call.headers.get("authorization") === "Bearer at-123")).toBe(true)
  })
  it("signs in without an email when the emails call is refused", async () => {
    const config = Bitbucket(credentials)
    const { fetch } = fakeFetch({ "https://api.bitbucket.org/2.0/user": user })
    expect(await requestHook(config.userinfo)(requestContext(config, fetch))).toMatchObject({ email: null })
  })
})

describe("Dropbox userinfo.request", () => {
  it("POSTs to get_current_account without a body", async () => {
    const config = Dropbox(credentials)
    const { fetch, calls } = fakeFetch({ "POST https://api.dropboxapi.com/2/users/get_current_account": { account_id: "dbid:1" } })
    expect(await requestHook(config.userinfo)(requestContext(config, fetch))).toEqual({ account_id: "dbid:1" })
    expect(calls).toEqual([expect.objectContaining({ method: "POST", body: undefined })])
    expect(calls[0]!.headers.get("authorization")).toBe("Bearer at-123")
  })
})

describe("Notion", () => {
  it("takes the profile from the bot's owner, with the Notion-Version header", async () => {
    const config = Notion(credentials)
    const person = { object: "user", id: "e79a0b74", type: "person", name: "Avocado", avatar_url: null, person: { email: "avo@example.org" } }
    const { fetch, calls } = fakeFetch({
      "https://api.notion.com/v1/users/me": { object: "user", id: "bot-1", type: "bot", bot: { owner: { type: "user", user: person }, workspace_name: "Acme" } },
    })
    expect(await requestHook(config.userinfo)(requestContext(config, fetch))).toEqual(person)
    expect(calls[0]!.headers.get("notion-version")).toMatch(/^\d{4}-\d{2}-\d{2}$/)
  })
  it("refuses a workspace-owned integration", async () => {
    const config = Notion(credentials)
    const { fetch } = fakeFetch({ "https://api.notion.com/v1/users/me": { object: "user", id: "bot-1", type: "bot", bot: { owner: { type: "workspace", workspace: true } } } })
    await expect(async () => requestHook(config.userinfo)(requestContext(config, fetch))).rejects.toThrow(/workspace/)
  })
  it("drops a null refresh_token from the token response, and leaves good responses alone", async () => {
    const conform = conformHook(Notion(credentials).token)
    const fixed = (await conform(Response.json({ access_token: "at", token_type: "bearer", refresh_token: null, bot_id: "b" }))) as Response
    expect(await fixed.json()).toEqual({ access_token: "at", token_type: "bearer", bot_id: "b" })
    expect(await conform(Response.json({ access_token: "at", token_type: "bearer", refresh_token: "rt" }))).toBeUndefined()
    expect(await conform(Response.json({ access_token: "at", token_type: "bearer" }))).toBeUndefined()
  })
})

describe("Twitch token.conform", () => {
  const conform = conformHook(Twitch(credentials).token)
  it("joins an array scope, keeping status and content type", async () => {
    const original = Response.json({ access_token: "at", token_type: "bearer", scope: ["openid", "user:read:email"] }, { headers: { "x-extra": "1" } })
    const fixed = (await conform(original)) as Response
    expect(fixed.status).toBe(200)
    expect(fixed.headers.get("content-type")).toMatch(/application\/json/)
    expect(fixed.headers.get("x-extra")).toBe("1")
    expect(await fixed.json()).toMatchObject({ access_token: "at", scope: "openid user:read:email" })
    // The original stays readable, in case the core falls back to it.
    expect(original.bodyUsed).toBe(false)
  })
  it("leaves string scopes, errors and non-JSON alone", async () => {
    expect(await conform(Response.json({ access_token: "at", scope: "openid" }))).toBeUndefined()
    expect(await conform(Response.json({ status: 400, message: "Invalid authorization code" }, { status: 400 }))).toBeUndefined()
    expect(await conform(new Response("not json", { status: 200 }))).toBeUndefined()
  })
})

describe("Apple profileFromCallback", () => {
  const config = Apple(credentials)
  const idToken = { sub: "001234.abcdef.1234", email: "ada@privaterelay.appleid.com" }
  const fromCallback = (params: Record<string, string>) => {
    if (!config.profileFromCallback) throw new Error("no profileFromCallback")
    return config.profileFromCallback(idToken, new URLSearchParams(params))
  }

  it("merges the user parameter sent on the first sign-in", async () => {
    const user = { name: { firstName: "Ada", lastName: "Lovelace" }, email: "ada@privaterelay.appleid.com" }
    const profile = await fromCallback({ code: "c", user: JSON.stringify(user) })
    expect(profile).toEqual({ ...idToken, user })
    expect(await mapProfile(config, profile)).toEqual({ id: "001234.abcdef.1234", name: "Ada Lovelace", email: "ada@privaterelay.appleid.com", image: null })
  })

  it("never takes the email from the user parameter, which the browser could forge", async () => {
    const { email: _omit, ...noEmail } = idToken
    const profile = { ...noEmail, user: { name: { firstName: "Eve" }, email: "victim@example.com" } }
    expect(await mapProfile(config, profile)).toMatchObject({ name: "Eve", email: null })
  })

  it("leaves the profile unchanged when the parameter is missing, malformed or not an object", async () => {
    expect(await fromCallback({ code: "c" })).toEqual(idToken)
    expect(await fromCallback({ code: "c", user: "{not json" })).toEqual(idToken)
    expect(await fromCallback({ code: "c", user: "" })).toEqual(idToken)
    expect(await fromCallback({ code: "c", user: "42" })).toEqual(idToken)
    expect(await fromCallback({ code: "c", user: "null" })).toEqual(idToken)
    expect(await fromCallback({ code: "c", user: "[1]" })).toEqual(idToken)
  })
})

describe("Microsoft Entra ID idTokenIssuer", () => {
  const discovered = "https://login.microsoftonline.com/{tenantid}/v2.0"
  const issuerFor = (config: OAuthConfig, claims: Record<string, unknown>, from = discovered) => {
    if (!config.idTokenIssuer) throw new Error("no idTokenIssuer")
    return config.idTokenIssuer(claims, from)
  }

  it("fills the tenant placeholder from the token's tid", () => {
    const tid = "9188040d-6c67-4c5b-b112-36a304b66dad"
    expect(issuerFor(MicrosoftEntraID(credentials), { tid, sub: "x" })).toBe(`https://login.microsoftonline.com/${tid}/v2.0`)
  })

  it("keeps the discovered issuer without a usable tid", () => {
    const config = MicrosoftEntraID(credentials)
    expect(issuerFor(config, { sub: "x" })).toBe(discovered)
    expect(issuerFor(config, { tid: 42 })).toBe(discovered)
    expect(issuerFor(config, { tid: "" })).toBe(discovered)
  })

  it("leaves a single-tenant issuer (no placeholder) as discovered", () => {
    const single = "https://login.microsoftonline.com/11111111-2222-3333-4444-555555555555/v2.0"
    expect(issuerFor(MicrosoftEntraID({ tenantId: "11111111-2222-3333-4444-555555555555" }), { tid: "other" }, single)).toBe(single)
  })
})

describe("GitLab baseUrl", () => {
  it("points every endpoint at a self-managed instance", () => {
    const config = GitLab({ ...credentials, baseUrl: "https://gitlab.example.com/" })
    expect(endpointURL(config.authorization).href).toBe("https://gitlab.example.com/oauth/authorize?scope=read_user")
    expect(endpointURL(config.token).href).toBe("https://gitlab.example.com/oauth/token")
    expect(endpointURL(config.userinfo).href).toBe("https://gitlab.example.com/api/v4/user")
    expect(config).not.toHaveProperty("baseUrl")
  })
  it("still lets explicit endpoints win", () => {
    const config = GitLab({ baseUrl: "https://gitlab.example.com", userinfo: "https://proxy.example.com/user" })
    expect(config.userinfo).toBe("https://proxy.example.com/user")
  })
})

describe("merging options over defaults", () => {
  it("merges endpoint params, so a custom scope keeps the URL and the other params", () => {
    const config = GitHub({ authorization: { params: { scope: "read:user repo", prompt: "consent" } } })
    expect(config.authorization).toEqual({ url: "https://github.com/login/oauth/authorize", params: { scope: "read:user repo", prompt: "consent" } })
    const apple = Apple({ authorization: { params: { scope: "email" } } })
    expect(endpointParams(apple.authorization)).toEqual({ scope: "email", response_mode: "form_post" })
  })

  it("replaces an endpoint given as a string, and replaces arrays whole", () => {
    expect(GitHub({ authorization: "https://proxy.example.com/authorize" }).authorization).toBe("https://proxy.example.com/authorize")
    expect(GitHub({ checks: ["state"] }).checks).toEqual(["state"])
  })

  it("keeps hooks that the user does not replace, and uses the ones they give", async () => {
    const config = Google({ profile: (profile) => ({ id: `google:${profile.sub}` }) })
    expect(await mapProfile(config, { sub: "1" })).toEqual({ id: "google:1" })
  })

  it("copies instead of aliasing the defaults it merges into", () => {
    const defaults = { id: "x", name: "X", type: "oauth" as const, authorization: { url: "https://x.test/a", params: { scope: "a" } } }
    const config = oauthProvider(defaults, { authorization: { params: { scope: "b" } } })
    expect(defaults.authorization.params.scope).toBe("a")
    expect(config.authorization).toEqual({ url: "https://x.test/a", params: { scope: "b" } })
  })

  it("ignores a __proto__ key in the options", () => {
    const options = JSON.parse('{"__proto__": {"polluted": true}, "name": "P"}') as Record<string, unknown>
    const config = oauthProvider({ id: "x", name: "X", type: "oauth" }, options)
    expect(config.name).toBe("P")
    expect((config as unknown as Record<string, unknown>).polluted).toBeUndefined()
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})

describe("withBearerTokenType (VK, WeChat, Threads)", () => {
  it("adds token_type bearer to a token response that has none", async () => {
    const fixed = (await withBearerTokenType(Response.json({ access_token: "at", expires_in: 86400, user_id: 1 }))) as Response
    expect(await fixed.json()).toEqual({ access_token: "at", expires_in: 86400, user_id: 1, token_type: "bearer" })
  })
  it("leaves typed responses, errors, bodies without a token and non-JSON alone", async () => {
    expect(await withBearerTokenType(Response.json({ access_token: "at", token_type: "Bearer" }))).toBeUndefined()
    expect(await withBearerTokenType(Response.json({ error: "invalid_grant" }, { status: 400 }))).toBeUndefined()
    expect(await withBearerTokenType(Response.json({ errcode: 40029, errmsg: "invalid code" }))).toBeUndefined()
    expect(await withBearerTokenType(new Response("<html>", { status: 200 }))).toBeUndefined()
  })
})

describe("TikTok's fetch", () => {
  const send = (config: OAuthConfig, body: URLSearchParams) => config.fetch!("https://open.tiktokapis.com/v2/oauth/token/", { method: "POST", body })

  it("adds client_key to refresh requests too, and sends everything through the app's own fetch", async () => {
    const { fetch, calls } = fakeFetch({ "POST https://open.tiktokapis.com/v2/oauth/token/": { access_token: "at", token_type: "Bearer" } })
    const config = TikTok({ ...credentials, fetch })
    await send(config, new URLSearchParams({ grant_type: "refresh_token", refresh_token: "rt", client_id: "id", client_secret: "secret" }))
    expect(new URLSearchParams(calls[0]!.body as URLSearchParams).get("client_key")).toBe("id")
  })

  it("leaves requests that are not token requests, and a client_key already there, alone", async () => {
    const { fetch, calls } = fakeFetch({})
    const config = TikTok({ ...credentials, fetch })
    const other = new URLSearchParams({ fields: "open_id" })
    await send(config, other)
    await send(config, new URLSearchParams({ grant_type: "authorization_code", client_id: "id", client_key: "explicit" }))
    expect(calls[0]!.body).toBe(other)
    expect(new URLSearchParams(calls[1]!.body as URLSearchParams).get("client_key")).toBe("explicit")
  })

  it("sends no client_key to the authorization page when no client id is known yet", () => {
    expect(endpointURL(TikTok().authorization).searchParams.has("client_key")).toBe(false)
  })
})

describe("WeChat", () => {
  it("sends appid and secret only once they are known, and keeps the user's own parameters", () => {
    const bare = WeChat()
    expect(endpointURL(bare.token).search).toBe("")
    expect(endpointURL(bare.authorization).searchParams.has("appid")).toBe(false)
    const config = WeChat({ ...credentials, authorization: { params: { lang: "en" } } })
    expect(endpointURL(config.authorization).href).toBe("https://open.weixin.qq.com/connect/oauth2/authorize?appid=id&scope=snsapi_userinfo&lang=en#wechat_redirect")
  })

  it("makes an errcode answer of the token endpoint an OAuth error, and refuses a profile without openid", async () => {
    const conform = conformHook(WeChat(credentials).token)
    const badSecret = (await conform(Response.json({ errcode: 40125, errmsg: "invalid appsecret" }))) as Response
    expect(badSecret.status).toBe(400)
    expect(await badSecret.json()).toEqual({ error: "wechat_40125", error_description: "40125 invalid appsecret" })
    const used = (await conform(Response.json({ errcode: 40163, errmsg: "code been used" }))) as Response
    expect(await used.json()).toMatchObject({ error: "invalid_grant" })
    const { fetch } = fakeFetch({})
    const weChat = WeChat(credentials)
    await expect(async () => requestHook(weChat.userinfo)(requestContext(weChat, fetch, { access_token: "at" }))).rejects.toThrow(/openid/)
  })
})

describe("Threads userinfo.request", () => {
  it("keeps an answer that is already wrapped in data", async () => {
    const config = Threads(credentials)
    const { fetch } = fakeFetch({ "https://graph.threads.net/v1.0/me?fields=id,username,threads_profile_picture_url": { data: { id: "1" } } })
    expect(await requestHook(config.userinfo)(requestContext(config, fetch))).toEqual({ data: { id: "1" } })
  })
})

describe("Todoist userinfo.request", () => {
  it("fails rather than signing in without a user when the sync fails or has none", async () => {
    const config = Todoist(credentials)
    const refused = fakeFetch({ "POST https://api.todoist.com/api/v1/sync": new Response("Gone", { status: 410 }) })
    await expect(async () => requestHook(config.userinfo)(requestContext(config, refused.fetch))).rejects.toThrow(/410/)
    const empty = fakeFetch({ "POST https://api.todoist.com/api/v1/sync": { sync_token: "x" } })
    await expect(async () => requestHook(config.userinfo)(requestContext(config, empty.fetch))).rejects.toThrow(/no user/)
  })
})

describe("Trakt userinfo.request", () => {
  it("follows a userinfo URL the user overrides", async () => {
    const config = Trakt({ ...credentials, userinfo: { url: "https://api-staging.trakt.tv/users/me?extended=full" } })
    const { fetch, calls } = fakeFetch({ "https://api-staging.trakt.tv/users/me?extended=full": { ids: { slug: "x" } } })
    await requestHook(config.userinfo)(requestContext(config, fetch))
    expect(calls.map((call) => call.url)).toEqual(["https://api-staging.trakt.tv/users/me?extended=full"])
  })
})

describe("base URLs", () => {
  it("points Zoho at another data centre", () => {
    const config = Zoho({ ...credentials, baseUrl: "https://accounts.zoho.eu/" })
    expect(endpointURL(config.authorization).href).toBe("https://accounts.zoho.eu/oauth/v2/auth?scope=AaaServer.profile.Read")
    expect(endpointURL(config.token).href).toBe("https://accounts.zoho.eu/oauth/v2/token")
    expect(endpointURL(config.userinfo).href).toBe("https://accounts.zoho.eu/oauth/user/info")
    expect(config).not.toHaveProperty("baseUrl")
  })

  it("points Webex at another API base", () => {
    const config = Webex({ apiBaseUrl: "https://webexapis.example/v1/" })
    expect(endpointURL(config.token).href).toBe("https://webexapis.example/v1/access_token")
    expect(endpointURL(config.userinfo).href).toBe("https://webexapis.example/v1/people/me")
    expect(config).not.toHaveProperty("apiBaseUrl")
  })

  it("points WorkOS at its issuer, with or without the trailing slash, and keeps the issuer", () => {
    for (const issuer of ["https://workos.example", "https://workos.example/"]) {
      const config = WorkOS({ issuer })
      expect(endpointURL(config.authorization).href).toBe("https://workos.example/sso/authorize?connection=")
      expect(endpointURL(config.token).href).toBe("https://workos.example/sso/token")
      expect(config.issuer).toBe(issuer)
    }
    expect(WorkOS()).not.toHaveProperty("connection")
  })
})

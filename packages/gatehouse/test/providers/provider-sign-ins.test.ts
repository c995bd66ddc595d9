/**
 * Whole sign-ins through `Auth()` with the catalogue's providers whose token or userinfo exchange
 * is not standard OAuth 2: each provider is answered at its real URLs by a local fake of its
 * quirk, through the provider's `fetch`. Each test proves that the requests carry what the
 * provider wants and that the profile is read the way it serves it, down to the stored account.
 */
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { GitHub } from "../../src/providers/github.js"
import { TikTok } from "../../src/providers/tiktok.js"
import { Threads } from "../../src/providers/threads.js"
import { TodoistProvider } from "../../src/providers/todoist.js"
import { Trakt } from "../../src/providers/trakt.js"
import { VK } from "../../src/providers/vk.js"
import { WeChat } from "../../src/providers/wechat.js"
import { WorkOS } from "../../src/providers/workos.js"
import type { OAuthConfig } from "../../src/providers/types.js"
import { Client, recordingLogger, secret } from "../flow/flow-helpers.js"

const DASHBOARD = "https://app.test/dashboard"

/** A request the fake provider received. */
interface Received {
  method: string
  url: URL
  headers: Headers
  /** The form body, for form posts. */
  form: URLSearchParams | undefined
}

type Route = (request: Received) => Response

/**
 * A provider's servers, answering `METHOD origin+path` (query ignored) through a fetch to give the
 * provider; anything else answers 404. Records every request.
 */
function fakeProvider(routes: Record<string, Route>) {
  const received: Received[] = []
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    const method = (init?.method ?? "GET").toUpperCase()
    const body = init?.body
    const form = body instanceof URLSearchParams || typeof body === "string" ? new URLSearchParams(body) : undefined
    const request = { method, url, headers: new Headers(init?.headers), form }
    received.push(request)
    const route = routes[`${method} ${url.origin}${url.pathname}`]
    return route ? route(request) : new Response("not found", { status: 404 })
  }) as typeof globalThis.fetch
  /** The one request to `METHOD origin+path`; fails when there is none or more than one. */
  function only(key: string): Received {
    const matching = received.filter((request) => `${request.method} ${request.url.origin}${request.url.pathname}` === key)
    expect(matching, `requests to ${key}`).toHaveLength(1)
    return matching[0]!
  }
  return { fetch, received, only }
}

/**
 * Signs in with `provider` on an app with a memory adapter: the sign-in request, then the callback
 * as the provider sends the browser back (`code`, the `state` it was sent, and `extra`).
 */
async function signInWith(provider: OAuthConfig, extra: Record<string, string> = {}) {
  const adapter = MemoryAdapter()
  const { logger, lines } = recordingLogger()
  const client = new Client({ secret, trustHost: true, logger, adapter, providers: [provider] })
  const start = await client.postForm(`signin/${provider.id}`, { csrfToken: await client.csrfToken(), callbackUrl: "/dashboard" })
  expect(start.status).toBe(302)
  const authorize = new URL(start.headers.get("location")!)
  const state = authorize.searchParams.get("state")
  expect(state, "the authorization request carries a state").toBeTruthy()
  const back = await client.get(`callback/${provider.id}?${new URLSearchParams({ code: "the-code", state: state!, ...extra })}`)
  return { adapter, client, lines, authorize, location: back.headers.get("location") }
}

/** The stored user of `provider`'s account `providerAccountId`, or null. */
function storedUser(adapter: ReturnType<typeof MemoryAdapter>, provider: string, providerAccountId: string) {
  return adapter.getUserByAccount({ provider, providerAccountId })
}

describe("WeChat", () => {
  const TOKEN = "POST https://api.weixin.qq.com/sns/oauth2/access_token"
  const USERINFO = "GET https://api.weixin.qq.com/sns/userinfo"
  const user = { openid: "o6_bmjrPTlm6_2sgVt7hMZOPfL2M", nickname: "小明", sex: 0, province: "", city: "", country: "", headimgurl: "https://thirdwx.qlogo.cn/mmopen/g3Mon/132", privilege: [] }

  function weChat(options: { unionid?: string; token?: Route; userinfo?: Route; platformType?: "OfficialAccount" | "WebsiteApp" } = {}) {
    const server = fakeProvider({
      // No token_type, the user named by openid: as WeChat answers.
      [TOKEN]: options.token ?? (() => Response.json({ access_token: "wx-at", expires_in: 7200, refresh_token: "wx-rt", openid: user.openid, scope: "snsapi_login", ...(options.unionid && { unionid: options.unionid }) })),
      [USERINFO]: options.userinfo ?? (() => Response.json({ ...user, ...(options.unionid && { unionid: options.unionid }) })),
    })
    const provider = WeChat({ clientId: "wx-app", clientSecret: "wx-secret", fetch: server.fetch, ...(options.platformType && { platformType: options.platformType }) })
    return { server, provider }
  }

  it("sends a website's user to the QR page with appid, and signs them in by their unionid", async () => {
    const { server, provider } = weChat({ unionid: "oUnion-42", platformType: "WebsiteApp" })
    const { adapter, authorize, location } = await signInWith(provider)

    expect(`${authorize.origin}${authorize.pathname}${authorize.hash}`).toBe("https://open.weixin.qq.com/connect/qrconnect#wechat_redirect")
    expect(authorize.searchParams.get("appid")).toBe("wx-app")
    expect(authorize.searchParams.get("scope")).toBe("snsapi_login")
    expect(authorize.searchParams.has("code_challenge")).toBe(false)
    expect(location).toBe(DASHBOARD)

    // appid and secret in the query, as WeChat reads them; the code in the form.
    const token = server.only(TOKEN)
    expect(token.url.searchParams.get("appid")).toBe("wx-app")
    expect(token.url.searchParams.get("secret")).toBe("wx-secret")
    expect(token.form?.get("code")).toBe("the-code")
    expect(token.form?.get("grant_type")).toBe("authorization_code")
    // The profile is asked for with the token and openid in the query.
    const userinfo = server.only(USERINFO)
    expect(Object.fromEntries(userinfo.url.searchParams)).toEqual({ access_token: "wx-at", openid: user.openid, lang: "zh_CN" })

    expect(await storedUser(adapter, "wechat", "oUnion-42")).toMatchObject({ name: "小明", image: user.headimgurl, email: null })
    expect(await adapter.getAccount("oUnion-42", "wechat")).toMatchObject({ access_token: "wx-at", refresh_token: "wx-rt", token_type: "bearer" })
  })

  it("asks inside WeChat (Official Account) for snsapi_userinfo, and keys a user without unionid by openid", async () => {
    const { provider } = weChat()
    const { adapter, authorize, location } = await signInWith(provider)
    expect(`${authorize.origin}${authorize.pathname}${authorize.hash}`).toBe("https://open.weixin.qq.com/connect/oauth2/authorize#wechat_redirect")
    expect(authorize.searchParams.get("scope")).toBe("snsapi_userinfo")
    expect(location).toBe(DASHBOARD)
    expect(await storedUser(adapter, "wechat", user.openid)).toMatchObject({ name: "小明" })
  })

  it("shows a code WeChat refuses (errcode 40029 with HTTP 200) on the sign-in page, and creates no one", async () => {
    const { provider } = weChat({ token: () => Response.json({ errcode: 40029, errmsg: "invalid code, rid: 1" }) })
    const { adapter, location, lines } = await signInWith(provider)
    expect(location).toBe("https://app.test/auth/signin?error=OAuthCallbackError")
    expect(lines.map((line) => line.code)).toContain("OAuthCallbackError")
    expect(await storedUser(adapter, "wechat", user.openid)).toBeNull()
  })

  it("fails the sign-in when sns/userinfo answers an errcode, and never logs the token in the query", async () => {
    const { provider } = weChat({ userinfo: () => Response.json({ errcode: 40003, errmsg: "invalid openid" }) })
    const { adapter, location, lines } = await signInWith(provider)
    expect(location).toBe("https://app.test/auth/error?error=Configuration")
    expect(JSON.stringify(lines.map((line) => line.message.map(String)))).not.toContain("wx-at")
    expect(await storedUser(adapter, "wechat", user.openid)).toBeNull()
  })
})

describe("VK", () => {
  const TOKEN = "POST https://oauth.vk.com/access_token"
  const USERS_GET = "GET https://api.vk.com/method/users.get"

  function vk(usersGet?: Route) {
    const server = fakeProvider({
      // The email comes with the token, and there is no token_type.
      [TOKEN]: () => Response.json({ access_token: "vk-at", expires_in: 86400, user_id: 210700286, email: "lindsey@example.ru" }),
      [USERS_GET]: usersGet ?? (() => Response.json({ response: [{ id: 210700286, first_name: "Lindsey", last_name: "Stirling", photo_100: "https://sun1-17.userapi.com/s/v1/100.jpg", can_access_closed: true, is_closed: false }] })),
    })
    return { server, provider: VK({ clientId: "vk-app", clientSecret: "vk-secret", fetch: server.fetch }) }
  }

  it("names the API version, takes no PKCE, posts the client credentials, and adds the token's email to users.get's user", async () => {
    const { server, provider } = vk()
    const { adapter, authorize, location } = await signInWith(provider)

    expect(authorize.searchParams.get("v")).toBe("5.131")
    expect(authorize.searchParams.get("scope")).toBe("email")
    expect(authorize.searchParams.has("code_challenge")).toBe(false)
    expect(location).toBe(DASHBOARD)

    const token = server.only(TOKEN)
    expect(token.url.searchParams.get("v")).toBe("5.131")
    expect(token.form?.get("client_id")).toBe("vk-app")
    expect(token.form?.get("client_secret")).toBe("vk-secret")
    expect(token.form?.has("code_verifier")).toBe(false)
    expect(token.headers.has("authorization")).toBe(false)
    const usersGet = server.only(USERS_GET)
    expect(usersGet.url.searchParams.get("fields")).toBe("photo_100")
    expect(usersGet.headers.get("authorization")).toBe("Bearer vk-at")

    expect(await storedUser(adapter, "vk", "210700286")).toMatchObject({ name: "Lindsey Stirling", email: "lindsey@example.ru", image: "https://sun1-17.userapi.com/s/v1/100.jpg" })
  })

  it("fails the sign-in when users.get answers an API error with HTTP 200", async () => {
    const { provider } = vk(() => Response.json({ error: { error_code: 5, error_msg: "User authorization failed" } }))
    const { adapter, location } = await signInWith(provider)
    expect(location).toBe("https://app.test/auth/error?error=Configuration")
    expect(await storedUser(adapter, "vk", "210700286")).toBeNull()
  })
})

describe("TikTok", () => {
  const TOKEN = "POST https://open.tiktokapis.com/v2/oauth/token/"
  const USERINFO = "GET https://open.tiktokapis.com/v2/user/info/"

  it("sends the client key as client_key to the authorization page and the token endpoint, and reads the user under data.user", async () => {
    const server = fakeProvider({
      [TOKEN]: () => Response.json({ access_token: "act.tt", expires_in: 86400, open_id: "-000OA", refresh_token: "rft.tt", refresh_expires_in: 31536000, scope: "user.info.basic", token_type: "Bearer" }),
      [USERINFO]: () => Response.json({ data: { user: { open_id: "-000OA", avatar_url: "https://p16-sign.tiktokcdn.com/avatar.jpeg", display_name: "Tik Toker" } }, error: { code: "ok", message: "", log_id: "2022" } }),
    })
    // The app's own fetch (a proxy, say) still carries every request.
    const { adapter, authorize, location } = await signInWith(TikTok({ clientId: "tt-key", clientSecret: "tt-secret", fetch: server.fetch }))

    expect(authorize.searchParams.get("client_key")).toBe("tt-key")
    expect(authorize.searchParams.get("scope")).toBe("user.info.basic")
    expect(location).toBe(DASHBOARD)

    const token = server.only(TOKEN)
    expect(token.form?.get("client_key")).toBe("tt-key")
    expect(token.form?.get("client_secret")).toBe("tt-secret")
    expect(token.form?.get("code")).toBe("the-code")
    expect(token.url.searchParams.get("client_key")).toBeNull()
    const userinfo = server.only(USERINFO)
    expect(userinfo.url.searchParams.get("fields")).toBe("open_id,avatar_url,display_name")
    expect(userinfo.headers.get("authorization")).toBe("Bearer act.tt")

    expect(await storedUser(adapter, "tiktok", "-000OA")).toMatchObject({ name: "Tik Toker", image: "https://p16-sign.tiktokcdn.com/avatar.jpeg", email: null })
  })
})

describe("Threads", () => {
  const TOKEN = "POST https://graph.threads.net/oauth/access_token"
  const ME = "GET https://graph.threads.net/v1.0/me"

  it("takes a token response without token_type, and reads the Graph API's flat user with the fields it names", async () => {
    const server = fakeProvider({
      [TOKEN]: () => Response.json({ access_token: "THQVJ", user_id: 17841405793187218 }),
      [ME]: () => Response.json({ id: "17841405793187218", username: "threadsapitestuser", threads_profile_picture_url: "https://scontent.cdninstagram.com/t51/1.jpg" }),
    })
    const { adapter, authorize, location } = await signInWith(Threads({ clientId: "th-app", clientSecret: "th-secret", fetch: server.fetch }))

    expect(`${authorize.origin}${authorize.pathname}`).toBe("https://threads.net/oauth/authorize")
    expect(authorize.searchParams.get("scope")).toBe("threads_basic")
    expect(authorize.searchParams.has("code_challenge")).toBe(false)
    expect(location).toBe(DASHBOARD)
    expect(server.only(TOKEN).form?.get("client_secret")).toBe("th-secret")
    const me = server.only(ME)
    expect(me.url.searchParams.get("fields")).toBe("id,username,threads_profile_picture_url")
    expect(me.headers.get("authorization")).toBe("Bearer THQVJ")

    expect(await storedUser(adapter, "threads", "17841405793187218")).toMatchObject({ name: "threadsapitestuser", image: "https://scontent.cdninstagram.com/t51/1.jpg" })
  })
})

describe("Trakt", () => {
  it("names the API version and the app (trakt-api-key: the client id) on the profile request", async () => {
    const ME = "GET https://api.trakt.tv/users/me"
    const server = fakeProvider({
      "POST https://api.trakt.tv/oauth/token": () => Response.json({ access_token: "tr-at", token_type: "bearer", expires_in: 7776000, refresh_token: "tr-rt", scope: "public", created_at: 1487889741 }),
      [ME]: () => Response.json({ username: "sean", private: false, name: "Sean Rudford", vip: true, vip_ep: false, ids: { slug: "sean" }, joined_at: "2010-09-25T17:49:25.000Z", location: "SF", about: null, gender: "male", age: 35, images: { avatar: { full: "https://walter.trakt.tv/images/users/000/000/001/avatars/large/cf4e7a2d8a.jpg" } } }),
    })
    const { adapter, location } = await signInWith(Trakt({ clientId: "trakt-app", clientSecret: "trakt-secret", fetch: server.fetch }))
    expect(location).toBe(DASHBOARD)
    const me = server.only(ME)
    expect(me.url.searchParams.get("extended")).toBe("full")
    expect(me.headers.get("trakt-api-version")).toBe("2")
    expect(me.headers.get("trakt-api-key")).toBe("trakt-app")
    expect(me.headers.get("authorization")).toBe("Bearer tr-at")
    expect(await storedUser(adapter, "trakt", "sean")).toMatchObject({ name: "Sean Rudford", email: null })
  })
})

describe("Todoist", () => {
  it("posts the client credentials for the token, and reads the user from a sync of the user resource", async () => {
    const SYNC = "POST https://api.todoist.com/api/v1/sync"
    const TOKEN = "POST https://todoist.com/oauth/access_token"
    const server = fakeProvider({
      [TOKEN]: () => Response.json({ access_token: "td-at", token_type: "Bearer" }),
      [SYNC]: () => Response.json({ full_sync: true, sync_token: "TnYUZEpu", user: { id: "2671355", email: "me@example.com", full_name: "Ada Todo", avatar_big: "https://dcff1xvirvpfp.cloudfront.net/big.jpg" } }),
    })
    const { adapter, authorize, location } = await signInWith(TodoistProvider({ clientId: "td-app", clientSecret: "td-secret", fetch: server.fetch }))
    expect(authorize.searchParams.get("scope")).toBe("data:read")
    expect(location).toBe(DASHBOARD)
    expect(server.only(TOKEN).form?.get("client_secret")).toBe("td-secret")
    const sync = server.only(SYNC)
    expect(sync.headers.get("authorization")).toBe("Bearer td-at")
    expect(sync.form?.get("sync_token")).toBe("*")
    expect(JSON.parse(sync.form?.get("resource_types") ?? "null")).toEqual(["user"])
    expect(await storedUser(adapter, "todoist", "2671355")).toMatchObject({ name: "Ada Todo", email: "me@example.com", image: "https://dcff1xvirvpfp.cloudfront.net/big.jpg" })
  })
})

describe("WorkOS", () => {
  const TOKEN = "POST https://api.workos.com/sso/token"
  const PROFILE = "GET https://api.workos.com/sso/profile"
  const profile = { object: "profile", id: "prof_01DMC79VCBZ0NY2099737PSVF1", organization_id: "org_01EHWNCE74X7JSDV0X3SZ3KJNY", connection_id: "conn_01E4ZCR3C56J083X43JQXF3JK5", connection_type: "OktaSAML", idp_id: "00u1a0ufowBJlzPlk357", email: "todd@example.com", first_name: "Todd", last_name: "Rundgren", raw_attributes: { picture: "https://okta.example/todd.png" } }

  it("names the connection, and takes the profile from the token response without asking /sso/profile", async () => {
    const server = fakeProvider({
      [TOKEN]: () => Response.json({ token_type: "Bearer", access_token: "wos-at", expires_in: 600, profile }),
      [PROFILE]: () => Response.json({ ...profile, first_name: "Wrong" }),
    })
    const { adapter, authorize, location } = await signInWith(WorkOS({ clientId: "client_01", clientSecret: "sk_test", connection: profile.connection_id, fetch: server.fetch }))
    expect(`${authorize.origin}${authorize.pathname}`).toBe("https://api.workos.com/sso/authorize")
    expect(authorize.searchParams.get("connection")).toBe(profile.connection_id)
    expect(location).toBe(DASHBOARD)
    expect(server.only(TOKEN).form?.get("client_secret")).toBe("sk_test")
    expect(server.received.filter((request) => request.url.pathname === "/sso/profile")).toEqual([])
    expect(await storedUser(adapter, "workos", profile.id)).toMatchObject({ name: "Todd Rundgren", email: "todd@example.com", image: "https://okta.example/todd.png" })
  })

  it("asks /sso/profile with the access token when the token response has no profile", async () => {
    const server = fakeProvider({
      [TOKEN]: () => Response.json({ token_type: "Bearer", access_token: "wos-at", expires_in: 600 }),
      [PROFILE]: () => Response.json(profile),
    })
    const { adapter, authorize, location } = await signInWith(WorkOS({ clientId: "client_01", clientSecret: "sk_test", organization: profile.organization_id, fetch: server.fetch }))
    expect(authorize.searchParams.get("organization")).toBe(profile.organization_id)
    expect(authorize.searchParams.has("connection")).toBe(false)
    expect(location).toBe(DASHBOARD)
    expect(server.only(PROFILE).headers.get("authorization")).toBe("Bearer wos-at")
    expect(await storedUser(adapter, "workos", profile.id)).toMatchObject({ name: "Todd Rundgren" })
  })
})

describe("GitHub's issuer in the callback (RFC 9207)", () => {
  function gitHub() {
    const server = fakeProvider({
      "POST https://github.com/login/oauth/access_token": () => Response.json({ access_token: "gho_1", token_type: "bearer", scope: "read:user,user:email" }),
      "GET https://api.github.com/user": () => Response.json({ id: 1, login: "octocat", name: "The Octocat", email: "octocat@github.com", avatar_url: "https://avatars.githubusercontent.com/u/1" }),
      "GET https://api.github.com/user/emails": () => Response.json([{ email: "octocat@github.com", primary: true, verified: true, visibility: "public" }]),
    })
    return GitHub({ clientId: "gh-app", clientSecret: "gh-secret", fetch: server.fetch })
  }

  it("signs in when the callback names GitHub as its issuer, as GitHub now does", async () => {
    const { adapter, location } = await signInWith(gitHub(), { iss: "https://github.com/login/oauth" })
    expect(location).toBe(DASHBOARD)
    expect(await storedUser(adapter, "github", "1")).toMatchObject({ name: "The Octocat" })
  })

  it("refuses a callback that names another issuer", async () => {
    const { adapter, location } = await signInWith(gitHub(), { iss: "https://github.example/login/oauth" })
    expect(location).toBe("https://app.test/auth/error?error=Configuration")
    expect(await storedUser(adapter, "github", "1")).toBeNull()
  })
})

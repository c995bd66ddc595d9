/**
 * The providers ported from Auth.js against `@auth/core`'s own modules (a dev dependency): the
 * same id, name and type; the same endpoints, issuer, authorization parameters (with Auth.js's
 * default scope where a provider names none), checks and client authentication as Auth.js ends
 * up using after merging the options; the same button colours where Auth.js has them; and the
 * same user from the same profile. Extend PROVIDERS as providers are ported.
 */
import { describe, expect, it } from "vitest"
import type { EndpointConfig, OAuthConfig, User } from "../../src/types.js"
import { mapProfile } from "./helpers.js"

type AnyConfig = Record<string, unknown>
type Factory = (options: Record<string, unknown>) => AnyConfig

interface Case {
  /** The module's file name, the same in both. */
  file: string
  /** Options for both factories (credentials are added). */
  options?: Record<string, unknown>
  /** A profile as the provider serves it (or its ID token's claims). */
  profile: Record<string, unknown>
  /** Authorization parameters Auth.js sends that Gatehouse leaves to the core (which sends them anyway). */
  sentByCore?: string[]
}

const PROVIDERS: Case[] = [
  { file: "frontegg", options: { issuer: "https://app-abc.frontegg.com" }, profile: { sub: "f-1", name: "Ada", email: "ada@f.test", email_verified: true, picture: "https://f.test/ada.png" } },
  { file: "fusionauth", options: { issuer: "https://auth.example.test" }, profile: { sub: "fa-1", email: "r@fa.test", given_name: "Richard", middle_name: "P", family_name: "Hendricks", picture: "https://fa.test/r.png" } },
  { file: "hubspot", profile: { user: "ada@hubspot.test", user_id: 123, hub_domain: "acme.test", hub_id: 1 }, sentByCore: ["client_id"] },
  { file: "huggingface", profile: { sub: "hf-1", name: "Ada", preferred_username: "ada", email: "ada@hf.test", picture: "https://hf.test/ada.png", isPro: false, orgs: [] } },
  { file: "identity-server4", options: { issuer: "https://demo.identityserver.io" }, profile: { sub: "is4-1", name: "Alice Smith", email: "alice@is4.test" } },
  { file: "instagram", profile: { id: "17841405793187218", username: "jayposiris", account_type: "PERSONAL" } },
  { file: "kakao", profile: { id: 2134567890, kakao_account: { profile: { nickname: "라이언", profile_image_url: "https://k.test/ryan.jpg" }, email: "ryan@kakao.test" } } },
  { file: "kinde", options: { issuer: "https://acme.kinde.com" }, profile: { sub: "kp_1", name: "Ada Lovelace", email: "ada@kinde.test", picture: "https://kinde.test/ada.png" } },
  { file: "line", profile: { iss: "https://access.line.me", sub: "U4af", aud: "id", exp: 1, iat: 0, amr: ["pwd"], name: "Brown", picture: "https://line.test/brown" } },
  { file: "logto", options: { issuer: "https://tenant.logto.app/oidc" }, profile: { sub: "lg-1", username: "ada", email: "ada@logto.test", picture: "https://logto.test/ada.png" } },
  { file: "mailchimp", profile: { dc: "us19", accountname: "Acme Inc", login: { login_id: 12345, email: "ada@acme.test", login_name: "ada" }, api_endpoint: "https://us19.api.mailchimp.com" } },
  { file: "mailru", profile: { id: "1734604429", nickname: "Бернар", email: "bernard@mail.test", image: "https://filin.mail.ru/pic" } },
  { file: "mastodon", options: { issuer: "https://mastodon.social" }, profile: { id: "109348", username: "gargron", avatar_static: "https://files.mastodon.social/a.png" } },
  { file: "mattermost", options: { issuer: "https://chat.example.test" }, profile: { id: "mm-1", first_name: "Ada", last_name: "Lovelace", email: "ada@chat.test" } },
  { file: "medium", profile: { data: { id: "5303d74c", username: "majelbstoat", name: "Jamie Talbot", imageUrl: "https://medium.test/j.png" } } },
  { file: "naver", profile: { resultcode: "00", message: "success", response: { id: "32742776", nickname: "OpenAPI", email: "openapi@naver.com", profile_image: "https://naver.test/p.gif" } } },
  { file: "netlify", profile: { id: "5a1f3b8e", full_name: "Ada Lovelace", email: "ada@netlify.test", avatar_url: "https://netlify.test/ada.png" } },
  { file: "netsuite", options: { accountID: "1234567", userinfo: "https://1234567.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=1&deploy=1" }, profile: { id: 42, name: "Ada Lovelace", email: "ada@netsuite.test", location: 1, role: 3 } },
  { file: "nextcloud", options: { issuer: "https://cloud.example.test" }, profile: { id: "frank", displayname: "Frank K.", email: "frank@cloud.test" } },
  { file: "onelogin", options: { issuer: "https://acme.onelogin.com/oidc/2" }, profile: { sub: "ol-1", name: "Ada", preferred_username: "ada", email: "ada@onelogin.test" } },
  { file: "ory-hydra", options: { issuer: "https://hydra.example.test" }, profile: { iss: "https://hydra.example.test", sub: "hy-1", aud: "id", iat: 0, exp: 1, email: "ada@hydra.test" } },
  // Auth.js builds Osso's endpoints as `${issuer}oauth/…`, so its issuer ends with a slash.
  { file: "osso", options: { issuer: "https://demo.ossoapp.com/" }, profile: { id: "os-1", email: "ada@osso.test", idp: "Okta" } },
  { file: "osu", profile: { id: 2, username: "peppy", avatar_url: "https://a.ppy.sh/2" } },
]

const CREDENTIALS = { clientId: "client-id", clientSecret: "client-secret" }

/** A plain object's keys merged into another's, deeply; anything else replaces (as Auth.js merges a provider's options). */
function deepMerge(base: AnyConfig, extra: AnyConfig): AnyConfig {
  const result: AnyConfig = { ...base }
  for (const [key, value] of Object.entries(extra)) {
    const current = result[key]
    const bothObjects = [current, value].every((item) => item !== null && typeof item === "object" && !Array.isArray(item))
    result[key] = bothObjects ? deepMerge(current as AnyConfig, value as AnyConfig) : value
  }
  return result
}

/** The endpoint's URL and parameters as the provider ends up sending them; `url` undefined when discovery gives it. */
function endpoint(value: unknown, authorization = false): { url: string | undefined; params: Record<string, string> } {
  const config = value as EndpointConfig | undefined
  const href = typeof config === "string" ? config : config?.url
  const url = href === undefined ? undefined : new URL(href)
  const params: Record<string, string> = Object.fromEntries(url?.searchParams ?? [])
  if (typeof config === "object") {
    for (const [key, param] of Object.entries(config.params ?? {})) {
      if (param !== undefined) params[key] = typeof param === "object" && param !== null ? JSON.stringify(param) : String(param)
    }
  }
  // Both add this scope to an authorization request that names none.
  if (authorization && !("scope" in params)) params.scope = "openid profile email"
  return { url: url ? `${url.origin}${url.pathname}` : undefined, params }
}

/** What Auth.js's provider does when a user gives no `profile`: its default mapping. */
function authjsDefaultProfile(profile: Record<string, unknown>): User {
  return {
    id: String(profile.sub ?? profile.id),
    name: (profile.name ?? profile.nickname ?? profile.preferred_username) as string | undefined,
    email: profile.email as string | undefined,
    image: profile.picture as string | undefined,
  }
}

const asNulls = (user: User): Record<string, unknown> =>
  Object.fromEntries(["id", "name", "email", "image"].map((key) => [key, key === "id" ? String(user.id) : (user[key as keyof User] ?? null)]))

describe.each(PROVIDERS)("$file, as @auth/core has it", ({ file, options = {}, profile, sentByCore = [] }) => {
  const load = async () => {
    const ours = ((await import(/* @vite-ignore */ new URL(`../../src/providers/${file}.ts`, import.meta.url).href)) as { default: Factory }).default
    const theirs = ((await import(/* @vite-ignore */ `@auth/core/providers/${file}`)) as { default: Factory }).default
    const { options: userOptions, ...defaults } = theirs({ ...CREDENTIALS, ...options })
    return { gatehouse: ours({ ...CREDENTIALS, ...options }) as unknown as OAuthConfig & AnyConfig, authjs: deepMerge(defaults, (userOptions ?? {}) as AnyConfig) }
  }

  it("has the same id, name, type, issuer, endpoints, parameters, checks and client authentication", async () => {
    const { gatehouse, authjs } = await load()
    const shape = (config: AnyConfig, leaveOut: string[] = []) => {
      const authorization = endpoint(config.authorization, true)
      for (const key of leaveOut) delete authorization.params[key]
      const client = (config.client ?? {}) as Record<string, unknown>
      return {
        id: config.id,
        name: config.name,
        type: config.type,
        issuer: config.issuer,
        authorization,
        token: endpoint(config.token).url,
        userinfo: endpoint(config.userinfo).url,
        checks: [...((config.checks as string[] | undefined) ?? ["pkce"])].sort(),
        clientAuth: client.token_endpoint_auth_method ?? "client_secret_basic",
        idTokenAlg: client.id_token_signed_response_alg,
      }
    }
    expect(shape(gatehouse)).toEqual(shape(authjs, sentByCore))
  })

  it("has Auth.js's button colours where Auth.js names them", async () => {
    const { gatehouse, authjs } = await load()
    const style = authjs.style as { bg?: string; text?: string } | undefined
    if (style?.bg) expect(gatehouse.style?.bg?.toLowerCase()).toBe(style.bg.toLowerCase())
    if (style?.text) expect(gatehouse.style?.text?.toLowerCase()).toBe(style.text.toLowerCase())
  })

  it("makes the same user of the same profile", async () => {
    const { gatehouse, authjs } = await load()
    const theirs = typeof authjs.profile === "function" ? await (authjs.profile as (p: unknown, t: unknown) => User)(profile, {}) : authjsDefaultProfile(profile)
    expect(asNulls(await mapProfile(gatehouse, profile))).toEqual(asNulls(theirs))
  })
})

/**
 * Gatehouse's provider catalogue is Auth.js's. For every provider module of `@auth/core` (a dev
 * dependency), Gatehouse has the module at the same file name, exporting the factory under Auth.js's
 * name, and both factories, given the same options, make the same provider: id, name, type,
 * issuer, the authorization, token and userinfo endpoints with their parameters, checks, client
 * metadata (the token endpoint's authentication method first), `idToken`, the button colours
 * Auth.js names, and the same user of the same profile (profile-fixtures.ts). An app moving from
 * Auth.js keeps its account rows (keyed by provider id and the profile's id), its users and its
 * provider registrations (redirect URIs, scopes) only if these agree.
 *
 * Each provider is compared as configured by default and with an issuer given; a case in which
 * Auth.js's own provider is unusable (its factory throws, or it builds URLs from an option that is
 * missing) is not compared. Representations are normalised once, in {@link view}: an endpoint as
 * one URL with its parameters sorted; Auth.js's placeholder `https://authjs.dev` as no URL (left to
 * discovery); a parameter left `undefined` as not sent; the scope both send when a provider names
 * none; `response_type=code` and the client id, which both send anyway; an issuer's trailing
 * slash; `state` in the checks (Gatehouse checks it for every provider, see core/oauth/checks.ts);
 * colours in lower case and six digits (Auth.js's `brandColor`, an accent its own sign-in page
 * mixes into the hover colour, has no counterpart in Gatehouse's `style`); a user as Auth.js's
 * user table stores it: id (a string), name, email and image, what it leaves out as `null`.
 * `wellKnown` is not compared: both discover from `issuer`.
 *
 * Where Gatehouse differs on purpose, DELIBERATE names the field, Gatehouse's value and why; the
 * test checks that Gatehouse still has that value and that Auth.js still differs from it, so the
 * list cannot go stale.
 */
import { existsSync, readdirSync } from "node:fs"
import { fileURLToPath, pathToFileURL } from "node:url"
import { describe, expect, it, vi } from "vitest"
import { PROFILES } from "./profile-fixtures.js"

/** Modules of `@auth/core/providers` that hold types (and the index), not providers. */
const TYPE_MODULES = new Set(["index", "oauth", "provider-types"])

const CREDENTIALS = { clientId: "client-id", clientSecret: "client-secret" }
const ISSUER = "https://issuer.example"

/** Options a provider's endpoints are built from, given to both factories in every case. */
const REQUIRED_OPTIONS: Record<string, Record<string, unknown>> = {
  netsuite: { accountID: "1234567", userinfo: "https://1234567.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=1&deploy=1" },
  email: { server: "smtp://user:pass@smtp.example.com:587" },
  nodemailer: { server: "smtp://user:pass@smtp.example.com:587" },
}

/** The issuer in the form the provider's documentation gives it, where Auth.js builds URLs by appending to it. */
const ISSUER_OF: Record<string, string> = {
  // Auth.js appends `oauth/…` and `sso/…`: its documentation has the issuer end with a slash.
  osso: `${ISSUER}/`,
  workos: `${ISSUER}/`,
  // OneLogin's issuer is its /oidc/2 URL; Gatehouse adds that path to a bare subdomain URL.
  onelogin: `${ISSUER}/oidc/2`,
}

type Field = "id" | "name" | "type" | "issuer" | "authorization" | "token" | "userinfo" | "checks" | "client" | "idToken" | "style" | "user"

/**
 * Where Gatehouse's provider differs from Auth.js's on purpose: the field, Gatehouse's value (as
 * {@link compare} puts it, in the first case compared) and why. Every entry is justified by a test
 * elsewhere in the suite or by the provider's documentation, and checked to still differ.
 */
const DELIBERATE: Record<string, Partial<Record<Field, { gatehouse: unknown; reason: string }>>> = {
  apple: {
    user: {
      gatehouse: { id: PROFILES.apple.sub, name: null, email: PROFILES.apple.email, image: null },
      reason:
        "Apple sends the user's name once, on the first sign-in; on the others Auth.js names the user by the email address (a private relay address, often), where Gatehouse leaves the name out (profile-mappings.test.ts › Apple)",
    },
  },
  atlassian: {
    authorization: {
      gatehouse: "https://auth.atlassian.com/authorize?audience=api.atlassian.com&prompt=consent&scope=read%3Ame",
      reason: "Atlassian's OAuth 2.0 (3LO) documentation requires prompt=consent on the authorization URL",
    },
  },
  "azure-devops": {
    token: {
      gatehouse: "https://app.vssps.visualstudio.com/oauth2/token",
      reason: "Auth.js names …/oauth2/authorize as the token endpoint; Azure DevOps redeems codes at …/oauth2/token (non-standard-exchanges.test.ts › Azure DevOps)",
    },
    checks: {
      gatehouse: [],
      reason: "Azure DevOps takes no PKCE, its assertion grant having no code_verifier; state protects the sign-in (non-standard-exchanges.test.ts › Azure DevOps)",
    },
    client: {
      gatehouse: { token_endpoint_auth_method: "client_secret_post" },
      reason: "the secret goes in the form, where the provider's fetch turns it into the client_assertion Azure DevOps wants (non-standard-exchanges.test.ts › Azure DevOps)",
    },
  },
  bitbucket: {
    authorization: {
      gatehouse: "https://bitbucket.org/site/oauth2/authorize?scope=account+email",
      reason: "the email scope lets the userinfo hook read the primary confirmed address from /2.0/user/emails (provider-hooks.test.ts › Bitbucket userinfo.request)",
    },
    user: {
      gatehouse: { id: PROFILES.bitbucket.account_id, name: "Ada Lovelace", email: PROFILES.bitbucket.email, image: PROFILES.bitbucket.links.avatar.href },
      reason: "the primary confirmed address from /2.0/user/emails; Auth.js's mapping leaves every Bitbucket user without one",
    },
  },
  bungie: {
    userinfo: {
      gatehouse: "https://www.bungie.net/Platform/User/GetMembershipsForCurrentUser/",
      reason: "Auth.js's URL keeps a literal {membershipId}; GetMembershipsForCurrentUser answers for the token's user, in the same Response.bungieNetUser shape (non-standard-exchanges.test.ts › Bungie)",
    },
  },
  "click-up": {
    client: {
      gatehouse: { token_endpoint_auth_method: "client_secret_post" },
      reason: "ClickUp's token endpoint reads client_id and client_secret from the request's parameters, not from HTTP Basic (ClickUp API documentation, POST /api/v2/oauth/token)",
    },
    user: {
      gatehouse: { id: "183", name: "John Doe", email: PROFILES["click-up"].user.email, image: PROFILES["click-up"].user.profilePicture },
      reason: "the address and picture ClickUp's /api/v2/user has; Auth.js's mapping puts the picture in profilePicture, a field no user table has, and leaves out the address",
    },
  },
  dribbble: {
    authorization: {
      gatehouse: "https://dribbble.com/oauth/authorize?scope=public",
      reason: "Auth.js sends scope=undefined when no scope option is given; Dribbble's default scope, public, is sent instead",
    },
  },
  eveonline: {
    user: {
      gatehouse: { id: "2112625428", name: "CCP Zoetrope", email: null, image: "https://images.evetech.net/characters/2112625428/portrait?size=128" },
      reason: "EVE's image server is images.evetech.net (EVE Online developer documentation, Image Server); Auth.js links the retired image.eveonline.com",
    },
  },
  facebook: {
    authorization: {
      gatehouse: "https://www.facebook.com/dialog/oauth?scope=email",
      reason: "unversioned, so the dialog follows the Graph API version the app is pinned to in Meta's dashboard (Meta's versioning documentation), as the token and userinfo calls of both do; Auth.js pins the dialog to v19.0, which Meta retires",
    },
  },
  faceit: {
    user: {
      gatehouse: { id: PROFILES.faceit.guid, name: "s1mple", email: PROFILES.faceit.email, image: PROFILES.faceit.picture },
      reason: "FACEIT's userinfo has a nickname and, mostly, no name; Auth.js's mapping reads name only, leaving users nameless (profile-mappings.test.ts › FACEIT)",
    },
  },
  foursquare: {
    client: {
      gatehouse: { token_endpoint_auth_method: "client_secret_post" },
      reason: "Foursquare reads client_id and client_secret from the request's parameters, not from HTTP Basic (non-standard-exchanges.test.ts › Foursquare)",
    },
  },
  fusionauth: {
    user: {
      gatehouse: { id: PROFILES.fusionauth.sub, name: null, email: PROFILES.fusionauth.email, image: PROFILES.fusionauth.picture },
      reason: "with no name, username or name parts in the token Auth.js's mapping stores an empty name, Gatehouse none (profile-mappings.test.ts › FusionAuth)",
    },
  },
  notion: {
    userinfo: {
      gatehouse: "https://api.notion.com/v1/users/me",
      reason: "the URL the request hook calls, so that overriding it moves the call; Auth.js names /v1/users and its hook calls /v1/users/me, the same request (provider-hooks.test.ts › Notion)",
    },
  },
  reddit: {
    user: {
      gatehouse: { id: "1w72", name: "spez", email: null, image: "https://styles.redditmedia.com/t5_3k30p/styles/profileIcon_snoo.png?width=256&height=256&s=abc" },
      reason: "Reddit's /api/v1/me names the avatar icon_img (HTML-escaped), which Auth.js's default mapping does not read (profile-mappings.test.ts › Reddit)",
    },
  },
  todoist: {
    userinfo: {
      gatehouse: "https://api.todoist.com/api/v1/sync",
      reason: "Todoist retired Sync API v9, which Auth.js's request hook calls without naming it as the endpoint; Gatehouse's hook calls API v1's sync, named so that it can be overridden (non-standard-exchanges.test.ts › Todoist)",
    },
  },
  vk: {
    checks: {
      gatehouse: [],
      reason: "oauth.vk.com's authorization-code flow takes no code_challenge (PKCE is VK ID's); Gatehouse sends state, which Auth.js does not, and no challenge nobody checks (non-standard-exchanges.test.ts › VK)",
    },
  },
  wechat: {
    authorization: {
      gatehouse: "https://open.weixin.qq.com/connect/oauth2/authorize?appid=client-id&scope=snsapi_userinfo#wechat_redirect",
      reason: "WeChat's documentation requires the #wechat_redirect fragment on its authorization pages (non-standard-exchanges.test.ts › WeChat)",
    },
  },
}

type Config = Record<string, unknown>
type Factory = (options: Config) => Config

const authjsDirectory = fileURLToPath(new URL("../../../../node_modules/@auth/core/providers/", import.meta.url))
const gatehouseDirectory = fileURLToPath(new URL("../../src/providers/", import.meta.url))

const names = readdirSync(authjsDirectory)
  .filter((file) => file.endsWith(".js"))
  .map((file) => file.slice(0, -".js".length))
  .filter((name) => !TYPE_MODULES.has(name))
  .sort()

async function load(path: string): Promise<Record<string, unknown>> {
  return (await import(/* @vite-ignore */ pathToFileURL(path).href)) as Record<string, unknown>
}

function isPlainObject(value: unknown): value is Config {
  if (value === null || typeof value !== "object") return false
  const prototype: unknown = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

/** Auth.js's merge of a provider's defaults and its `options`: plain objects key by key, `undefined` skipped. */
function merged(base: Config, override: Config): Config {
  const result = { ...base }
  for (const [key, value] of Object.entries(override)) {
    if (value === undefined) continue
    const current = result[key]
    result[key] = isPlainObject(current) && isPlainObject(value) ? merged(current, value) : value
  }
  return result
}

/** The provider Auth.js ends up with (its `parseProviders`): the factory's defaults with its `options` laid over them. */
function authjsProvider(factory: Factory, options: Config): Config {
  const { options: own, ...defaults } = factory(structuredClone(options))
  return isPlainObject(own) ? merged(defaults, own) : defaults
}

const DISCOVERED = "(discovered)"
const REQUEST_HOOK = "(request hook, no URL)"
const INVALID = "(invalid URL)"
const DEFAULT_SCOPE = "openid profile email"

/** An endpoint as one comparable string; `undefined` when there is none. */
function endpoint(value: unknown, authorization = false): string | undefined {
  if (value === undefined || value === null) {
    if (!authorization) return undefined
    value = {}
  }
  const config = typeof value === "string" ? { url: value } : isPlainObject(value) ? value : { url: String(value) }
  const query = new Map<string, string>()
  let base = DISCOVERED
  let fragment = ""
  if (config.url !== undefined) {
    const raw = String(config.url)
    const url = URL.parse(raw)
    // Auth.js builds `undefined/oauth/…` (or `undefinedoauth/…`) from an issuer that is missing.
    if (url === null || raw.includes("undefined")) return `${INVALID} ${raw}`
    if (url.host !== "authjs.dev") {
      base = `${url.origin}${url.pathname}`
      fragment = url.hash
      for (const [key, item] of url.searchParams) query.set(key, item)
    }
  } else if (!isPlainObject(config.params) && typeof config.request === "function") {
    return REQUEST_HOOK
  }
  if (isPlainObject(config.params)) {
    for (const [key, item] of Object.entries(config.params)) {
      if (item === undefined || item === null) continue
      query.set(key, typeof item === "object" ? JSON.stringify(item) : String(item))
    }
  }
  if (authorization) {
    if (!query.has("scope")) query.set("scope", DEFAULT_SCOPE)
    // Every authorization request carries these whether a provider names them or not.
    if (query.get("response_type") === "code") query.delete("response_type")
    if (query.get("client_id") === CREDENTIALS.clientId) query.delete("client_id")
  }
  const search = new URLSearchParams([...query].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))).toString()
  return `${base}${search ? `?${search}` : ""}${fragment}`
}

/** A CSS hex colour in lower case and six digits. */
function colour(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined
  const hex = value.toLowerCase()
  return /^#[0-9a-f]{3}$/.test(hex) ? `#${[...hex.slice(1)].map((digit) => digit + digit).join("")}` : hex
}

/** What is compared of a provider, normalised. */
function view(config: Config): Partial<Record<Field, unknown>> {
  if (config.type !== "oauth" && config.type !== "oidc") return { id: config.id, name: config.name, type: config.type }
  const client = isPlainObject(config.client) ? config.client : {}
  const style = isPlainObject(config.style) ? config.style : {}
  return {
    id: config.id,
    name: config.name,
    type: config.type,
    issuer: typeof config.issuer === "string" ? config.issuer.replace(/\/+$/, "") : undefined,
    authorization: endpoint(config.authorization, true),
    token: endpoint(config.token),
    userinfo: endpoint(config.userinfo),
    checks: ((config.checks as string[] | undefined) ?? ["pkce"]).filter((check) => check !== "state").sort(),
    client: { ...client, token_endpoint_auth_method: client.token_endpoint_auth_method ?? "client_secret_basic" },
    idToken: config.idToken ?? true,
    style: { bg: colour(style.bg), text: colour(style.text) },
  }
}

/** Whether Auth.js's provider cannot be used as configured: URLs built from a missing option, or nothing to discover from. */
function unusable(description: Partial<Record<Field, unknown>>): boolean {
  const endpoints = [description.authorization, description.token, description.userinfo] as (string | undefined)[]
  if (endpoints.some((value) => value?.startsWith(INVALID))) return true
  return description.issuer === undefined && endpoints.some((value) => value?.startsWith(DISCOVERED))
}

/** The user a mapping makes as Auth.js's user table stores it: the id as a string, what it leaves out as `null`. */
function stored(user: Record<string, unknown>): Record<string, unknown> {
  return { id: String(user.id), name: user.name ?? null, email: user.email ?? null, image: user.image ?? null }
}

/** Auth.js's mapping for a provider without one of its own. */
function authjsDefaultProfile(profile: Config): Config {
  return { id: profile.sub ?? profile.id, name: profile.name ?? profile.nickname ?? profile.preferred_username, email: profile.email, image: profile.picture }
}

const TOKENS = { access_token: "access-token", token_type: "bearer" }

/** The user `config`'s mapping makes of `profile`; a mapping that fetches (Auth.js's Entra ID photo) is answered 404. */
async function userOf(config: Config, profile: object): Promise<Record<string, unknown>> {
  const mapping = (config.profile as ((profile: Config, tokens: object) => unknown) | undefined) ?? authjsDefaultProfile
  vi.stubGlobal("fetch", async () => new Response(null, { status: 404 }))
  try {
    return stored((await mapping(structuredClone(profile) as Config, { ...TOKENS })) as Record<string, unknown>)
  } finally {
    vi.unstubAllGlobals()
  }
}

/**
 * Both providers as compared: their views, Gatehouse's colours cut to those Auth.js names (where
 * it names none, Gatehouse's catalogue has its own), and the user each makes of `profile`.
 */
async function compare(gatehouse: Config, authjs: Config, profile: object | undefined): Promise<Record<"gatehouse" | "authjs", Partial<Record<Field, unknown>>>> {
  const [ours, theirs] = [view(gatehouse), view(authjs)]
  if (isPlainObject(theirs.style) && isPlainObject(ours.style)) {
    const named = Object.keys(theirs.style).filter((key) => (theirs.style as Config)[key] !== undefined)
    theirs.style = Object.fromEntries(named.map((key) => [key, (theirs.style as Config)[key]]))
    ours.style = Object.fromEntries(named.map((key) => [key, (ours.style as Config)[key]]))
  }
  if (profile) [ours.user, theirs.user] = [await userOf(gatehouse, profile), await userOf(authjs, profile)]
  return { gatehouse: ours, authjs: theirs }
}

interface Comparison {
  name: string
  /** Auth.js's factory, its exported name being `authjs.name`. */
  authjs: Factory
  /** Gatehouse's module of the same file name, if it exists. */
  gatehouse: Record<string, unknown> | undefined
}

const comparisons: Comparison[] = []
for (const name of names) {
  const authjs = (await load(`${authjsDirectory}${name}.js`)).default as Factory
  const path = `${gatehouseDirectory}${name}.ts`
  comparisons.push({ name, authjs, gatehouse: existsSync(path) ? await load(path) : undefined })
}

interface Case {
  label: string
  /** What both factories are given. */
  options: Config
  /** Auth.js's provider under those options. */
  authjs: Config
}

/** The cases compared: by default and with an issuer, each where Auth.js's provider is usable. */
function cases(name: string, authjs: Factory): Case[] {
  const required = { ...CREDENTIALS, ...REQUIRED_OPTIONS[name] }
  const all = [
    { label: "by default", options: required },
    { label: "with an issuer", options: { ...required, issuer: ISSUER_OF[name] ?? ISSUER } },
  ]
  return all.flatMap(({ label, options }) => {
    try {
      const provider = authjsProvider(authjs, options)
      return unusable(view(provider)) ? [] : [{ label, options, authjs: provider }]
    } catch {
      return [] // Auth.js's factory refuses these options.
    }
  })
}

describe("Gatehouse's catalogue against Auth.js's (@auth/core providers)", () => {
  it("finds Auth.js's provider modules", () => {
    expect(names.length).toBeGreaterThan(90)
    expect(names).toContain("github")
  })

  it("has Auth.js's type modules at the same subpaths (gatehouse-auth/providers/oauth, /provider-types)", () => {
    for (const name of ["oauth", "provider-types"]) {
      expect(existsSync(`${authjsDirectory}${name}.d.ts`)).toBe(true)
      expect(existsSync(`${gatehouseDirectory}${name}.ts`), `src/providers/${name}.ts is missing`).toBe(true)
    }
  })

  it("lists deliberate differences only of providers Auth.js has, each with its reason", () => {
    expect(Object.keys(DELIBERATE).filter((name) => !names.includes(name))).toEqual([])
    for (const [name, fields] of Object.entries(DELIBERATE)) {
      for (const [field, { reason }] of Object.entries(fields)) expect(reason.length, `${name}.${field}`).toBeGreaterThan(30)
    }
  })

  describe.each(comparisons)("$name", ({ name, authjs, gatehouse }) => {
    const deliberate = DELIBERATE[name] ?? {}
    const profile = (PROFILES as Record<string, object>)[name]
    const compared = cases(name, authjs)
    /** Gatehouse's provider and Auth.js's, compared under a case's options. */
    const both = ({ options, authjs: reference }: Case) => {
      if (!gatehouse) throw new Error(`src/providers/${name}.ts is missing`)
      return compare((gatehouse.default as Factory)(structuredClone(options)), reference, profile)
    }

    it(`exists at gatehouse-auth/providers/${name}, its factory exported under Auth.js's name (${authjs.name})`, () => {
      expect(gatehouse, `src/providers/${name}.ts is missing`).toBeDefined()
      expect(typeof gatehouse!.default).toBe("function")
      expect(gatehouse![authjs.name], `export { ${authjs.name} }`).toBe(gatehouse!.default)
    })

    it(`makes Auth.js's provider${profile ? ", and Auth.js's user of the same profile," : ""} apart from the deliberate differences`, async () => {
      expect(compared.map((item) => item.label), "Auth.js's provider is usable in no case").not.toEqual([])
      for (const item of compared) {
        const { gatehouse: ours, authjs: theirs } = await both(item)
        for (const field of Object.keys(deliberate) as Field[]) {
          delete ours[field]
          delete theirs[field]
        }
        expect(ours, `${name} ${item.label}`).toEqual(theirs)
      }
    })

    it.each(Object.keys(deliberate) as Field[])("still differs from Auth.js in %s, as listed", async (field) => {
      const { gatehouse: value, reason } = deliberate[field]!
      const { gatehouse: ours, authjs: theirs } = await both(compared[0]!)
      expect(ours[field], `${name}.${field}: ${reason}`).toEqual(value)
      expect(theirs[field], `${name}.${field} is listed as a deliberate difference, but Auth.js agrees now`).not.toEqual(value)
    })
  })
})

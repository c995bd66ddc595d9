/**
 * The whole catalogue against Auth.js's (`@auth/core`, a dev dependency): for every provider module
 * `@auth/core/providers/<name>.js`, Gatehouse has `src/providers/<name>.ts`, and both factories,
 * called with the same options, give the same `id`, `type`, issuer and default authorization,
 * token and userinfo endpoints. A switching app keeps its account rows (keyed by provider id) and
 * its provider app registrations only if these agree.
 *
 * Representations are normalised before comparing: an endpoint given as a string or as
 * `{ url, params }` becomes one URL with its parameters sorted; an endpoint with no URL (or Auth.js's
 * placeholder `https://authjs.dev`) is left to discovery; parameters that are `undefined` are sent
 * by neither; the authorization request's default scope (`openid profile email`, which both add
 * when a provider names none) is filled in, and `response_type=code` and the client id, which both
 * send on every authorization request, are left out. `wellKnown` is not compared: neither reads it (both
 * discover from `issuer`).
 */
import { existsSync, readdirSync } from "node:fs"
import { fileURLToPath, pathToFileURL } from "node:url"
import { describe, expect, it } from "vitest"

/** Modules of `@auth/core/providers` that are types (and the index), not providers. */
const TYPE_MODULES = new Set(["index", "oauth", "provider-types"])

/** What both factories are called with. */
const NEUTRAL = { clientId: "id", clientSecret: "secret" }

/**
 * For the providers Auth.js has no usable defaults for (its factory throws, or builds its URLs from
 * an option that is missing), the comparison is made with an issuer and these options as well.
 */
const ISSUER = "https://issuer.example"
const NEEDED_OPTIONS: Record<string, Record<string, unknown>> = {
  email: { server: "smtp://user:pass@smtp.example.com:587" },
  nodemailer: { server: "smtp://user:pass@smtp.example.com:587" },
  netsuite: { accountID: "1234567" },
}

type Field = "id" | "type" | "issuer" | "authorization" | "token" | "userinfo"

/**
 * Where Gatehouse's defaults differ from Auth.js's on purpose: the value Gatehouse has, and why.
 * The test fails when Gatehouse's value changes, and when Auth.js comes to agree (the entry is
 * then stale).
 */
const DELIBERATE: Record<string, Partial<Record<Field, { gatehouse: string | undefined; reason: string }>>> = {
  apple: {
    authorization: {
      gatehouse: "https://appleid.apple.com/auth/authorize?response_mode=form_post&scope=name+email",
      reason: "named outright; it is the URL Apple's discovery document gives, which Auth.js uses",
    },
  },
  atlassian: {
    authorization: {
      gatehouse: "https://auth.atlassian.com/authorize?audience=api.atlassian.com&prompt=consent&scope=read%3Ame",
      reason: "Atlassian's OAuth 2.0 (3LO) documentation requires prompt=consent",
    },
  },
  bitbucket: {
    authorization: {
      gatehouse: "https://bitbucket.org/site/oauth2/authorize?scope=account+email",
      reason: "the email scope lets the userinfo hook read the primary address from /user/emails; Auth.js signs Bitbucket users in without one",
    },
  },
  facebook: {
    authorization: {
      gatehouse: "https://www.facebook.com/dialog/oauth?scope=email",
      reason: "unversioned, so the dialog follows the API version the app is pinned to in Meta's dashboard; Auth.js pins v19.0, which Meta retires",
    },
  },
  notion: {
    userinfo: {
      gatehouse: "https://api.notion.com/v1/users/me",
      reason: "the URL the request hook calls; Auth.js names /v1/users and its hook calls /v1/users/me, the same request",
    },
  },
  todoist: {
    userinfo: {
      gatehouse: "https://api.todoist.com/api/v1/sync",
      reason: "Todoist retired Sync API v9, which Auth.js's request hook calls without naming it as the endpoint; Gatehouse's hook calls API v1's sync, named so that it can be overridden",
    },
  },
  wechat: {
    authorization: {
      gatehouse: "https://open.weixin.qq.com/connect/oauth2/authorize?appid=id&scope=snsapi_userinfo#wechat_redirect",
      reason: "WeChat's documentation requires the #wechat_redirect fragment on its authorization pages",
    },
  },
}

const authjsDirectory = fileURLToPath(new URL("../../../../node_modules/@auth/core/providers/", import.meta.url))
const gatehouseDirectory = fileURLToPath(new URL("../../src/providers/", import.meta.url))

const authjsModules = readdirSync(authjsDirectory)
  .filter((file) => file.endsWith(".js"))
  .map((file) => file.slice(0, -".js".length))
  .filter((name) => !TYPE_MODULES.has(name))
  .sort()

type Factory = (options?: Record<string, unknown>) => Record<string, unknown>

async function factoryOf(path: string): Promise<Factory> {
  const module = (await import(/* @vite-ignore */ pathToFileURL(path).href)) as { default?: unknown }
  if (typeof module.default !== "function") throw new Error(`${path} has no default export to call`)
  return module.default as Factory
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false
  const prototype: unknown = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

/** Auth.js's merge of a provider's defaults and its `options`: plain objects key by key, the rest replaced. */
function merged(base: Record<string, unknown>, override: Record<string, unknown>): Record<string, unknown> {
  const result = { ...base }
  for (const [key, value] of Object.entries(override)) {
    const current = result[key]
    result[key] = isPlainObject(current) && isPlainObject(value) ? merged(current, value) : value
  }
  return result
}

/** The provider Auth.js ends up with: the factory's defaults with its `options` merged in. */
function authjsProvider(factory: Factory, options: Record<string, unknown>): Record<string, unknown> {
  const { options: own, ...defaults } = factory(structuredClone(options))
  return isPlainObject(own) ? merged(defaults, own) : defaults
}

const DISCOVERED = "(from discovery)"
const REQUEST_HOOK_ONLY = "(request hook, no URL)"
const DEFAULT_SCOPE = "openid profile email"

/** An endpoint as one comparable string; `undefined` when the provider has none. */
function endpoint(value: unknown, defaultScope = false): string | undefined {
  if (value === undefined || value === null) {
    if (!defaultScope) return undefined
    value = {}
  }
  const config = typeof value === "string" ? { url: value } : isPlainObject(value) ? value : { url: String(value) }
  const query = new Map<string, string>()
  let base = DISCOVERED
  let fragment = ""
  if (config.url !== undefined) {
    const raw = String(config.url)
    let url: URL
    try {
      url = new URL(raw)
    } catch {
      return `(invalid URL ${raw})`
    }
    if (raw.includes("undefined")) return `(invalid URL ${raw})`
    if (url.host !== "authjs.dev") {
      base = `${url.origin}${url.pathname}`
      fragment = url.hash
      for (const [key, item] of url.searchParams) query.set(key, item)
    }
  } else if (!isPlainObject(config.params) && typeof config.request === "function") {
    return REQUEST_HOOK_ONLY
  }
  if (isPlainObject(config.params)) {
    for (const [key, item] of Object.entries(config.params)) {
      if (item === undefined || item === null) continue
      query.set(key, typeof item === "object" ? JSON.stringify(item) : String(item))
    }
  }
  if (defaultScope) {
    if (!query.has("scope")) query.set("scope", DEFAULT_SCOPE)
    // Every authorization request carries these whether a provider names them or not.
    if (query.get("response_type") === "code") query.delete("response_type")
    if (query.get("client_id") === NEUTRAL.clientId) query.delete("client_id")
  }
  const search = new URLSearchParams([...query].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))).toString()
  return `${base}${search ? `?${search}` : ""}${fragment}`
}

/** What is compared of a provider. */
function comparable(provider: Record<string, unknown>): Record<Field, string | undefined> {
  const oauth = provider.type === "oauth" || provider.type === "oidc"
  return {
    id: String(provider.id),
    type: String(provider.type),
    issuer: typeof provider.issuer === "string" ? provider.issuer : undefined,
    authorization: oauth ? endpoint(provider.authorization, true) : undefined,
    token: oauth ? endpoint(provider.token) : undefined,
    userinfo: oauth ? endpoint(provider.userinfo) : undefined,
  }
}

/** Whether Auth.js's provider has no usable defaults with these options (URLs built from a missing option). */
function lacksDefaults(description: Record<Field, string | undefined>): boolean {
  return Object.values(description).some((value) => value?.startsWith("(invalid URL") === true)
}

/** The options the comparison is made with, and Auth.js's provider under them. */
function authjsUnderTest(name: string, factory: Factory): { options: Record<string, unknown>; provider: Record<string, unknown> } {
  try {
    const provider = authjsProvider(factory, NEUTRAL)
    if (!lacksDefaults(comparable(provider))) return { options: NEUTRAL, provider }
  } catch {
    // Auth.js's factory needs more than credentials; retried below with what it needs.
  }
  const options = { ...NEUTRAL, issuer: ISSUER, ...NEEDED_OPTIONS[name] }
  return { options, provider: authjsProvider(factory, options) }
}

describe("the catalogue against Auth.js's (@auth/core providers)", () => {
  it("finds Auth.js's provider modules", () => {
    expect(authjsModules.length).toBeGreaterThan(90)
    expect(authjsModules).toContain("github")
  })

  it("has Auth.js's type modules at the same subpaths (gatehouse-auth/providers/oauth, /provider-types)", () => {
    for (const name of ["oauth", "provider-types"]) {
      expect(existsSync(`${authjsDirectory}${name}.d.ts`)).toBe(true)
      expect(existsSync(`${gatehouseDirectory}${name}.ts`), `src/providers/${name}.ts is missing`).toBe(true)
    }
  })

  it("lists deliberate differences only for providers Auth.js has", () => {
    expect(Object.keys(DELIBERATE).filter((name) => !authjsModules.includes(name))).toEqual([])
  })

  describe.each(authjsModules)("%s", (name) => {
    it("exists at gatehouse-auth/providers/" + name + " with Auth.js's id, type, issuer and default endpoints", async () => {
      const path = `${gatehouseDirectory}${name}.ts`
      expect(existsSync(path), `src/providers/${name}.ts is missing`).toBe(true)
      const { options, provider } = authjsUnderTest(name, await factoryOf(`${authjsDirectory}${name}.js`))
      const gatehouse = comparable((await factoryOf(path))(structuredClone(options)))
      const authjs = comparable(provider)
      const deliberate = DELIBERATE[name] ?? {}
      for (const [field, difference] of Object.entries(deliberate)) {
        const key = field as Field
        expect(gatehouse[key], `${name}.${key}: ${difference.reason}`).toBe(difference.gatehouse)
        expect(authjs[key], `${name}.${key} is listed as deliberately different, but Auth.js agrees now`).not.toBe(difference.gatehouse)
        delete gatehouse[key]
        delete authjs[key]
      }
      expect(gatehouse).toEqual(authjs)
    })
  })
})

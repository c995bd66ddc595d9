import { describe, expect, it } from "vitest"
import { readdirSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import type { EndpointConfig, OAuthConfig } from "../../src/types.js"

/** Files in src/providers that are not provider factories. */
const NOT_PROVIDERS = new Set(["types.ts", "credentials.ts", "oauth-user-config.ts", "oauth.ts", "provider-types.ts"])

/** The catalogue this suite guarantees; more may be added, none may go missing. */
const REQUIRED = [
  "apple", "atlassian", "auth0", "authentik", "bitbucket", "cognito", "discord", "dropbox", "facebook",
  "github", "gitlab", "google", "keycloak", "linkedin", "microsoft-entra-id", "notion", "okta", "reddit",
  "slack", "spotify", "strava", "twitch", "twitter", "zitadel", "zoom",
  "42-school", "asgardeo", "azure-ad", "azure-ad-b2c", "azure-devops", "bankid-no", "battlenet", "beyondidentity",
  "box", "boxyhq-saml", "bungie", "click-up", "coinbase", "concept2", "descope", "dribbble", "duende-identity-server6",
  "eventbrite", "eveonline", "faceit", "figma", "foursquare", "freshbooks",
  // Auth.js's providers frontegg..osu (issue 35)
  "frontegg", "fusionauth", "hubspot", "huggingface", "identity-server4", "instagram", "kakao", "kinde", "line", "logto",
  "mailchimp", "mailru", "mastodon", "mattermost", "medium", "naver", "netlify", "netsuite", "nextcloud", "onelogin",
  "ory-hydra", "osso", "osu",
  // passage..zoho
  "passage", "patreon", "ping-id", "pinterest", "pipedrive", "roblox", "salesforce", "simplelogin", "threads", "tiktok",
  "todoist", "trakt", "united-effects", "vipps", "vk", "webex", "wechat", "wikimedia", "wordpress", "workos", "yandex", "zoho",
]

/** Options a provider cannot do without, beyond {@link OPTIONS}: the endpoints are built from them. */
const REQUIRED_OPTIONS: Record<string, Record<string, unknown>> = {
  netsuite: { accountID: "1234567", userinfo: "https://1234567.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=1&deploy=1" },
}

const OPTIONS = { clientId: "id", clientSecret: "secret", issuer: "https://issuer.test" }

/** Providers whose id is not their file name, as in Auth.js (whose ids accounts are stored under). */
const ID_OF_FILE: Record<string, string> = { "ory-hydra": "hydra" }

type Factory = (options?: Record<string, unknown>) => OAuthConfig

interface Entry {
  /** The file name. */
  id: string
  module: Record<string, unknown>
  /** The default export, called with the provider's {@link REQUIRED_OPTIONS} added to the options. */
  factory: Factory
  /** The default export itself. */
  bare: Factory
}

const directory = fileURLToPath(new URL("../../src/providers/", import.meta.url))
const files = readdirSync(directory).filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts") && !NOT_PROVIDERS.has(file))

/** Every module whose default export is a factory of OAuth or OIDC providers (others, e.g. email, are skipped). */
const catalogue: Entry[] = []
for (const file of files) {
  const id = file.slice(0, -".ts".length)
  const module = (await import(/* @vite-ignore */ pathToFileURL(join(directory, file)).href)) as Record<string, unknown>
  const bare = module.default
  if (typeof bare !== "function") continue
  const required = REQUIRED_OPTIONS[id]
  // The factory as the suite calls it: with the options this provider cannot do without.
  const factory: Factory = (options) => (bare as Factory)(required ? { ...required, ...options } : options)
  let type: unknown
  try {
    type = factory(OPTIONS).type
  } catch {
    continue // A non-OAuth factory may insist on options of its own.
  }
  if (type === "oauth" || type === "oidc") catalogue.push({ id, module, factory, bare: bare as Factory })
}

function isAbsoluteHttps(value: unknown): boolean {
  if (typeof value !== "string") return false
  try {
    return new URL(value).protocol === "https:"
  } catch {
    return false
  }
}

function urlOf(endpoint: EndpointConfig | undefined): unknown {
  return typeof endpoint === "object" ? endpoint.url : endpoint
}

/** Paths to values JSON would lose or mangle (anything but plain data and functions). */
function nonJsonValues(value: unknown, path = "config"): string[] {
  if (value === null || ["string", "boolean", "undefined", "function"].includes(typeof value)) return []
  if (typeof value === "number") return Number.isFinite(value) ? [] : [path]
  if (Array.isArray(value)) return value.flatMap((item, index) => nonJsonValues(item, `${path}[${index}]`))
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.entries(value).flatMap(([key, item]) => nonJsonValues(item, `${path}.${key}`))
  }
  return [path]
}

describe("provider catalogue", () => {
  it("has at least 25 OAuth/OIDC providers, including every required one", () => {
    expect(catalogue.length).toBeGreaterThanOrEqual(25)
    expect(catalogue.map((entry) => entry.id)).toEqual(expect.arrayContaining(REQUIRED))
  })

  describe.each(catalogue)("$id", ({ id, module, factory, bare }) => {
    const config = factory(OPTIONS)

    it("exports the factory both by name (PascalCase, and Auth.js's name where that differs) and as default", () => {
      const named = Object.entries(module).filter(([name, value]) => name !== "default" && value === bare)
      expect(named.length).toBeGreaterThanOrEqual(1)
      for (const [name] of named) expect(name).toMatch(/^[A-Z][A-Za-z0-9]*$/)
    })

    it("is named after its file and has a display name", () => {
      expect(config.id).toBe(ID_OF_FILE[id] ?? id)
      expect(typeof config.name).toBe("string")
      expect(config.name.trim()).not.toBe("")
      expect(["oauth", "oidc"]).toContain(config.type)
    })

    it("says where to send the user: an issuer, or all three endpoints as absolute https URLs", () => {
      if (config.type === "oidc") {
        expect(isAbsoluteHttps(config.issuer)).toBe(true)
      } else {
        for (const endpoint of [config.authorization, config.token, config.userinfo]) expect(isAbsoluteHttps(urlOf(endpoint))).toBe(true)
      }
      // Endpoint URLs that are given at all are absolute https URLs, for oidc providers too.
      for (const endpoint of [config.authorization, config.token, config.userinfo]) {
        const url = urlOf(endpoint)
        if (url !== undefined) expect(isAbsoluteHttps(url)).toBe(true)
      }
    })

    it("maps profiles and passes the credentials through", () => {
      expect(typeof config.profile).toBe("function")
      expect(config.clientId).toBe("id")
      expect(config.clientSecret).toBe("secret")
    })

    it("has brand colours and no third-party logo URL", () => {
      expect(config.style?.bg).toMatch(/^#[0-9a-f]{3,6}$/i)
      expect(config.style?.text).toMatch(/^#[0-9a-f]{3,6}$/i)
      expect(config.style?.logo ?? "").not.toMatch(/^(https?:)?\/\//i)
    })

    it("lets user options win over the defaults", () => {
      const custom = factory({ ...OPTIONS, name: "Custom", style: { bg: "#123456" }, checks: ["state"] })
      expect(custom.name).toBe("Custom")
      expect(custom.style?.bg).toBe("#123456")
      expect(custom.style?.text).toBe(config.style?.text)
      expect(custom.checks).toEqual(["state"])
      expect(factory({ ...OPTIONS, id: "other" }).id).toBe("other")
    })

    it("keeps its defaults against options left undefined, as the environment passes them", () => {
      const bare = factory()
      const fromEnv = factory({ clientId: undefined, clientSecret: undefined, issuer: undefined, apiKey: undefined, id: undefined, type: undefined })
      expect(fromEnv.id).toBe(ID_OF_FILE[id] ?? id)
      expect(fromEnv.type).toBe(config.type)
      expect(fromEnv.issuer).toBe(bare.issuer)
      expect(fromEnv.authorization).toEqual(bare.authorization)
      expect(Object.entries(fromEnv).filter(([, value]) => value === undefined)).toEqual([])
    })

    it("is plain data apart from its hooks", () => {
      expect(nonJsonValues(config)).toEqual([])
      expect(() => JSON.parse(JSON.stringify(config))).not.toThrow()
    })

    it("returns a fresh object each call, and does not mutate the options", () => {
      const options = { ...OPTIONS, authorization: { params: { prompt: "login" } } }
      const snapshot = structuredClone(options)
      const first = factory(options)
      expect(options).toEqual(snapshot)
      expect(factory(options)).not.toBe(first)
    })
  })
})

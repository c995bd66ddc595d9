/**
 * The providers added from Auth.js's catalogue, each compared with `@auth/core`'s module of the
 * same file name: id, name, type, issuer, endpoints (URL and parameters), checks, client
 * authentication, `idToken` and brand colours. Where Gatehouse differs on purpose, the
 * difference is listed in DEVIATIONS with its reason, and the test checks that it still is a
 * difference, so the list cannot go stale. A provider joins the comparison by its file name in
 * COMPARED.
 */
import { readdirSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { describe, expect, it } from "vitest"

/** What is compared. */
type Field = "id" | "name" | "type" | "issuer" | "authorization" | "token" | "userinfo" | "checks" | "clientAuth" | "idToken" | "style"

/** Differences from Auth.js, by provider id and field, each with its reason. */
const DEVIATIONS: Record<string, Partial<Record<Field, string>>> = {
  "azure-ad": {
    authorization: "inherited from microsoft-entra-id, which does not ask for Microsoft Graph's User.Read (Auth.js does, for the profile photo)",
  },
  "azure-devops": {
    token: "Auth.js names …/oauth2/authorize as the token endpoint; Azure DevOps redeems codes at …/oauth2/token",
    checks: "Azure DevOps does not do PKCE, and the assertion grant it takes has no code_verifier; state protects the sign-in",
    clientAuth: "the secret goes in the form, where the provider's fetch turns it into the client_assertion Azure DevOps wants",
  },
  battlenet: {
    issuer: "Auth.js's type requires the issuer option and has no default; Gatehouse falls back to the global https://oauth.battle.net",
    checks: "Battle.net refuses requests without state and puts a nonce in its ID tokens; Auth.js turns PKCE into a nonce at run time when discovery lists no code_challenge_methods_supported",
  },
  bungie: {
    userinfo: "Auth.js's URL keeps a literal {membershipId}; GetMembershipsForCurrentUser answers for the token's user, in the same Response.bungieNetUser shape",
  },
  "click-up": {
    clientAuth: "ClickUp reads client_id and client_secret from the request's parameters, not from HTTP Basic",
  },
  dribbble: {
    authorization: "Auth.js sends scope=undefined when no scope option is given; Dribbble's default, public, is sent instead",
  },
  foursquare: {
    clientAuth: "Foursquare reads client_id and client_secret from the request's parameters, not from HTTP Basic",
  },
}

/** The providers compared, by file name. */
const COMPARED = [
  "42-school", "asgardeo", "azure-ad", "azure-ad-b2c", "azure-devops", "bankid-no", "battlenet", "beyondidentity", "box", "boxyhq-saml",
  "bungie", "click-up", "coinbase", "concept2", "descope", "dribbble", "duende-identity-server6", "eventbrite", "eveonline", "faceit",
  "figma", "foursquare", "freshbooks",
]

const OPTIONS = { clientId: "client-id", clientSecret: "client-secret", issuer: "https://issuer.test" }
const CASES = [
  ["with an issuer given", OPTIONS],
  ["without one", { clientId: OPTIONS.clientId, clientSecret: OPTIONS.clientSecret }],
] as const

const source = fileURLToPath(new URL("../../src/providers/", import.meta.url))
const authjs = join(dirname(createRequire(import.meta.url).resolve("@auth/core/providers/github")), "/")

type Config = Record<string, unknown>
type Factory = (options: Config) => Config

interface Pair {
  id: string
  ours: Factory
  theirs: Factory
}

const present = new Set(readdirSync(source))
const pairs: Pair[] = []
for (const id of COMPARED.filter((name) => present.has(`${name}.ts`))) {
  const theirs = ((await import(/* @vite-ignore */ pathToFileURL(join(authjs, `${id}.js`)).href)) as { default: Factory }).default
  const ours = ((await import(/* @vite-ignore */ pathToFileURL(join(source, `${id}.ts`)).href)) as { default: Factory }).default
  pairs.push({ id, ours, theirs })
}

/** Auth.js's provider as its `parseProviders` sees it: the module's defaults under the user's options. */
function authjsConfig(factory: Factory, options: Config): Config {
  const { options: userOptions, ...defaults } = factory({ ...options })
  return { ...defaults, ...(userOptions as Config | undefined) }
}

/**
 * An endpoint as the URL it names and every parameter it adds, the way both libraries put them
 * on the wire. No endpoint, or a URL that does not parse (Auth.js builds `undefined/api/…` from a
 * missing issuer), names no URL.
 */
function endpoint(value: unknown): unknown {
  const { url, params } = typeof value === "string" ? { url: value, params: undefined } : ((value ?? {}) as { url?: unknown; params?: Record<string, unknown> })
  const parsed = typeof url === "string" || url instanceof URL ? URL.parse(String(url)) ?? undefined : undefined
  const all: Record<string, string> = parsed ? Object.fromEntries(parsed.searchParams) : {}
  for (const [key, param] of Object.entries(params ?? {})) {
    if (param === undefined || param === null) continue
    all[key] = typeof param === "object" ? JSON.stringify(param) : String(param)
  }
  return { url: parsed ? parsed.origin + parsed.pathname : undefined, params: all }
}

function brand(style: unknown): { bg?: string; text?: string } {
  const { bg, brandColor, text } = (style ?? {}) as { bg?: string; brandColor?: string; text?: string }
  return { bg: (bg ?? brandColor)?.toLowerCase(), text: text?.toLowerCase() }
}

/** The compared view of a provider configuration. */
function view(config: Config): Record<Field, unknown> {
  const client = config.client as { token_endpoint_auth_method?: string } | undefined
  return {
    id: config.id,
    name: config.name,
    type: config.type,
    issuer: typeof config.issuer === "string" ? config.issuer.replace(/\/+$/, "") : config.issuer,
    authorization: endpoint(config.authorization),
    token: endpoint(config.token),
    userinfo: endpoint(config.userinfo),
    checks: config.checks ?? ["pkce"],
    clientAuth: client?.token_endpoint_auth_method ?? "client_secret_basic",
    idToken: config.idToken ?? true,
    style: brand(config.style),
  }
}

describe("providers added from Auth.js's catalogue, against Auth.js's modules", () => {
  it("exist for every file name compared", () => {
    expect(pairs.map((pair) => pair.id)).toEqual(COMPARED)
  })

  it("list only deviations of providers that exist, each with a reason", () => {
    for (const [id, fields] of Object.entries(DEVIATIONS)) {
      expect(pairs.map((pair) => pair.id), id).toContain(id)
      for (const reason of Object.values(fields)) expect(reason.length, id).toBeGreaterThan(20)
    }
  })

  describe.each(pairs)("$id", ({ id, ours, theirs }) => {
    const deviations = DEVIATIONS[id] ?? {}

    it.each(CASES)("has Auth.js's defaults %s, apart from the deviations listed", (_case, options) => {
      const gatehouse = view(ours({ ...options }))
      const reference = view(authjsConfig(theirs, options))
      for (const field of Object.keys(gatehouse) as Field[]) {
        if (deviations[field] || field === "style") continue
        expect(gatehouse[field], `${id}.${field}`).toEqual(reference[field])
      }
      // Brand colours Auth.js has are kept; where it has none, Gatehouse's catalogue needs its own.
      const [ours_, theirs_] = [brand(gatehouse.style), brand(reference.style)]
      if (theirs_.bg) expect(ours_.bg, `${id}.style.bg`).toBe(theirs_.bg)
      if (theirs_.text) expect(ours_.text, `${id}.style.text`).toBe(theirs_.text)
    })

    it.each(Object.keys(deviations))("still differs in %s, as listed", (field) => {
      const differs = CASES.some(([, options]) => {
        const gatehouse = view(ours({ ...options }))[field as Field]
        const reference = view(authjsConfig(theirs, options))[field as Field]
        return JSON.stringify(gatehouse) !== JSON.stringify(reference)
      })
      expect(differs).toBe(true)
    })
  })
})

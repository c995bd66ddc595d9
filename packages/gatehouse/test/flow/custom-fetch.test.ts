/**
 * Auth.js's `[customFetch]` provider option: every request to the provider goes through the
 * function it names, as with Gatehouse's own `fetch` option, whether the provider is a plain
 * object or built by a factory (`GitHub({ [customFetch]: … })`), so a switched app's proxy or
 * test double keeps working.
 */
import { readdirSync } from "node:fs"
import { fileURLToPath, pathToFileURL } from "node:url"
import { describe, expect, it } from "vitest"
import { customFetch } from "../../src/index.js"
import { resolveConfig } from "../../src/core/config.js"
import GitHub from "../../src/providers/github.js"
import type { AuthConfig, OAuthConfig } from "../../src/types.js"
import { Client, secret } from "./flow-helpers.js"

/** A fetch answering a provider's token and user endpoints, remembering each URL it was asked for. */
function providerFetch() {
  const asked: string[] = []
  const fetch: typeof globalThis.fetch = async (input) => {
    const url = String(input instanceof Request ? input.url : input)
    asked.push(url)
    if (url === "https://hub.test/token") return Response.json({ access_token: "at", token_type: "Bearer" })
    if (url === "https://hub.test/user") return Response.json({ id: "7", name: "Ada", email: "ada@example.com" })
    return new Response("not found", { status: 404 })
  }
  return { fetch, asked }
}

describe("the [customFetch] provider option", () => {
  it("carries every request of a sign-in with a provider object that names it", async () => {
    const { fetch, asked } = providerFetch()
    const provider = {
      id: "hub",
      name: "Hub",
      type: "oauth",
      clientId: "client",
      clientSecret: "secret",
      authorization: "https://hub.test/authorize",
      token: "https://hub.test/token",
      userinfo: "https://hub.test/user",
      [customFetch]: fetch,
    } satisfies OAuthConfig
    const client = new Client({ secret, trustHost: true, providers: [provider] } as AuthConfig)
    const started = await client.postForm("signin/hub", { csrfToken: await client.csrfToken(), callbackUrl: "/" })
    const state = new URL(started.headers.get("location")!).searchParams.get("state")!
    const back = await client.get(`callback/hub?${new URLSearchParams({ code: "c", state })}`)
    expect(back.status).toBe(302)
    expect(asked).toEqual(["https://hub.test/token", "https://hub.test/user"])
    expect(await client.session()).toMatchObject({ user: { name: "Ada", email: "ada@example.com" } })
  })

  it("survives a provider factory's merge of its options, and yields to an explicit fetch", () => {
    const { fetch } = providerFetch()
    const other = providerFetch().fetch
    const [fromFactory, both] = resolveConfig({
      providers: [GitHub({ clientId: "c", clientSecret: "s", [customFetch]: fetch }), { ...GitHub({ clientId: "c", clientSecret: "s" }), id: "gh2", fetch: other, [customFetch]: fetch }],
    }).providers as OAuthConfig[]
    expect(fromFactory!.fetch).toBe(fetch)
    expect(both!.fetch).toBe(other)
  })
})

/** Every OAuth/OIDC factory of the catalogue, by file name. */
const directory = fileURLToPath(new URL("../../src/providers/", import.meta.url))
const factories: [string, (options: Record<string | symbol, unknown>) => OAuthConfig][] = []
for (const file of readdirSync(directory).filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts"))) {
  const factory = ((await import(/* @vite-ignore */ pathToFileURL(`${directory}${file}`).href)) as { default?: unknown }).default
  if (typeof factory !== "function") continue
  let built: { type?: unknown }
  try {
    built = (factory as (options: object) => { type?: unknown })({ clientId: "c", clientSecret: "s", issuer: "https://issuer.test", accountID: "1234567" })
  } catch {
    continue
  }
  if (built.type === "oauth" || built.type === "oidc") factories.push([file.slice(0, -3), factory as (options: Record<string | symbol, unknown>) => OAuthConfig])
}

describe("[customFetch] through every provider factory of the catalogue", () => {
  it("finds the catalogue", () => {
    expect(factories.length).toBeGreaterThan(90)
  })

  it.each(factories)("%s: every request goes through the app's fetch, also where the factory wraps it", async (_file, factory) => {
    const asked: string[] = []
    const appFetch: typeof fetch = async (input) => (asked.push(String(input instanceof Request ? input.url : input)), new Response("{}"))
    const options = { clientId: "c", clientSecret: "s", issuer: "https://issuer.test", accountID: "1234567", [customFetch]: appFetch }
    const [provider] = resolveConfig({ providers: [factory(options)] }).providers as OAuthConfig[]
    await provider!.fetch!("https://provider.test/anything", { method: "POST", body: new URLSearchParams({ grant_type: "authorization_code", code: "x" }) })
    expect(asked.length).toBeGreaterThan(0)
  })
})

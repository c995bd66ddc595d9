/**
 * What the organization tests share: a store of each kind (memory, SQLite, PostgreSQL) opened for
 * a `describe`, users made on demand, and a signed-in request for any of them (a credentials
 * sign-in through the real routes, the session cookie kept).
 */
import { afterAll, beforeAll } from "vitest"
import type { AdapterUser, OrganizationStore, StoredAdapter as FullAdapter } from "../../src/adapters/index.js"
import { Credentials } from "../../src/providers/credentials.js"
import type { AuthConfig, OrganizationsOptions, SessionStrategy } from "../../src/types.js"
import { Client, credentialsConfig } from "../flow/flow-helpers.js"
import type { OpenStore, StoredAdapter } from "../flow/stored-adapters.js"

export { storedAdapters } from "../flow/stored-adapters.js"

export type OrganizationAdapter = FullAdapter & OrganizationStore

/** Opens `store` for the enclosing `describe`; the adapter is read inside tests. */
export function openedStore(store: StoredAdapter): () => OrganizationAdapter {
  let opened: OpenStore
  beforeAll(async () => {
    opened = await store.open()
  })
  afterAll(() => opened.close())
  return () => opened.adapter as unknown as OrganizationAdapter
}

/** A fresh user named `name`, with a unique address. */
export function newUser(adapter: OrganizationAdapter, name = "Ada"): Promise<AdapterUser> {
  return adapter.createUser({ name, email: `${name.toLowerCase()}-${crypto.randomUUID()}@app.test`, emailVerified: null })
}

/** A configuration whose credentials provider signs in as the user whose id is typed as the username. */
export function organizationConfig(adapter: OrganizationAdapter, organizations: OrganizationsOptions = {}, extra: Partial<AuthConfig> = {}, strategy: SessionStrategy = "database"): AuthConfig & { raw?: undefined } {
  return credentialsConfig({
    adapter,
    session: { strategy },
    organizations,
    providers: [
      Credentials({
        credentials: { username: {} },
        authorize: async ({ username }) => {
          const user = await adapter.getUser(String(username))
          return user ? { id: user.id, email: user.email } : null
        },
        rateLimit: false,
      }),
    ],
    ...extra,
  })
}

/** A browser signed in as `user` under `config`. */
export async function signedInClient(config: AuthConfig, user: AdapterUser): Promise<Client> {
  const client = new Client(config)
  const response = await client.postForm("callback/credentials", { csrfToken: await client.csrfToken(), username: user.id })
  if (response.status !== 302 || !client.jar.header().includes("session-token")) throw new Error(`Sign-in as ${user.id} failed: ${response.status}`)
  return client
}

/** A request of an app page carrying `client`'s cookies: what a server function is given. */
export function pageRequest(client: Client): Request {
  return new Request("https://app.test/dashboard", { headers: { cookie: client.jar.header(), "user-agent": "Organization tests" } })
}

/** A signed-in request for `user`. */
export async function requestAs(config: AuthConfig, user: AdapterUser): Promise<Request> {
  return pageRequest(await signedInClient(config, user))
}

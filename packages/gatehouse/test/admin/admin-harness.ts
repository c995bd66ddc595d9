/**
 * What the admin tests share: the three stores (memory, SQLite, PostgreSQL in a schema of the
 * file's own), a configuration signing people in by email and password through the store, and
 * browsers signed in as those people.
 */
import { randomUUID } from "node:crypto"
import Database from "better-sqlite3"
import { afterAll, beforeAll } from "vitest"
import type { OrganizationStore, StoredAdapter, UserStatusStore, AdapterUser } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { migrate, PostgresAdapter } from "../../src/adapters/postgres.js"
import { SQLiteAdapter } from "../../src/adapters/sqlite.js"
import { Credentials } from "../../src/providers/credentials.js"
import type { AuthConfig } from "../../src/types.js"
import { Client, recordingLogger, secret } from "../flow/flow-helpers.js"
import { testSchema } from "../support/postgres.js"

/** What Gatehouse's own adapters all are. */
export type AdminStore = StoredAdapter & OrganizationStore & UserStatusStore

export const PASSWORD = "correct horse battery"

export interface StoreKind {
  name: string
  /** Registers the store's setup and teardown with the calling describe; the adapter is read inside tests. */
  use(): () => AdminStore
}

export const STORE_KINDS: readonly StoreKind[] = [
  {
    name: "memory",
    use() {
      const adapter = MemoryAdapter()
      return () => adapter
    },
  },
  {
    name: "SQLite",
    use() {
      const db = new Database(":memory:")
      const adapter = SQLiteAdapter(db)
      afterAll(() => void db.close())
      return () => adapter
    },
  },
  {
    name: "PostgreSQL",
    use() {
      const schema = testSchema()
      const pool = schema.pool()
      const adapter = PostgresAdapter(pool)
      beforeAll(async () => {
        await schema.create()
        await migrate(pool)
      })
      afterAll(() => schema.drop())
      return () => adapter
    },
  },
]

/**
 * A configuration over `adapter` with the admin API on (its routes too): people sign in with their
 * email and {@link PASSWORD}; `extra.admin` is merged into `{ routes: true }`.
 */
export function adminConfig(adapter: AdminStore, extra: Partial<AuthConfig> = {}): AuthConfig & { raw?: undefined } {
  const { admin, ...rest } = extra
  return {
    secret,
    trustHost: true,
    logger: recordingLogger().logger,
    adapter,
    providers: [
      Credentials({
        credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
        authorize: async ({ email, password }) => (password === PASSWORD && typeof email === "string" ? adapter.getUserByEmail(email) : null),
        rateLimit: false,
      }),
    ],
    ...rest,
    admin: { routes: true, ...admin },
  } as AuthConfig & { raw?: undefined }
}

/** A new stored person, unique in any store. */
export function person(adapter: AdminStore, name = "Pat Person"): Promise<AdapterUser> {
  return adapter.createUser({ email: `person-${randomUUID()}@app.test`, name, emailVerified: null, image: null })
}

/** A stored person with the role `admin`. */
export async function roleAdmin(adapter: AdminStore): Promise<AdapterUser> {
  const admin = await person(adapter, "Ada Admin")
  await adapter.setUserRole(admin.id, "admin")
  return admin
}

/** The credentials callback's answer for `user` on a fresh browser, and that browser. */
export async function signIn(config: AuthConfig, user: AdapterUser): Promise<{ browser: Client; location: string | null }> {
  const browser = new Client(config)
  const response = await browser.signIn({ email: user.email, password: PASSWORD })
  return { browser, location: response.headers.get("location") }
}

/** A browser signed in as `user` (fails the test when the sign-in does not succeed). */
export async function signedIn(config: AuthConfig, user: AdapterUser): Promise<Client> {
  const { browser, location } = await signIn(config, user)
  if (location === null || location.includes("error=")) throw new Error(`sign-in of ${user.email} failed: ${location}`)
  return browser
}

/** A request from `browser` to one of the app's own pages, as a server function receives it. */
export function pageRequest(browser?: Client): Request {
  return new Request("https://app.test/admin", { headers: browser ? { cookie: browser.jar.header() } : {} })
}

/** The user's email from `browser`'s session, or `null` when it has none. */
export async function sessionEmail(browser: Client): Promise<string | null> {
  const session = (await browser.session()) as { user?: { email?: string } } | null
  return session?.user?.email ?? null
}

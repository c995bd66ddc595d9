/**
 * The adapters the database-session flow tests run against: each opens a fresh store and
 * closes (and removes) it afterwards.
 */
import Database from "better-sqlite3"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, beforeEach } from "vitest"
import type { Adapter, AdapterUser, StoredAdapter as FullAdapter } from "../../src/adapters/index.js"
import type { CredentialsConfig } from "../../src/providers/types.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { migrate, PostgresAdapter } from "../../src/adapters/postgres.js"
import { SQLiteAdapter } from "../../src/adapters/sqlite.js"
import { testSchema } from "../support/postgres.js"
import { ada } from "./flow-helpers.js"

export type FlowAdapter = Adapter & Required<Pick<Adapter, "createUser" | "getSessionAndUser" | "createSession" | "updateSession">>

export interface StoredAdapter {
  name: string
  open(): Promise<OpenStore>
}

export interface OpenStore {
  adapter: FlowAdapter
  close(): Promise<void>
  /** Runs a statement against the database behind the adapter (`$1`-style parameters); SQL stores only. */
  run?(sql: string, params: unknown[]): Promise<void>
}

export const storedAdapters: StoredAdapter[] = [
  { name: "memory", open: async () => ({ adapter: MemoryAdapter(), close: async () => {} }) },
  {
    name: "SQLite file",
    open: async () => {
      const dir = mkdtempSync(join(tmpdir(), "gatehouse-flow-"))
      const db = new Database(join(dir, "auth.db"))
      return {
        adapter: SQLiteAdapter(db),
        run: async (sql, params) => {
          // Parameters are positional: each `$n` appears once, in order.
          db.prepare(sql.replace(/\$\d+/g, "?")).run(...params)
        },
        close: async () => {
          db.close()
          rmSync(dir, { recursive: true, force: true })
        },
      }
    },
  },
  {
    name: "PostgreSQL",
    open: async () => {
      const schema = testSchema()
      await schema.create()
      const pool = schema.pool({ max: 4 })
      await migrate(pool)
      return {
        adapter: PostgresAdapter(pool),
        run: async (sql, params) => {
          await pool.query(sql, params)
        },
        close: () => schema.drop(),
      }
    },
  },
]

/**
 * Opens `store` for the enclosing `describe` (closed after it) and stores a fresh user before each
 * test, so tests never see each other's rows; `use` receives both before every test.
 */
export function withStoredUser(store: StoredAdapter, use: (opened: { adapter: FlowAdapter; user: AdapterUser }) => void): void {
  let opened: OpenStore
  beforeAll(async () => {
    opened = await store.open()
  })
  afterAll(() => opened.close())
  beforeEach(async () => {
    const user = await opened.adapter.createUser({ ...ada, id: crypto.randomUUID(), email: `${crypto.randomUUID()}@app.test`, emailVerified: null })
    use({ adapter: opened.adapter, user })
  })
}

/** The two users of {@link withStoredUsers}, and the store they are in. */
export interface TwoUsers {
  adapter: FullAdapter
  /** Signs in with the username `user`. */
  user: AdapterUser
  /** Signs in with any other username: whose sessions a test must leave alone. */
  other: AdapterUser
}

/**
 * Opens `store` for the enclosing `describe` (closed after it) and stores two fresh users before
 * each test; `users()` gives the current two. With {@link twoUserCredentials}, browsers sign in as either.
 */
export function withStoredUsers(store: StoredAdapter): () => TwoUsers {
  let opened: OpenStore
  let current: TwoUsers
  beforeAll(async () => {
    opened = await store.open()
  })
  afterAll(() => opened.close())
  beforeEach(async () => {
    const adapter = opened.adapter as FullAdapter
    const fresh = () => ({ ...ada, id: crypto.randomUUID(), email: `${crypto.randomUUID()}@app.test`, emailVerified: null })
    current = { adapter, user: await adapter.createUser(fresh()), other: await adapter.createUser(fresh()) }
  })
  return () => current
}

/**
 * A credentials provider that signs in as `users().user` (username `user`) or `users().other`,
 * never throttled: the same users sign in over and over, and the adapter would count them.
 */
export function twoUserCredentials(users: () => TwoUsers): CredentialsConfig {
  return {
    id: "credentials",
    name: "Credentials",
    type: "credentials",
    credentials: {},
    authorize: ({ username }) => {
      const { user, other } = users()
      return username === "user" ? { id: user.id, email: user.email } : { id: other.id, email: other.email }
    },
    rateLimit: false,
  }
}

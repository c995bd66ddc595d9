/**
 * The upgrade promise of STABILITY.md, kept: a database and session cookies made by the previous
 * release (fixtures/<version>, made by make-fixtures.ts from a build of that release), then the
 * current code migrates the database through its public API and signs everyone in, with nobody
 * signed out, no user or link made twice, two-factor still asked, and no row lost.
 *
 * SQLite: the fixture file copied to a temp dir and opened with `SQLiteAdapter` (which migrates on
 * open). PostgreSQL: the fixture dump loaded into a fresh schema on the run's server, then
 * `migrate(pool)`.
 */
import Database from "better-sqlite3"
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Adapter } from "../../src/adapters/index.js"
import { migrate, PostgresAdapter, readPostgresSchema, type SchemaState } from "../../src/adapters/postgres.js"
import { readSQLiteSchema, SQLiteAdapter } from "../../src/adapters/sqlite.js"
import { Auth } from "../../src/core/handler.js"
import { Browser } from "../support/browser.js"
import { startGitHubLikeServer, type GitHubLikeServer } from "../support/github-like-server.js"
import { adminQuery, randomSchemaName, schemaPoolConfig, postgresUrl } from "../support/postgres.js"
import { totpNow } from "../support/totp-reference.js"
import {
  CAROL_TOTP_KEY_HEX,
  comparableSession,
  countedTables,
  DASHBOARD,
  DUMPED_SCHEMA,
  GITHUB_USERS,
  ORIGIN,
  PENDING_VERIFICATION,
  SESSION_COOKIE,
  upgradeConfig,
  type FixtureManifest,
  type Person,
  type StoreFixture,
} from "./upgrade-app.js"

/**
 * Every release's fixtures (fixtures/<version>/), oldest first: an upgrade from any earlier
 * release of the major must sign everyone in. A release adds its own (STABILITY.md, "Releasing").
 */
const RELEASES = readdirSync(new URL("./fixtures/", import.meta.url)).sort((a, b) => a.localeCompare(b, "en", { numeric: true }))
/** Counters of the sign-in limiter: they expire by design, so they are not data to keep. */
const TRANSIENT_TABLES = new Set(["rate_limits"])

/** A database of the previous release, opened by the current code. */
interface UpgradedStore {
  adapter: Adapter
  rowCounts(): Promise<Record<string, number>>
  /** What the database has of the schema, read through the adapter module's public reader. */
  schema(): Promise<SchemaState>
  close(): Promise<void>
}

const stores: { name: "sqlite" | "postgres"; open(fixtures: URL): Promise<UpgradedStore> }[] = [
  {
    name: "sqlite",
    async open(fixtures) {
      const dir = mkdtempSync(join(tmpdir(), "gatehouse-upgrade-"))
      const file = join(dir, "auth.db")
      copyFileSync(new URL("sqlite.db", fixtures), file)
      const db = new Database(file)
      const adapter = SQLiteAdapter(db)
      const tables = () => countedTables((db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]).map((row) => row.name))
      return {
        adapter,
        rowCounts: async () => Object.fromEntries(tables().map((table) => [table, (db.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n])),
        schema: async () => readSQLiteSchema(db),
        async close() {
          db.close()
          rmSync(dir, { recursive: true, force: true })
        },
      }
    },
  },
  {
    name: "postgres",
    async open(fixtures) {
      const url = postgresUrl()
      const schema = randomSchemaName()
      const dump = readFileSync(new URL("postgres.sql", fixtures), "utf8").replaceAll(DUMPED_SCHEMA, schema)
      await adminQuery(url, dump)
      const pool = new pg.Pool(schemaPoolConfig(url, schema))
      await migrate(pool)
      return {
        adapter: PostgresAdapter(pool),
        schema: () => readPostgresSchema(pool),
        async rowCounts() {
          const { rows } = await pool.query<{ table_name: string }>(
            `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE'`,
            [schema],
          )
          const counts: Record<string, number> = {}
          for (const table of countedTables(rows.map((row) => row.table_name))) counts[table] = Number((await pool.query(`SELECT count(*) AS n FROM "${table}"`)).rows[0].n)
          return counts
        },
        async close() {
          await pool.end()
          await adminQuery(url, `DROP SCHEMA IF EXISTS ${schema} CASCADE`)
        },
      }
    },
  },
]

/** What the current session route answers for a session cookie. */
async function sessionFor(config: ReturnType<typeof upgradeConfig>, cookie: string): Promise<unknown> {
  const response = await Auth(new Request(`${ORIGIN}/auth/session`, { headers: { cookie: `${SESSION_COOKIE}=${cookie}` } }), config)
  expect(response.status).toBe(200)
  return response.json()
}

let github: GitHubLikeServer
beforeAll(async () => {
  github = await startGitHubLikeServer({ clientId: "gh-client", clientSecret: "gh-secret" })
})
afterAll(() => github?.stop())

it("has the fixtures of the previous release", () => {
  expect(RELEASES).toContain("0.1.0")
})

describe.each(RELEASES)("upgrading from %s", (release) => {
  const fixtures = new URL(`./fixtures/${release}/`, import.meta.url)
  const manifest = JSON.parse(readFileSync(new URL("fixture.json", fixtures), "utf8")) as FixtureManifest

  describe.each(stores)("a $name database of gatehouse-auth " + release + ", upgraded", ({ name, open }) => {
    const previous: StoreFixture = manifest.stores[name]
    let store: UpgradedStore
    let config: (strategy: "jwt" | "database") => ReturnType<typeof upgradeConfig>

    beforeAll(async () => {
      store = await open(fixtures)
      config = (strategy) => upgradeConfig({ adapter: store.adapter, strategy, server: github })
    })
    afterAll(() => store?.close())

    /** Signs `person` in with GitHub on the current code; the visit's end and the browser. */
    async function signIn(person: Person, secondFactor?: () => string) {
      github.user = { ...GITHUB_USERS[person] }
      const app = config("database")
      const browser = new Browser({ app: (request) => Auth(request, app), appOrigin: ORIGIN })
      const csrf = async () => ((await browser.get(`${ORIGIN}/auth/csrf`)).last.json() as { csrfToken: string }).csrfToken
      const first = await browser.post(`${ORIGIN}/auth/signin/github`, { csrfToken: await csrf(), callbackUrl: DASHBOARD })
      const second = secondFactor && (await browser.post(`${ORIGIN}/auth/two-factor`, { csrfToken: await csrf(), code: secondFactor() }))
      const session = (await browser.get(`${ORIGIN}/auth/session`)).last.json() as { user?: { id?: string }; authentication?: { aal?: number } } | null
      return { first, second, session }
    }

    it("reads every database-session cookie the previous release set as the same session", async () => {
      expect(previous.databaseCookies.length).toBeGreaterThan(0)
      for (const cookie of previous.databaseCookies) {
        // toMatchObject: a later release may add to a session, never change or drop what was there.
        expect(comparableSession(await sessionFor(config("database"), cookie.value)), `${cookie.person}: ${cookie.label}`).toMatchObject(cookie.session)
      }
    })

    it("reads every JWT-session cookie the previous release set after a sign-in as the same session", async () => {
      expect(previous.jwtCookies.length).toBeGreaterThan(0)
      for (const cookie of previous.jwtCookies) {
        expect(comparableSession(await sessionFor(config("jwt"), cookie.value)), `${cookie.person}: ${cookie.label}`).toMatchObject(cookie.session)
      }
    })

    it("signs a linked GitHub account in as the same user, with no new user or account row", async () => {
      const before = await store.rowCounts()
      for (const person of ["alice", "bob"] as const) {
        const { first, session } = await signIn(person)
        expect(first.url, person).toBe(DASHBOARD)
        expect(session?.user?.id, person).toBe(previous.userIds[person])
      }
      const after = await store.rowCounts()
      expect(after.users).toBe(before.users)
      expect(after.accounts).toBe(before.accounts)
      expect(after.sessions).toBe(before.sessions! + 2)
    })

    it("still asks the user enrolled in two-factor for the code, and takes one from the stored secret", async () => {
      const key = Uint8Array.from(Buffer.from(CAROL_TOTP_KEY_HEX, "hex"))
      const { first, second, session } = await signIn("carol", () => totpNow(key))
      expect(new URL(first.url).pathname).toBe("/auth/two-factor")
      expect(second?.url).toBe(DASHBOARD)
      expect(session?.user?.id).toBe(previous.userIds.carol)
      expect(session?.authentication?.aal).toBe(2)
    })

    it("leaves no migration missing or unrecorded once the current code has opened (SQLite) or migrated (PostgreSQL) the database", async () => {
      expect(await store.adapter.missingMigrations!()).toEqual([])
      // The previous release kept no record; the current code has written one for every step.
      const state = await store.schema()
      expect(state).toMatchObject({ missing: [], unrecorded: [] })
      expect(state.applied.length).toBeGreaterThan(0)
    })

    it("signed nobody out: after the others' sign-ins, every old cookie still reads as its session", async () => {
      for (const cookie of previous.databaseCookies) {
        expect(comparableSession(await sessionFor(config("database"), cookie.value)), `${cookie.person}: ${cookie.label}`).toMatchObject(cookie.session)
      }
      for (const cookie of previous.jwtCookies) {
        expect(comparableSession(await sessionFor(config("jwt"), cookie.value)), `${cookie.person}: ${cookie.label}`).toMatchObject(cookie.session)
      }
    })

    it("deleted nothing: every row the previous release stored is still there", async () => {
      const now = await store.rowCounts()
      for (const [table, count] of Object.entries(previous.rowCounts)) {
        if (TRANSIENT_TABLES.has(table)) continue
        expect(now[table], table).toBeGreaterThanOrEqual(count)
      }
      expect(now.users).toBe(previous.rowCounts.users)
      expect(now.accounts).toBe(previous.rowCounts.accounts)
      const token = await store.adapter.useVerificationToken!({ identifier: PENDING_VERIFICATION.identifier, token: PENDING_VERIFICATION.token })
      expect(token?.expires.toISOString()).toBe(PENDING_VERIFICATION.expires)
    })
  })

  describe(`a JWT session cookie written by the encode of gatehouse-auth ${release}`, () => {
    it("reads as the same session, without a database", async () => {
      expect(manifest.jwtCookies.length).toBeGreaterThan(0)
      for (const cookie of manifest.jwtCookies) {
        expect(comparableSession(await sessionFor(upgradeConfig({ strategy: "jwt", server: github }), cookie.value))).toMatchObject(cookie.session)
      }
    })
  })
})

import Database from "better-sqlite3"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { Worker } from "node:worker_threads"
import ts from "typescript"
import { afterAll, describe, expect, it, test } from "vitest"
import {
  hashSessionTokens,
  SQLITE_MIGRATIONS,
  SQLITE_SCHEMA_VERSION,
  SQLiteAdapter,
  type SQLiteDatabase,
  type SQLiteValue,
} from "../../src/adapters/sqlite.js"
import DefaultExport from "../../src/adapters/sqlite.js"
import { runAdapterConformance } from "../../src/testing/adapter.js"
import { storedKey } from "../flow/flow-helpers.js"

// Every database is a real file: WAL, locking and reopening only behave as in production on disk.
const dir = mkdtempSync(join(tmpdir(), "gatehouse-sqlite-"))
const opened: Database.Database[] = []

function open(name: string, options?: Database.Options): Database.Database {
  const db = new Database(join(dir, name), options)
  opened.push(db)
  return db
}

afterAll(() => {
  for (const db of opened) if (db.open) db.close()
  rmSync(dir, { recursive: true, force: true })
})

let counter = 0
/** A database file no other test uses. */
const fresh = (): string => `test-${++counter}.db`

const pragma = (db: Database.Database, name: string): unknown => db.pragma(name, { simple: true })
const count = (db: Database.Database, table: string): number =>
  (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n

const day = 24 * 60 * 60 * 1000
const user = (fields: { id?: string; email?: string; name?: string | null } = {}) => ({
  email: `user-${++counter}@example.com`,
  emailVerified: null,
  ...fields,
})

describe("SQLiteAdapter conformance (better-sqlite3, file database)", () => {
  runAdapterConformance({ adapter: SQLiteAdapter(open("conformance.db")), test, additions: "required" })
})

describe("SQLiteAdapter on SQLite", () => {
  it("is the default export too", () => {
    expect(DefaultExport).toBe(SQLiteAdapter)
  })

  it("turns on WAL journaling and foreign keys, and keeps a caller's busy timeout", () => {
    const db = open(fresh(), { timeout: 1234 })
    SQLiteAdapter(db)
    expect(pragma(db, "journal_mode")).toBe("wal")
    expect(pragma(db, "foreign_keys")).toBe(1)
    expect(pragma(db, "busy_timeout")).toBe(1234)
  })

  it("sets a busy timeout when the connection has none", () => {
    const db = open(fresh(), { timeout: 0 })
    SQLiteAdapter(db)
    expect(pragma(db, "busy_timeout")).toBe(5000)
  })

  it("works on an in-memory database, where WAL does not apply", async () => {
    const db = new Database(":memory:")
    try {
      const adapter = SQLiteAdapter(db)
      expect(pragma(db, "journal_mode")).toBe("memory")
      const created = await adapter.createUser(user())
      expect(await adapter.getUser(created.id)).toEqual(created)
    } finally {
      db.close()
    }
  })

  it("hashSessionTokens hashes raw session tokens once, in place, and leaves hashes alone", async () => {
    const db = open(fresh())
    const adapter = SQLiteAdapter(db)
    const owner = await adapter.createUser(user())
    const expires = new Date(Date.now() + 60_000)
    await adapter.createSession({ sessionToken: "raw-authjs-token", userId: owner.id, expires })
    await adapter.createSession({ sessionToken: storedKey("already-hashed"), userId: owner.id, expires })
    expect(await hashSessionTokens(db)).toBe(1)
    expect(await adapter.getSessionAndUser("raw-authjs-token")).toBeNull()
    expect((await adapter.getSessionAndUser(storedKey("raw-authjs-token")))?.user.id).toBe(owner.id)
    expect((await adapter.getSessionAndUser(storedKey("already-hashed")))?.user.id).toBe(owner.id)
    expect(await hashSessionTokens(db)).toBe(0)
  })

  it("creates the schema and records its version", () => {
    const db = open(fresh())
    SQLiteAdapter(db)
    expect(pragma(db, "user_version")).toBe(SQLITE_SCHEMA_VERSION)
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all()
    expect(tables).toEqual([
      "accounts",
      "audit_log",
      "authenticators",
      "gatehouse_migrations",
      "organization_invitations",
      "organization_members",
      "organizations",
      "rate_limits",
      "session_authentication",
      "session_context",
      "session_details",
      "session_versions",
      "sessions",
      "two_factor",
      "two_factor_recovery_codes",
      "user_status",
      "users",
      "verification_token",
    ])
    const indexes = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name").pluck().all()
    expect(indexes).toEqual([
      "accounts_userId_idx",
      "audit_log_actor_idx",
      "audit_log_created_idx",
      "audit_log_organization_idx",
      "authenticators_userId_idx",
      "organization_invitations_organization_idx",
      "organization_members_listing_idx",
      "organization_members_role_idx",
      "organization_members_userId_idx",
      "session_details_idp_idx",
      "sessions_sessionToken_key",
      "sessions_userId_idx",
      "users_email_idx",
    ])
  })

  it("migrates once: a second adapter on the same connection, a second connection and a reopen keep the data", async () => {
    const file = fresh()
    const first = open(file)
    const created = await SQLiteAdapter(first).createUser(user())

    // Same connection again: the schema is current, nothing is re-run or lost.
    expect(await SQLiteAdapter(first).getUser(created.id)).toEqual(created)
    // Another connection to the same file, while the first is still open.
    expect(await SQLiteAdapter(open(file)).getUser(created.id)).toEqual(created)

    first.close()
    const reopened = open(file)
    expect(await SQLiteAdapter(reopened).getUser(created.id)).toEqual(created)
    expect(pragma(reopened, "user_version")).toBe(SQLITE_SCHEMA_VERSION)
    expect(count(reopened, "users")).toBe(1)
  })

  it("migrates a database that already has the tables but no version (a hand-run schema)", async () => {
    const file = fresh()
    const db = open(file)
    SQLiteAdapter(db)
    const created = await SQLiteAdapter(db).createUser(user())
    db.pragma("user_version = 0")
    expect(await SQLiteAdapter(open(file)).getUser(created.id)).toEqual(created)
    expect(pragma(db, "user_version")).toBe(SQLITE_SCHEMA_VERSION)
  })

  it("upgrades a database of the first schema version: adds rate_limits and keeps the rows", async () => {
    const db = open(fresh())
    db.exec(SQLITE_MIGRATIONS[0]!)
    db.pragma("user_version = 1")
    db.prepare(`INSERT INTO users (id, email) VALUES ('deployed', 'deployed@example.com')`).run()
    const adapter = SQLiteAdapter(db)
    expect(pragma(db, "user_version")).toBe(SQLITE_SCHEMA_VERSION)
    expect(db.prepare("SELECT name FROM sqlite_schema WHERE name = 'rate_limits'").pluck().get()).toBe("rate_limits")
    expect((await adapter.getUser("deployed"))?.email).toBe("deployed@example.com")
    expect(await adapter.hitRateLimit("upgraded", 60)).toBe(1)
  })

  it("upgrades a database of schema version 4: adds the two-factor tables, and its sessions read as not recorded until raised", async () => {
    const db = open(fresh())
    for (const migration of SQLITE_MIGRATIONS.slice(0, 4)) db.exec(migration)
    db.pragma("user_version = 4")
    db.prepare(`INSERT INTO users (id, email) VALUES ('deployed', 'deployed@example.com')`).run()
    db.prepare(`INSERT INTO sessions (id, "userId", expires, "sessionToken") VALUES ('row-1', 'deployed', ?, 'sha256:old')`).run(Date.now() + day)
    db.prepare(`INSERT INTO session_details ("sessionId", created_at) VALUES ('row-1', ?)`).run(Date.now())
    const adapter = SQLiteAdapter(db)
    expect(pragma(db, "user_version")).toBe(SQLITE_SCHEMA_VERSION)
    expect((await adapter.getSessionAndUser("sha256:old"))?.session.authentication).toBeNull()
    const [listed] = await adapter.listSessionsByUserId("deployed")
    expect(listed?.details).toMatchObject({ aal: null, amr: null, secondFactorAt: null })
    const secondFactorAt = new Date(Date.now() - 1000)
    expect(await adapter.updateSessionAuthentication("sha256:old", { aal: 2, amr: ["pwd", "otp"], secondFactorAt })).toBe(true)
    expect((await adapter.getSessionAndUser("sha256:old"))?.session.authentication).toEqual({ aal: 2, amr: ["pwd", "otp"], secondFactorAt })
    await adapter.setTotpPendingSecret("deployed", "sealed")
    expect((await adapter.getTwoFactor("deployed"))?.totpPendingSecret).toBe("sealed")
  })

  it("upgrades a database of schema version 5: adds the organization tables, where an existing user can own an organization", async () => {
    const db = open(fresh())
    for (const migration of SQLITE_MIGRATIONS.slice(0, 5)) db.exec(migration)
    db.pragma("user_version = 5")
    db.prepare(`INSERT INTO users (id, email) VALUES ('deployed', 'deployed@example.com')`).run()
    const adapter = SQLiteAdapter(db)
    expect(pragma(db, "user_version")).toBe(SQLITE_SCHEMA_VERSION)
    expect(await adapter.missingMigrations()).toEqual([])
    const organization = await adapter.createOrganization({ name: "Deployed", slug: "deployed" }, "deployed")
    expect(organization).toMatchObject({ name: "Deployed", slug: "deployed", policy: null })
    expect(await adapter.listOrganizationsByUserId("deployed")).toEqual([{ organization, role: "owner", joinedAt: expect.any(Date) }])
  })

  it("finds a member, lists members, filters the audit log, reads a user's status and pages users through the indexes, not by scanning", () => {
    const db = open(fresh())
    SQLiteAdapter(db)
    const plan = (sql: string): string => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((row) => row.detail).join("; ")
    expect(plan(`SELECT role FROM organization_members WHERE organization_id = 'o' AND "userId" = 'u'`)).toMatch(/USING (INDEX|PRIMARY KEY) sqlite_autoindex_organization_members_1/)
    const members = plan(
      `SELECT m.role, u.email FROM organization_members m JOIN users u ON u.id = m."userId" WHERE m.organization_id = 'o' AND (m.created_at, m."userId") > (1, 'u') ORDER BY m.created_at, m."userId" LIMIT 50`,
    )
    expect(members).toMatch(/SEARCH m USING (COVERING )?INDEX organization_members_listing_idx/)
    expect(members).not.toMatch(/TEMP B-TREE/)
    expect(plan(`SELECT id FROM audit_log WHERE actor_id = 'a' AND (created_at, id) < (1, 'x') ORDER BY created_at DESC, id DESC LIMIT 50`)).toMatch(/SEARCH audit_log USING (COVERING )?INDEX audit_log_actor_idx/)
    expect(plan(`SELECT id FROM organization_invitations WHERE token_hash = 'h'`)).toMatch(/USING INDEX sqlite_autoindex_organization_invitations_2/)
    // The admin API: a sign-in's one status read by key, and a page of users from the cursor on.
    expect(plan(`SELECT role, banned_at FROM user_status WHERE "userId" = 'u'`)).toMatch(/USING INDEX sqlite_autoindex_user_status_1/)
    const users = plan(`SELECT id, email FROM users WHERE id > 'u' AND (email LIKE 'a%' ESCAPE '\\' OR name LIKE 'a%' ESCAPE '\\') ORDER BY id LIMIT 50`)
    expect(users).toMatch(/SEARCH users USING INDEX sqlite_autoindex_users_1/)
    expect(users).not.toMatch(/TEMP B-TREE/)
  })

  it("migrates a new file once when several threads open it at the same moment", async () => {
    const name = fresh()
    const start = new Int32Array(new SharedArrayBuffer(4))
    const adapterUrl = compiledAdapterUrl()
    const workers = Array.from(
      { length: 4 },
      (_, i) =>
        new Worker(MIGRATING_WORKER, {
          eval: true,
          workerData: { driver: requireHere.resolve("better-sqlite3"), adapterUrl, file: join(dir, name), start, email: `w${i}@example.com` },
        }),
    )
    try {
      const done = workers.map(
        (worker) =>
          new Promise<unknown>((resolve, reject) => {
            worker.once("message", resolve)
            worker.once("error", reject)
          }),
      )
      await Promise.all(done)
      const db = open(name)
      expect(pragma(db, "user_version")).toBe(SQLITE_SCHEMA_VERSION)
      expect(db.prepare("SELECT email FROM users ORDER BY email").pluck().all()).toEqual([
        "w0@example.com",
        "w1@example.com",
        "w2@example.com",
        "w3@example.com",
      ])
    } finally {
      await Promise.all(workers.map((worker) => worker.terminate()))
    }
  })

  it("rolls the whole migration back when a step fails", () => {
    const db = open(fresh())
    // An index of the schema cannot be created when a table already has its name.
    db.exec("CREATE TABLE sessions_userId_idx (x)")
    expect(() => SQLiteAdapter(db)).toThrow(/sessions_userId_idx/)
    expect(pragma(db, "user_version")).toBe(0)
    expect(db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'users'").pluck().get()).toBe(0)
    expect(db.inTransaction).toBe(false)
  })

  it("cascades a user's deletion at the SQL level", async () => {
    const db = open(fresh())
    const adapter = SQLiteAdapter(db)
    const owner = await adapter.createUser(user())
    const other = await adapter.createUser(user())
    for (const { id } of [owner, other]) {
      await adapter.linkAccount({ userId: id, type: "oauth", provider: "github", providerAccountId: `gh-${id}` })
      await adapter.createSession({ sessionToken: `s-${id}`, userId: id, expires: new Date(Date.now() + day) })
      await adapter.createAuthenticator({
        credentialID: `c-${id}`,
        userId: id,
        providerAccountId: `c-${id}`,
        credentialPublicKey: "key",
        counter: 0,
        credentialDeviceType: "singleDevice",
        credentialBackedUp: false,
      })
      await adapter.createSessionDetails(`s-${id}`, { createdAt: new Date(), userAgent: null, idpProvider: null, idpSid: null, aal: 1, amr: ["pwd"], secondFactorAt: null })
      await adapter.setTotpPendingSecret(id, `sealed-${id}`)
      await adapter.replaceRecoveryCodes(id, [`hash-${id}`])
    }

    // Plain SQL, not the adapter: the foreign keys themselves remove what the user owned.
    db.prepare("DELETE FROM users WHERE id = ?").run(owner.id)
    for (const table of ["accounts", "sessions", "authenticators", "two_factor", "two_factor_recovery_codes"]) {
      expect(db.prepare(`SELECT "userId" FROM ${table}`).pluck().all(), table).toEqual([other.id])
    }
    // A session's authentication goes with its row.
    expect(count(db, "session_authentication")).toBe(1)

    expect(await adapter.deleteUser(other.id)).toEqual(other)
    for (const table of ["users", "accounts", "sessions", "authenticators", "two_factor", "two_factor_recovery_codes", "session_authentication"]) {
      expect(count(db, table), table).toBe(0)
    }
  })

  it("gives back the session row's own id from every session method, as Auth.js's adapter tests expect", async () => {
    const db = open(fresh())
    const adapter = SQLiteAdapter(db)
    const owner = await adapter.createUser(user())
    const created = await adapter.createSession({ sessionToken: "s-id", userId: owner.id, expires: new Date(Date.now() + day) })
    const stored = db.prepare(`SELECT id FROM sessions WHERE "sessionToken" = 's-id'`).pluck().get()
    expect(created.id).toBe(stored)
    expect(created.id).not.toBe(owner.id)
    expect((await adapter.getSessionAndUser("s-id"))?.session.id).toBe(stored)
    expect((await adapter.updateSession({ sessionToken: "s-id", expires: new Date(Date.now() + 2 * day) }))?.id).toBe(stored)
    expect((await adapter.deleteSession("s-id"))?.id).toBe(stored)
  })

  it("refuses rows that point at no user", async () => {
    const adapter = SQLiteAdapter(open(fresh()))
    await expect(
      adapter.createSession({ sessionToken: "orphan", userId: "nobody", expires: new Date(Date.now() + day) }),
    ).rejects.toThrow(/FOREIGN KEY/)
    await expect(
      adapter.linkAccount({ userId: "nobody", type: "oauth", provider: "github", providerAccountId: "1" }),
    ).rejects.toThrow(/FOREIGN KEY/)
  })

  it("lets exactly one of 50 concurrent uses of a token succeed, across two connections", async () => {
    const file = fresh()
    const adapters = [SQLiteAdapter(open(file)), SQLiteAdapter(open(file))] as const
    const token = { identifier: "race@example.com", token: "hashed", expires: new Date(Date.now() + day) }
    await adapters[0].createVerificationToken(token)

    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => adapters[i % 2]!.useVerificationToken({ identifier: token.identifier, token: token.token })),
    )
    const winners = results.filter((result) => result !== null)
    expect(winners).toEqual([token])
    expect(await adapters[1].useVerificationToken(token)).toBeNull()
  })

  it("lets one of 50 concurrent uses of a TOTP step, and of a recovery code, succeed across two connections", async () => {
    const file = fresh()
    const adapters = [SQLiteAdapter(open(file)), SQLiteAdapter(open(file))] as const
    const { id } = await adapters[0].createUser(user())
    await adapters[0].setTotpPendingSecret(id, "sealed")
    expect(await adapters[1].enableTotp(id, { sealed: "sealed", step: 100, recoveryCodeHashes: ["code-a", "code-b"] })).toBe(true)

    const steps = await Promise.all(Array.from({ length: 50 }, (_, i) => adapters[i % 2]!.useTotpStep(id, 101)))
    expect(steps.filter(Boolean)).toHaveLength(1)
    const codes = await Promise.all(Array.from({ length: 50 }, (_, i) => adapters[i % 2]!.useRecoveryCode(id, "code-a")))
    expect(codes.filter(Boolean)).toHaveLength(1)
    expect(await adapters[0].getTwoFactor(id)).toMatchObject({ totpLastStep: 101, recoveryCodesLeft: 1 })
  })

  // better-sqlite3 is synchronous, so the race above interleaves calls but never runs two at once.
  // Here two threads really do, each with the adapter on its own connection; how the tokens split
  // between them varies from run to run (SQLite's busy wait lets one side run ahead), but no
  // token may ever be handed out twice or lost.
  it("hands each token to exactly one of two threads racing on their own connections", async () => {
    const name = fresh()
    const db = open(name)
    const file = join(dir, name)
    const adapter = SQLiteAdapter(db)
    const tokens = Array.from({ length: 1000 }, (_, i) => ({ identifier: "race@example.com", token: `t${i}`, expires: new Date(Date.now() + day) }))
    for (const token of tokens) await adapter.createVerificationToken(token)

    const start = new Int32Array(new SharedArrayBuffer(4))
    const worker = new Worker(RACING_WORKER, {
      eval: true,
      workerData: { driver: requireHere.resolve("better-sqlite3"), adapterUrl: compiledAdapterUrl(), file, tokens: tokens.map((t) => t.token), start },
    })
    try {
      const workerWon = new Promise<string[]>((resolve, reject) => {
        worker.once("message", resolve)
        worker.once("error", reject)
      })
      // Both sides spin until both have arrived, so they start within microseconds of each other.
      arriveAndWait(start, 2)
      const mainWon: string[] = []
      for (const { identifier, token } of tokens) {
        if (await adapter.useVerificationToken({ identifier, token })) mainWon.push(token)
      }
      const won = [...mainWon, ...(await workerWon)]
      expect(won.length).toBe(tokens.length)
      expect(new Set(won).size).toBe(tokens.length)
      expect(count(db, "verification_token")).toBe(0)
    } finally {
      await worker.terminate()
    }
  })

  it("hands each recovery code, and each TOTP step, to at most one of two threads racing on their own connections", async () => {
    const name = fresh()
    const db = open(name)
    const adapter = SQLiteAdapter(db)
    const { id } = await adapter.createUser(user())
    const codes = Array.from({ length: 500 }, (_, i) => `code-${i}`)
    await adapter.setTotpPendingSecret(id, "sealed")
    expect(await adapter.enableTotp(id, { sealed: "sealed", step: 0, recoveryCodeHashes: codes })).toBe(true)
    const steps = Array.from({ length: 500 }, (_, i) => i + 1)

    const start = new Int32Array(new SharedArrayBuffer(4))
    const worker = new Worker(RACING_TWO_FACTOR_WORKER, {
      eval: true,
      workerData: { driver: requireHere.resolve("better-sqlite3"), adapterUrl: compiledAdapterUrl(), file: join(dir, name), userId: id, codes, steps, start },
    })
    try {
      const workerWon = new Promise<{ codes: string[]; steps: number[] }>((resolve, reject) => {
        worker.once("message", resolve)
        worker.once("error", reject)
      })
      arriveAndWait(start, 2)
      const mainCodes: string[] = []
      for (const code of codes) if (await adapter.useRecoveryCode(id, code)) mainCodes.push(code)
      const mainSteps: number[] = []
      for (const step of steps) if (await adapter.useTotpStep(id, step)) mainSteps.push(step)
      const other = await workerWon
      const wonCodes = [...mainCodes, ...other.codes]
      expect(wonCodes.length).toBe(codes.length)
      expect(new Set(wonCodes).size).toBe(codes.length)
      const wonSteps = [...mainSteps, ...other.steps]
      expect(new Set(wonSteps).size).toBe(wonSteps.length)
      expect(await adapter.getTwoFactor(id)).toMatchObject({ recoveryCodesLeft: 0, totpLastStep: 500 })
    } finally {
      await worker.terminate()
    }
  })

  it("keeps an owner in every organization when two threads on their own connections demote its two owners at once", async () => {
    const name = fresh()
    const adapter = SQLiteAdapter(open(name))
    const first = await adapter.createUser(user())
    const second = await adapter.createUser(user())
    const organizationIds: string[] = []
    for (let i = 0; i < 300; i++) {
      const organization = await adapter.createOrganization({ name: `Race ${i}`, slug: `race-${name}-${i}` }, first.id)
      if (typeof organization !== "object") throw new Error("slug taken")
      await adapter.addMember({ organizationId: organization.id, userId: second.id, role: "owner" })
      organizationIds.push(organization.id)
    }
    const start = new Int32Array(new SharedArrayBuffer(4))
    const worker = new Worker(RACING_OWNERS_WORKER, {
      eval: true,
      workerData: { driver: requireHere.resolve("better-sqlite3"), adapterUrl: compiledAdapterUrl(), file: join(dir, name), userId: second.id, organizationIds, start },
    })
    try {
      const workerDemoted = new Promise<string[]>((resolve, reject) => {
        worker.once("message", resolve)
        worker.once("error", reject)
      })
      arriveAndWait(start, 2)
      const mainDemoted: string[] = []
      for (const id of organizationIds) if (typeof (await adapter.updateMemberRole(id, first.id, "member")) === "object") mainDemoted.push(id)
      const demoted = [...mainDemoted, ...(await workerDemoted)]
      // Each organization lost exactly one owner: never both.
      expect(demoted.length).toBe(organizationIds.length)
      expect(new Set(demoted).size).toBe(organizationIds.length)
      for (const id of organizationIds) {
        const roles = [(await adapter.getMember(id, first.id))?.role, (await adapter.getMember(id, second.id))?.role]
        expect(roles.filter((role) => role === "owner")).toHaveLength(1)
      }
    } finally {
      await worker.terminate()
    }
  })

  it("keeps everything across close and reopen", async () => {
    const file = fresh()
    const db = open(file)
    const adapter = SQLiteAdapter(db)
    const created = await adapter.createUser({ ...user(), emailVerified: new Date(1_700_000_000_123), name: "Ada", image: "a.png" })
    const account = await adapter.linkAccount({
      userId: created.id,
      type: "oidc",
      provider: "google",
      providerAccountId: "g-1",
      access_token: "at",
      expires_at: 1_700_003_600,
      token_type: "bearer",
    })
    const session = await adapter.createSession({ sessionToken: "st", userId: created.id, expires: new Date(1_800_000_000_456) })
    const token = await adapter.createVerificationToken({ identifier: created.email, token: "h", expires: new Date(1_800_000_000_789) })
    const authenticator = await adapter.createAuthenticator({
      credentialID: "cred",
      userId: created.id,
      providerAccountId: "cred",
      credentialPublicKey: "pk",
      counter: 3,
      credentialDeviceType: "multiDevice",
      credentialBackedUp: true,
      transports: "usb,nfc",
    })
    db.close()

    const again = SQLiteAdapter(open(file))
    expect(await again.getSessionAndUser("st")).toEqual({ session: { ...session, authentication: null, context: null }, user: created })
    expect(await again.getAccount("g-1", "google")).toEqual(account)
    expect(await again.getAuthenticator("cred")).toEqual(authenticator)
    expect(await again.useVerificationToken(token)).toEqual(token)
  })

  it("stores dates as integer milliseconds and booleans as 0/1", async () => {
    const db = open(fresh())
    const adapter = SQLiteAdapter(db)
    const created = await adapter.createUser({ ...user(), emailVerified: new Date(1_700_000_000_123) })
    await adapter.createAuthenticator({
      credentialID: "c",
      userId: created.id,
      providerAccountId: "c",
      credentialPublicKey: "pk",
      counter: 0,
      credentialDeviceType: "singleDevice",
      credentialBackedUp: true,
    })
    expect(db.prepare(`SELECT "emailVerified", typeof("emailVerified") AS type FROM users`).get()).toEqual({
      emailVerified: 1_700_000_000_123,
      type: "integer",
    })
    expect(db.prepare(`SELECT "credentialBackedUp" FROM authenticators`).pluck().get()).toBe(1)
  })

  it("reads dates another tool stored as ISO text", async () => {
    const db = open(fresh())
    const adapter = SQLiteAdapter(db)
    const created = await adapter.createUser(user())
    db.prepare(`UPDATE users SET "emailVerified" = ? WHERE id = ?`).run("2031-02-03T04:05:06.007Z", created.id)
    db.prepare(`INSERT INTO sessions (id, "userId", expires, "sessionToken") VALUES ('s', ?, ?, 'iso-token')`).run(
      created.id,
      "2031-02-03T04:05:06.007Z",
    )
    const found = await adapter.getSessionAndUser("iso-token")
    expect(found?.session.expires).toEqual(new Date("2031-02-03T04:05:06.007Z"))
    expect(found?.user.emailVerified).toEqual(new Date("2031-02-03T04:05:06.007Z"))
  })

  it("gives back numbers, Dates and booleans when the connection reads integers as bigint", async () => {
    const db = open(fresh())
    db.defaultSafeIntegers(true)
    const adapter = SQLiteAdapter(db)
    const created = await adapter.createUser({ ...user(), emailVerified: new Date(1_700_000_000_123) })
    expect(created.emailVerified).toEqual(new Date(1_700_000_000_123))
    await adapter.linkAccount({ userId: created.id, type: "oauth", provider: "p", providerAccountId: "1", expires_at: 1_700_003_600 })
    expect((await adapter.getAccount("1", "p"))?.expires_at).toBe(1_700_003_600)
    await adapter.createAuthenticator({
      credentialID: "c",
      userId: created.id,
      providerAccountId: "c",
      credentialPublicKey: "pk",
      counter: 7,
      credentialDeviceType: "singleDevice",
      credentialBackedUp: true,
    })
    expect(await adapter.getAuthenticator("c")).toMatchObject({ counter: 7, credentialBackedUp: true })
    expect(await adapter.hitRateLimit("k", 60)).toBe(1)
    expect(await adapter.hitRateLimit("k", 60)).toBe(2)
  })

  it("counts one key across two connections, ending windows by the application's clock in milliseconds", async () => {
    const file = fresh()
    const db = open(file)
    const adapters = [SQLiteAdapter(db), SQLiteAdapter(open(file))] as const
    const before = Date.now()
    const counts = await Promise.all(Array.from({ length: 20 }, (_, i) => adapters[i % 2]!.hitRateLimit("shared", 60)))
    const after = Date.now()
    expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
    const row = db.prepare(`SELECT count, reset_at, typeof(reset_at) AS type FROM rate_limits WHERE key = 'shared'`).get() as Record<string, unknown>
    expect(row).toMatchObject({ count: 20, type: "integer" })
    expect(row.reset_at).toBeGreaterThanOrEqual(before + 60_000)
    expect(row.reset_at).toBeLessThanOrEqual(after + 60_000)
    // A window that ended (as written by another process) restarts at 1 with a new end.
    db.prepare(`UPDATE rate_limits SET reset_at = ? WHERE key = 'shared'`).run(Date.now() - 1)
    expect(await adapters[1].hitRateLimit("shared", 60)).toBe(1)
    expect(db.prepare(`SELECT reset_at FROM rate_limits WHERE key = 'shared'`).pluck().get()).toBeGreaterThan(Date.now() + 59_000)
  })

  it("prunes rate-limit rows that ended over a minute ago, on one hit in 100", async () => {
    const db = open(fresh())
    const adapter = SQLiteAdapter(db)
    const insert = db.prepare(`INSERT INTO rate_limits (key, count, reset_at) VALUES (?, 3, ?)`)
    insert.run("long-ended", Date.now() - 2 * 60_000)
    insert.run("just-ended", Date.now() - 1000)
    const keys = () => db.prepare(`SELECT key FROM rate_limits ORDER BY key`).pluck().all()
    for (let i = 0; i < 99; i++) await adapter.hitRateLimit("busy", 60)
    expect(keys()).toEqual(["busy", "just-ended", "long-ended"])
    expect(await adapter.hitRateLimit("busy", 60)).toBe(100)
    expect(keys()).toEqual(["busy", "just-ended"])
  })

  it("refuses a window that is not a positive number of seconds", async () => {
    const adapter = SQLiteAdapter(open(fresh()))
    for (const windowSeconds of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(adapter.hitRateLimit("k", windowSeconds), String(windowSeconds)).rejects.toThrow(RangeError)
    }
  })

  it("drops account fields that have no column, and leaves out token fields stored as NULL", async () => {
    const adapter = SQLiteAdapter(open(fresh()))
    const { id: userId } = await adapter.createUser(user())
    const linked = await adapter.linkAccount({
      userId,
      type: "oauth",
      provider: "github",
      providerAccountId: "42",
      access_token: "at",
      expires_in: 3600,
      refresh_token_expires_in: 7200,
      id: "ignored",
    })
    const expected = { userId, type: "oauth", provider: "github", providerAccountId: "42", access_token: "at" }
    expect(linked).toStrictEqual(expected)
    expect(await adapter.getAccount("42", "github")).toStrictEqual(expected)
    expect(await adapter.unlinkAccount({ provider: "github", providerAccountId: "42" })).toStrictEqual(expected)
  })

  it("gives null, never undefined, for a user's missing name and image and a passkey's missing transports", async () => {
    const adapter = SQLiteAdapter(open(fresh()))
    const created = await adapter.createUser({ email: "a@example.com", emailVerified: null })
    expect(created).toStrictEqual({ id: created.id, email: "a@example.com", emailVerified: null, name: null, image: null })
    const authenticator = await adapter.createAuthenticator({
      credentialID: "c",
      userId: created.id,
      providerAccountId: "c",
      credentialPublicKey: "pk",
      counter: 0,
      credentialDeviceType: "singleDevice",
      credentialBackedUp: false,
    })
    expect(authenticator.transports).toBeNull()
  })

  it("round-trips a huge string, a unicode email and SQL-looking text untouched", async () => {
    const db = open(fresh())
    const adapter = SQLiteAdapter(db)
    const huge = "𝔸".repeat(2_000_000) // 8 MB of UTF-8, astral characters included
    const email = "Zoë.Ünïcødé+标签@例え.テスト"
    const created = await adapter.createUser({ email, emailVerified: null, name: huge, image: "'); DROP TABLE users; --" })
    const found = await adapter.getUserByEmail(email)
    expect(found?.name === huge).toBe(true)
    expect(found?.image).toBe("'); DROP TABLE users; --")
    expect(found?.id).toBe(created.id)
    // Lookups are exact: another case or normalization form is another email.
    expect(await adapter.getUserByEmail(email.toLowerCase())).toBeNull()
    expect(await adapter.getUserByEmail(email.normalize("NFD"))).toBeNull()
    expect(count(db, "users")).toBe(1)
  })

  it("rejects values it cannot store, and stores nothing then", async () => {
    const db = open(fresh())
    const adapter = SQLiteAdapter(db)
    await expect(adapter.createUser({ ...user(), emailVerified: new Date(Number.NaN) })).rejects.toThrow(RangeError)
    expect(count(db, "users")).toBe(0)
    const { id: userId } = await adapter.createUser(user())
    await expect(
      adapter.linkAccount({ userId, type: "oauth", provider: "p", providerAccountId: "1", scope: { read: true } as unknown as string }),
    ).rejects.toThrow(/scope/)
    await expect(adapter.createSession({ sessionToken: "s", userId, expires: new Date("soon") })).rejects.toThrow(RangeError)
    expect(count(db, "accounts") + count(db, "sessions")).toBe(0)
  })

  it("accepts a date that went through JSON", async () => {
    const adapter = SQLiteAdapter(open(fresh()))
    const { id: userId } = await adapter.createUser(user())
    const expires = new Date(1_800_000_000_000)
    await adapter.createSession({ sessionToken: "s", userId, expires: expires.toISOString() as unknown as Date })
    expect((await adapter.getSessionAndUser("s"))?.session.expires).toEqual(expires)
  })

  it("prepares each statement once per adapter", async () => {
    const db = open(fresh())
    let prepared = 0
    const counting: SQLiteDatabase = {
      exec: (sql) => db.exec(sql),
      prepare: (sql) => {
        prepared++
        return db.prepare(sql)
      },
    }
    const adapter = SQLiteAdapter(counting)
    const created = await adapter.createUser(user())
    await adapter.getUser(created.id)
    await adapter.updateUser({ id: created.id, name: "first" })
    const before = prepared
    for (let i = 0; i < 20; i++) {
      await adapter.getUser(created.id)
      await adapter.updateUser({ id: created.id, name: `name ${i}` })
    }
    expect(prepared).toBe(before)
  })

  it("returns spreadable functions that do not depend on this", async () => {
    const { getUser, createUser } = SQLiteAdapter(open(fresh()))
    const created = await createUser(user())
    expect(await getUser(created.id)).toEqual(created)
    const overridden = { ...SQLiteAdapter(open(fresh())), getUser: async () => null }
    expect(await overridden.getUser()).toBeNull()
  })
})

// `node:sqlite` only exists on newer runtimes; its types are absent from @types/node 20, hence the
// string specifier and the local description of the part used.
type NodeSqlite = { DatabaseSync: new (path: string) => SQLiteDatabase & { close(): void } }
const nodeSqliteSpecifier = "node:sqlite"
const nodeSqlite = (await import(/* @vite-ignore */ nodeSqliteSpecifier).catch(() => null)) as NodeSqlite | null

describe.skipIf(!nodeSqlite)("SQLiteAdapter on node:sqlite DatabaseSync", () => {
  if (!nodeSqlite) {
    // Registered only so the report shows what this runtime could not check.
    it("passes the conformance suite and turns on WAL and foreign keys (needs node:sqlite, Node 22.5+)", () => {})
    return
  }
  const db = new nodeSqlite.DatabaseSync(join(dir, "node-sqlite.db"))
  afterAll(() => db.close())
  runAdapterConformance({ adapter: SQLiteAdapter(db), test, additions: "required" })

  it("turns on WAL and foreign keys, and cascades deletion", async () => {
    const adapter = SQLiteAdapter(db)
    expect(db.prepare("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" })
    expect(db.prepare("PRAGMA foreign_keys").get()).toEqual({ foreign_keys: 1 })
    const created = await adapter.createUser(user())
    await adapter.createSession({ sessionToken: `node-${created.id}`, userId: created.id, expires: new Date(Date.now() + day) })
    expect(await adapter.deleteUser(created.id)).toEqual(created)
    expect(await adapter.getSessionAndUser(`node-${created.id}`)).toBeNull()
  })
})

/**
 * The shape of `node:sqlite` as @types/node 22+ declares it (overloads with named parameters
 * included), checked against the adapter's parameter type at compile time.
 */
type SQLInputValue = null | number | bigint | string | ArrayBufferView
type SQLOutputValue = null | number | bigint | string | Uint8Array
interface StatementSyncShape {
  run(...anonymousParameters: SQLInputValue[]): { changes: number | bigint; lastInsertRowid: number | bigint }
  run(namedParameters: Record<string, SQLInputValue>, ...anonymousParameters: SQLInputValue[]): { changes: number | bigint; lastInsertRowid: number | bigint }
  get(...anonymousParameters: SQLInputValue[]): Record<string, SQLOutputValue> | undefined
  get(namedParameters: Record<string, SQLInputValue>, ...anonymousParameters: SQLInputValue[]): Record<string, SQLOutputValue> | undefined
  all(...anonymousParameters: SQLInputValue[]): Record<string, SQLOutputValue>[]
  all(namedParameters: Record<string, SQLInputValue>, ...anonymousParameters: SQLInputValue[]): Record<string, SQLOutputValue>[]
}
interface DatabaseSyncShape {
  exec(sql: string): void
  prepare(sql: string): StatementSyncShape
  close(): void
}
test("node:sqlite's DatabaseSync type fits the adapter's parameter", () => {
  const fits = (db: DatabaseSyncShape): SQLiteDatabase => db
  const value: SQLiteValue = 1n
  expect(typeof fits).toBe("function")
  expect(value).toBe(1n)
})

const requireHere = createRequire(import.meta.url)

/**
 * The adapter compiled to plain JavaScript, so a worker thread (which has no TypeScript loader)
 * can run the very same code on its own connection.
 */
function compiledAdapterUrl(): string {
  const out = join(dir, "compiled")
  mkdirSync(out, { recursive: true })
  // "#primitives" resolves as the package's own imports map resolves it on Node.
  writeFileSync(join(out, "package.json"), JSON.stringify({ type: "module", imports: { "#primitives": "./primitives/node.js" } }))
  // The adapter and every module it imports at run time, each in its place under src/.
  const modules = ["adapters/sqlite", "adapters/sqlite-schema", "adapters/schema-migrations", "adapters/schema-source", "adapters/two-factor-fields", "adapters/organization-fields", "adapters/session-context-fields", "adapters/hashed-session-token", "encoding/hex", "encoding/base64", "primitives/node", "primitives/contract"]
  for (const name of modules) {
    const source = readFileSync(fileURLToPath(new URL(`../../src/${name}.ts`, import.meta.url)), "utf8")
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
    })
    mkdirSync(dirname(join(out, name)), { recursive: true })
    writeFileSync(join(out, `${name}.js`), outputText)
  }
  return pathToFileURL(join(out, "adapters", "sqlite.js")).href
}

/**
 * A barrier: counts this thread in, then spins (no event loop turn, so no added latency) until
 * `parties` threads have. The workers get the same code as source, in {@link BARRIER_SOURCE}.
 */
function arriveAndWait(counter: Int32Array, parties: number): void {
  Atomics.add(counter, 0, 1)
  const deadline = Date.now() + 10_000
  while (Atomics.load(counter, 0) < parties) {
    if (Date.now() > deadline) throw new Error("barrier: the other threads never arrived")
  }
}
const BARRIER_SOURCE = `
function arriveAndWait(counter, parties) {
  Atomics.add(counter, 0, 1)
  const deadline = Date.now() + 10000
  while (Atomics.load(counter, 0) < parties) {
    if (Date.now() > deadline) throw new Error("barrier: the other threads never arrived")
  }
}`

/** Waits for the start signal, then uses every token once through its own adapter; posts the ones it won. */
const RACING_TWO_FACTOR_WORKER = `
const { parentPort, workerData } = require("node:worker_threads")
const Database = require(workerData.driver)
import(workerData.adapterUrl).then(async ({ SQLiteAdapter }) => {
  const adapter = SQLiteAdapter(new Database(workerData.file))
  ${BARRIER_SOURCE}
  arriveAndWait(workerData.start, 2)
  const codes = []
  for (const code of workerData.codes) if (await adapter.useRecoveryCode(workerData.userId, code)) codes.push(code)
  const steps = []
  for (const step of workerData.steps) if (await adapter.useTotpStep(workerData.userId, step)) steps.push(step)
  parentPort.postMessage({ codes, steps })
})
`

const RACING_OWNERS_WORKER = `
const { parentPort, workerData } = require("node:worker_threads")
const Database = require(workerData.driver)
import(workerData.adapterUrl).then(async ({ SQLiteAdapter }) => {
  const adapter = SQLiteAdapter(new Database(workerData.file))
  ${BARRIER_SOURCE}
  arriveAndWait(workerData.start, 2)
  const demoted = []
  for (const id of workerData.organizationIds) {
    if (typeof (await adapter.updateMemberRole(id, workerData.userId, "member")) === "object") demoted.push(id)
  }
  parentPort.postMessage(demoted)
})
`

const RACING_WORKER = `
const { parentPort, workerData } = require("node:worker_threads")
const Database = require(workerData.driver)
import(workerData.adapterUrl).then(async ({ SQLiteAdapter }) => {
  const adapter = SQLiteAdapter(new Database(workerData.file))
  ${BARRIER_SOURCE}
  arriveAndWait(workerData.start, 2)
  const won = []
  for (const token of workerData.tokens) {
    if (await adapter.useVerificationToken({ identifier: "race@example.com", token })) won.push(token)
  }
  parentPort.postMessage(won)
})
`

/** Waits for the start signal, then opens the file (creating it and its schema) and adds one user. */
const MIGRATING_WORKER = `
const { parentPort, workerData } = require("node:worker_threads")
const Database = require(workerData.driver)
import(workerData.adapterUrl).then(async ({ SQLiteAdapter }) => {
  ${BARRIER_SOURCE}
  arriveAndWait(workerData.start, 4)
  const db = new Database(workerData.file)
  await SQLiteAdapter(db).createUser({ email: workerData.email, emailVerified: null })
  db.close()
  parentPort.postMessage("done")
})
`

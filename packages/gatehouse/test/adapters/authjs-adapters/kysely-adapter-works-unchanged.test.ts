/**
 * `@auth/kysely-adapter` unchanged: with Kysely's PostgreSQL dialect over `pg`, on the schema its
 * documentation gives (its migration, run through Kysely's schema builder as written there: uuid
 * ids from gen_random_uuid(), timestamptz, foreign keys with ON DELETE CASCADE); and with Kysely's
 * SQLite dialect over better-sqlite3, on that schema as the adapter's own test suite lays it out
 * for SQLite (the documentation shows PostgreSQL only): the user id a plain primary key the adapter
 * fills, no id column on Account and Session.
 */
import { KyselyAdapter, type Database } from "@auth/kysely-adapter"
import SqliteDatabase from "better-sqlite3"
import { Kysely, PostgresDialect, sql, SqliteDialect } from "kysely"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { testSchema } from "../../support/postgres.js"
import { describeAuthjsAdapter } from "./authjs-adapter-checks.js"

/** The documented migration (`db/migrations/001_create_db.ts`, `up`). */
async function createDocumentedSchema(db: Kysely<Database>): Promise<void> {
  await db.schema
    .createTable("User")
    .addColumn("id", "uuid", (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("name", "text")
    .addColumn("email", "text", (col) => col.unique().notNull())
    .addColumn("emailVerified", "timestamptz")
    .addColumn("image", "text")
    .execute()
  await db.schema
    .createTable("Account")
    .addColumn("id", "uuid", (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("userId", "uuid", (col) => col.references("User.id").onDelete("cascade").notNull())
    .addColumn("type", "text", (col) => col.notNull())
    .addColumn("provider", "text", (col) => col.notNull())
    .addColumn("providerAccountId", "text", (col) => col.notNull())
    .addColumn("refresh_token", "text")
    .addColumn("access_token", "text")
    .addColumn("expires_at", "bigint")
    .addColumn("token_type", "text")
    .addColumn("scope", "text")
    .addColumn("id_token", "text")
    .addColumn("session_state", "text")
    .execute()
  await db.schema
    .createTable("Session")
    .addColumn("id", "uuid", (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("userId", "uuid", (col) => col.references("User.id").onDelete("cascade").notNull())
    .addColumn("sessionToken", "text", (col) => col.notNull().unique())
    .addColumn("expires", "timestamptz", (col) => col.notNull())
    .execute()
  await db.schema
    .createTable("VerificationToken")
    .addColumn("identifier", "text", (col) => col.notNull())
    .addColumn("token", "text", (col) => col.notNull().unique())
    .addColumn("expires", "timestamptz", (col) => col.notNull())
    .execute()
  await db.schema.createIndex("Account_userId_index").on("Account").column("userId").execute()
  await db.schema.createIndex("Session_userId_index").on("Session").column("userId").execute()
}

/** The same tables for SQLite, as the adapter's own tests create them there. */
async function createSqliteSchema(db: Kysely<Database>): Promise<void> {
  await db.schema
    .createTable("User")
    .addColumn("id", "varchar", (col) => col.primaryKey())
    .addColumn("name", "text")
    .addColumn("email", "text", (col) => col.unique().notNull())
    .addColumn("emailVerified", "timestamptz")
    .addColumn("image", "text")
    .execute()
  await db.schema
    .createTable("Account")
    .addColumn("userId", "uuid", (col) => col.references("User.id").onDelete("cascade").notNull())
    .addColumn("type", "text", (col) => col.notNull())
    .addColumn("provider", "text", (col) => col.notNull())
    .addColumn("providerAccountId", "text", (col) => col.notNull())
    .addColumn("refresh_token", "text")
    .addColumn("access_token", "text")
    .addColumn("expires_at", "bigint")
    .addColumn("token_type", "text")
    .addColumn("scope", "text")
    .addColumn("id_token", "text")
    .addColumn("session_state", "text")
    .execute()
  await db.schema
    .createTable("Session")
    .addColumn("userId", "uuid", (col) => col.references("User.id").onDelete("cascade").notNull())
    .addColumn("sessionToken", "text", (col) => col.notNull().unique())
    .addColumn("expires", "timestamptz", (col) => col.notNull())
    .execute()
  await db.schema
    .createTable("VerificationToken")
    .addColumn("identifier", "text", (col) => col.notNull())
    .addColumn("token", "text", (col) => col.notNull().unique())
    .addColumn("expires", "timestamptz", (col) => col.notNull())
    .execute()
  await db.schema.createIndex("Account_userId_index").on("Account").column("userId").execute()
}

/** Where the adapter falls short of Gatehouse's suite on either database. */
const KNOWN_LIMITS = {
  "createUser: stores an absent name and image as null": "createUser returns the user it was given: a name or image left out comes back undefined, not null (getUser reads null)",
  "linkAccount: rejects a second account with the same provider and providerAccountId":
    "the documented Account table has no unique key on (provider, providerAccountId)",
  "updateSession: returns null or nothing for an unknown sessionToken and creates nothing":
    "updateSession throws Kysely's NoResultError for a session that is gone (Gatehouse updates only a row it has just read)",
}

const LACKS = ["getAccount", "createAuthenticator", "getAuthenticator", "listAuthenticatorsByUserId", "updateAuthenticatorCounter"] as const

describeAuthjsAdapter({
  name: "@auth/kysely-adapter on PostgreSQL",
  store: () => {
    const schema = testSchema()
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: schema.pool({ max: 4 }) }) })
    return {
      adapter: KyselyAdapter(db),
      open: async () => {
        await schema.create()
        await createDocumentedSchema(db)
      },
      close: async () => {
        await db.destroy()
        await schema.drop()
      },
      sessionTokens: async () => (await db.selectFrom("Session").select("sessionToken").execute()).map((row) => row.sessionToken),
      verificationTokens: () => db.selectFrom("VerificationToken").select(["identifier", "token"]).execute(),
    }
  },
  lacks: LACKS,
  knownLimits: {
    ...KNOWN_LIMITS,
    "getUser: returns null for an id the store could never have issued":
      "the documented id column is a uuid: getUser with any other string throws PostgreSQL's invalid input syntax error",
  },
})

describeAuthjsAdapter({
  name: "@auth/kysely-adapter on SQLite (better-sqlite3)",
  store: () => {
    const dir = mkdtempSync(join(tmpdir(), "gatehouse-kysely-"))
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SqliteDatabase(join(dir, "auth.db")) }) })
    return {
      adapter: KyselyAdapter(db),
      open: () => createSqliteSchema(db),
      close: async () => {
        await db.destroy()
        rmSync(dir, { recursive: true, force: true })
      },
      sessionTokens: async () => (await db.selectFrom("Session").select("sessionToken").execute()).map((row) => row.sessionToken),
      verificationTokens: () => db.selectFrom("VerificationToken").select(["identifier", "token"]).execute(),
    }
  },
  lacks: LACKS,
  knownLimits: KNOWN_LIMITS,
})

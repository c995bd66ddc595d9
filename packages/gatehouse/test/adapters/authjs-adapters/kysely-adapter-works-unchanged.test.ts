/**
 * `@auth/kysely-adapter` unchanged, with Kysely's PostgreSQL dialect over `pg`, on the schema its
 * documentation gives: its migration, run here through Kysely's schema builder as written there
 * (uuid ids from gen_random_uuid(), timestamptz, foreign keys with ON DELETE CASCADE).
 */
import { KyselyAdapter, type Database } from "@auth/kysely-adapter"
import { Kysely, PostgresDialect, sql } from "kysely"
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
  lacks: ["getAccount", "createAuthenticator", "getAuthenticator", "listAuthenticatorsByUserId", "updateAuthenticatorCounter"],
  knownLimits: {
    "createUser: stores an absent name and image as null": "createUser returns the user it was given: a name or image left out comes back undefined, not null (getUser reads null)",
    "getUser: returns null for an id the store could never have issued":
      "the documented id column is a uuid: getUser with any other string throws PostgreSQL's invalid input syntax error",
    "linkAccount: rejects a second account with the same provider and providerAccountId":
      "the documented Account table has no unique key on (provider, providerAccountId)",
    "updateSession: returns null or nothing for an unknown sessionToken and creates nothing":
      "updateSession throws Kysely's NoResultError for a session that is gone (Gatehouse updates only a row it has just read)",
  },
})

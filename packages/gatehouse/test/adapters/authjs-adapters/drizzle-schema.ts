/**
 * The tables Auth.js documents for `@auth/drizzle-adapter` ("Schemas" in its Drizzle page), for
 * SQLite and PostgreSQL, written as an app's `schema.ts` would hold them, and the DDL drizzle-kit
 * makes of them (what `drizzle-kit generate` / `push` would run). The composite keys use the
 * callback form that returns an object, as the SQLite schema and the adapter's own defaults do.
 */
import type { AdapterAccountType } from "@auth/core/adapters"
import { boolean, integer as pgInteger, pgTable, primaryKey as pgPrimaryKey, text as pgText, timestamp } from "drizzle-orm/pg-core"
import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core"

const sqliteUsers = sqliteTable("user", {
  id: text("id")
    .primaryKey()
    .$defaultFn(() => crypto.randomUUID()),
  name: text("name"),
  email: text("email").unique(),
  emailVerified: integer("emailVerified", { mode: "timestamp_ms" }),
  image: text("image"),
})

/** The documented SQLite schema, in the shape `DrizzleAdapter(db, schema)` takes. */
export const sqliteSchema = {
  usersTable: sqliteUsers,
  accountsTable: sqliteTable(
    "account",
    {
      userId: text("userId")
        .notNull()
        .references(() => sqliteUsers.id, { onDelete: "cascade" }),
      type: text("type").$type<AdapterAccountType>().notNull(),
      provider: text("provider").notNull(),
      providerAccountId: text("providerAccountId").notNull(),
      refresh_token: text("refresh_token"),
      access_token: text("access_token"),
      expires_at: integer("expires_at"),
      token_type: text("token_type"),
      scope: text("scope"),
      id_token: text("id_token"),
      session_state: text("session_state"),
    },
    (account) => ({ compoundKey: primaryKey({ columns: [account.provider, account.providerAccountId] }) }),
  ),
  sessionsTable: sqliteTable("session", {
    sessionToken: text("sessionToken").primaryKey(),
    userId: text("userId")
      .notNull()
      .references(() => sqliteUsers.id, { onDelete: "cascade" }),
    expires: integer("expires", { mode: "timestamp_ms" }).notNull(),
  }),
  verificationTokensTable: sqliteTable(
    "verificationToken",
    {
      identifier: text("identifier").notNull(),
      token: text("token").notNull(),
      expires: integer("expires", { mode: "timestamp_ms" }).notNull(),
    },
    (verificationToken) => ({ compositePk: primaryKey({ columns: [verificationToken.identifier, verificationToken.token] }) }),
  ),
  authenticatorsTable: sqliteTable(
    "authenticator",
    {
      credentialID: text("credentialID").notNull().unique(),
      userId: text("userId")
        .notNull()
        .references(() => sqliteUsers.id, { onDelete: "cascade" }),
      providerAccountId: text("providerAccountId").notNull(),
      credentialPublicKey: text("credentialPublicKey").notNull(),
      counter: integer("counter").notNull(),
      credentialDeviceType: text("credentialDeviceType").notNull(),
      credentialBackedUp: integer("credentialBackedUp", { mode: "boolean" }).notNull(),
      transports: text("transports"),
    },
    (authenticator) => ({ compositePK: primaryKey({ columns: [authenticator.userId, authenticator.credentialID] }) }),
  ),
}

const pgUsers = pgTable("user", {
  id: pgText("id")
    .primaryKey()
    .$defaultFn(() => crypto.randomUUID()),
  name: pgText("name"),
  email: pgText("email").unique(),
  emailVerified: timestamp("emailVerified", { mode: "date" }),
  image: pgText("image"),
})

/** The documented PostgreSQL schema, in the shape `DrizzleAdapter(db, schema)` takes. */
export const pgSchema = {
  usersTable: pgUsers,
  accountsTable: pgTable(
    "account",
    {
      userId: pgText("userId")
        .notNull()
        .references(() => pgUsers.id, { onDelete: "cascade" }),
      type: pgText("type").$type<AdapterAccountType>().notNull(),
      provider: pgText("provider").notNull(),
      providerAccountId: pgText("providerAccountId").notNull(),
      refresh_token: pgText("refresh_token"),
      access_token: pgText("access_token"),
      expires_at: pgInteger("expires_at"),
      token_type: pgText("token_type"),
      scope: pgText("scope"),
      id_token: pgText("id_token"),
      session_state: pgText("session_state"),
    },
    (account) => ({ compoundKey: pgPrimaryKey({ columns: [account.provider, account.providerAccountId] }) }),
  ),
  sessionsTable: pgTable("session", {
    sessionToken: pgText("sessionToken").primaryKey(),
    userId: pgText("userId")
      .notNull()
      .references(() => pgUsers.id, { onDelete: "cascade" }),
    expires: timestamp("expires", { mode: "date" }).notNull(),
  }),
  verificationTokensTable: pgTable(
    "verificationToken",
    {
      identifier: pgText("identifier").notNull(),
      token: pgText("token").notNull(),
      expires: timestamp("expires", { mode: "date" }).notNull(),
    },
    (verificationToken) => ({ compositePk: pgPrimaryKey({ columns: [verificationToken.identifier, verificationToken.token] }) }),
  ),
  authenticatorsTable: pgTable(
    "authenticator",
    {
      credentialID: pgText("credentialID").notNull().unique(),
      userId: pgText("userId")
        .notNull()
        .references(() => pgUsers.id, { onDelete: "cascade" }),
      providerAccountId: pgText("providerAccountId").notNull(),
      credentialPublicKey: pgText("credentialPublicKey").notNull(),
      counter: pgInteger("counter").notNull(),
      credentialDeviceType: pgText("credentialDeviceType").notNull(),
      credentialBackedUp: boolean("credentialBackedUp").notNull(),
      transports: pgText("transports"),
    },
    (authenticator) => ({ compositePK: pgPrimaryKey({ columns: [authenticator.userId, authenticator.credentialID] }) }),
  ),
}

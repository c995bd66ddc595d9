/**
 * Errors shaped as database drivers and query builders throw them, quoting what they were given:
 * Drizzle's failed query lists the bound values after `params:`, and a driver may name the
 * connection URL, password and all.
 */
import type { Adapter } from "../../src/adapters/index.js"

/** A password for the database URL a driver's message quotes. */
export const DB_PASSWORD = `pw-${crypto.randomUUID()}`

/** As drizzle-orm's DrizzleQueryError: `Failed query: <sql>\nparams: <values>`, the driver's error as its cause. */
export function drizzleQueryError(query: string, params: readonly unknown[]): Error {
  const driver = new Error(`connection to postgres://gatehouse:${DB_PASSWORD}@db.internal:5432/app lost: terminating connection due to administrator command`)
  const error = new Error(`Failed query: ${query}\nparams: ${params.map(String).join(",")}`, { cause: driver })
  error.name = "DrizzleQueryError"
  return error
}

/**
 * `real` with `method` failing as Drizzle reports it, its parameters (the values bound to the
 * insert: tokens, for linkAccount and createSession) in the message.
 */
export function failingAsDrizzle(real: Adapter, method: "linkAccount" | "createSession"): Adapter {
  return {
    ...real,
    [method]: (row: Record<string, unknown>) => {
      throw drizzleQueryError(`insert into "${method === "linkAccount" ? "account" : "session"}" (${Object.keys(row).map((key) => `"${key}"`).join(", ")}) values (${Object.keys(row).map((_, i) => `$${i + 1}`).join(", ")})`, Object.values(row))
    },
  }
}

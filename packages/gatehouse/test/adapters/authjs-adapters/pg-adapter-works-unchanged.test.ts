/**
 * `@auth/pg-adapter` unchanged, on the schema its documentation gives (SERIAL integer ids, no
 * foreign keys, no unique indexes) in a PostgreSQL schema of this file's own.
 */
import PostgresAdapter from "@auth/pg-adapter"
import { testSchema } from "../../support/postgres.js"
import { describeAuthjsAdapter } from "./authjs-adapter-checks.js"
import { authjsSchema } from "./pg-adapter-schema.js"

describeAuthjsAdapter({
  name: "@auth/pg-adapter on PostgreSQL",
  store: () => {
    const schema = testSchema()
    const pool = schema.pool({ max: 4 })
    return {
      adapter: PostgresAdapter(pool),
      open: async () => {
        await schema.create()
        await pool.query(authjsSchema)
      },
      close: () => schema.drop(),
      sessionTokens: async () => (await pool.query<{ sessionToken: string }>(`SELECT "sessionToken" FROM sessions`)).rows.map((row) => row.sessionToken),
      verificationTokens: async () => (await pool.query<{ identifier: string; token: string }>("SELECT identifier, token FROM verification_token")).rows,
    }
  },
  lacks: ["getAccount", "createAuthenticator", "getAuthenticator", "listAuthenticatorsByUserId", "updateAuthenticatorCounter"],
  knownLimits: {
    "createUser: returns the stored user with a string id":
      "ids are the documented SERIAL column's numbers, returned as numbers (Gatehouse takes numeric ids as they are)",
    "updateUser: leaves fields given as undefined unchanged":
      "updateUser writes every column from the stored row spread with the changes, so a field given as undefined is written as null (Gatehouse never passes one)",
    "deleteUser: returns null or nothing for an unknown id":
      "deleteUser with an id that is not an integer throws PostgreSQL's invalid input syntax error",
    "linkAccount: rejects a second account with the same provider and providerAccountId":
      "the documented accounts table has no unique key on (provider, providerAccountId)",
    "createSession: rejects a sessionToken already in use": "the documented sessions table has no unique key on sessionToken",
    "updateSession: leaves fields given as undefined unchanged":
      "updateSession writes expires from the changes spread over the stored row, so an expires given as undefined is written as null and refused (Gatehouse always passes one)",
  },
})

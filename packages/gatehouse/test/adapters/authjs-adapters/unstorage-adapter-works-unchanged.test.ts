/**
 * `@auth/unstorage-adapter` unchanged, on unstorage's memory driver and on its Redis driver against
 * the run's real Redis (a key prefix of this file's own). Unstorage has no schema: the adapter
 * writes JSON values under its documented key prefixes, which the helpers below read directly.
 */
import { UnstorageAdapter } from "@auth/unstorage-adapter"
import { createStorage, type Storage } from "unstorage"
import memoryDriver from "unstorage/drivers/memory"
import redisDriver from "unstorage/drivers/redis"
import { randomPrefix, redisUrl } from "../../support/redis.js"
import { describeAuthjsAdapter, type AuthjsStore } from "./authjs-adapter-checks.js"

const SESSIONS = "user:session:"
const SESSIONS_BY_USER = "user:session:by-user-id:"
const TOKENS = "user:token:"

/** The store behind the adapter, read through unstorage's own key listing. */
function unstorageStore(storage: Storage): AuthjsStore {
  return {
    adapter: UnstorageAdapter(storage),
    open: async () => {},
    close: () => storage.dispose(),
    sessionTokens: async () =>
      (await storage.getKeys("user:session"))
        .filter((key) => key.startsWith(SESSIONS) && !key.startsWith(SESSIONS_BY_USER))
        .map((key) => key.slice(SESSIONS.length)),
    verificationTokens: async () =>
      (await storage.getKeys("user:token")).map((key) => {
        // `user:token:<identifier>:<token>`; the token (a hex digest) has no colon.
        const rest = key.slice(TOKENS.length)
        const colon = rest.lastIndexOf(":")
        return { identifier: rest.slice(0, colon), token: rest.slice(colon + 1) }
      }),
  }
}

const DELETE_USER =
  "deleteUser rejects (\"[unstorage] Invalid key: null\") for a user without a linked account or without a session, after removing the user's own keys; it removes one account and one session (the last its by-user-id keys name) and no authenticators"

/** Where unstorage's adapter falls short of Gatehouse's suite; the same on every driver. */
const knownLimits = {
  "createUser: stores an absent name and image as null": "createUser stores the user as given: a name or image left out comes back undefined, not null",
  "updateUser: leaves fields given as undefined unchanged":
    "updateUser spreads the changes over the stored JSON, so a field given as undefined is dropped (Gatehouse never passes one)",
  "updateUser: rejects an unknown id": "updateUser writes a new record for an unknown id",
  "deleteUser: removes the user and returns it or nothing": DELETE_USER,
  "deleteUser: removes the user's sessions": DELETE_USER,
  "deleteUser: removes the user's accounts": DELETE_USER,
  "deleteUser: removes the user's accounts, also as seen by getAccount": DELETE_USER,
  "deleteUser: removes the user's authenticators": DELETE_USER,
  "deleteUser: leaves other users and what they hold alone": DELETE_USER,
  "linkAccount: rejects a second account with the same provider and providerAccountId":
    "linkAccount overwrites the record kept under provider:providerAccountId, moving the account to the second user",
  "createSession: rejects a sessionToken already in use": "createSession overwrites the record kept under the token",
  "updateSession: leaves fields given as undefined unchanged":
    "updateSession spreads the changes over the stored JSON, so a userId given as undefined is dropped and the session loses its user (Gatehouse passes expires only)",
  "useVerificationToken: of 50 concurrent uses of one token exactly one gets it":
    "useVerificationToken reads the token, then removes it: concurrent uses of one link all get it",
  "createAuthenticator: rejects a credentialID already in use": "createAuthenticator overwrites the record kept under the credential id",
}

describeAuthjsAdapter({
  name: "@auth/unstorage-adapter on unstorage's memory driver",
  store: () => unstorageStore(createStorage({ driver: memoryDriver() })),
  lacks: [],
  knownLimits,
})

describeAuthjsAdapter({
  name: "@auth/unstorage-adapter on unstorage's Redis driver (a real Redis)",
  store: () => unstorageStore(createStorage({ driver: redisDriver({ url: redisUrl(), base: randomPrefix() }) })),
  lacks: [],
  knownLimits,
})

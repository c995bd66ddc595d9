/**
 * Fresh rows for the conformance tests. Every builder makes new ids, emails and tokens, so tests
 * never meet each other's rows in a shared store. Dates are whole seconds in the future or past,
 * so that stores keeping seconds or microseconds give back the same value.
 * @module
 */
import { randomUUID } from "node:crypto"
import type {
  AdapterAccount,
  AdapterAuthenticator,
  AdapterSession,
  AdapterUser,
  VerificationToken,
} from "../../adapters/index.js"
import type { FullAdapter } from "./case.js"

/** A Date `seconds` from now, rounded down to a whole second. */
export function secondsFromNow(seconds: number): Date {
  return new Date((Math.floor(Date.now() / 1000) + seconds) * 1000)
}

const HOUR = 60 * 60
const DAY = 24 * HOUR

/** A user with every field set; its email is as unique as its id. */
export function userFixture(fields: Partial<AdapterUser> = {}): AdapterUser {
  const id = randomUUID()
  return {
    id,
    email: `user-${id}@example.com`,
    emailVerified: secondsFromNow(-DAY),
    name: "Ada Lovelace",
    image: `https://example.com/avatars/${id}.png`,
    ...fields,
  }
}

/** An OAuth account of `userId` with the token fields a provider returns. */
export function accountFixture(userId: string, fields: Partial<AdapterAccount> = {}): AdapterAccount {
  return {
    userId,
    type: "oauth",
    provider: "github",
    providerAccountId: randomUUID(),
    access_token: `access-${randomUUID()}`,
    refresh_token: `refresh-${randomUUID()}`,
    id_token: `id-${randomUUID()}`,
    scope: "read:user user:email",
    token_type: "bearer",
    // Seconds since the epoch, as OAuth has it: a number, not a Date.
    expires_at: Math.floor(Date.now() / 1000) + HOUR,
    ...fields,
  }
}

/** A session of `userId` that expires in a week. */
export function sessionFixture(userId: string, fields: Partial<AdapterSession> = {}): AdapterSession {
  return { sessionToken: randomUUID(), userId, expires: secondsFromNow(7 * DAY), ...fields }
}

/** A verification token that expires in a day; `token` stands in for the stored hash. */
export function verificationTokenFixture(fields: Partial<VerificationToken> = {}): VerificationToken {
  return {
    identifier: `user-${randomUUID()}@example.com`,
    token: randomUUID().replaceAll("-", ""),
    expires: secondsFromNow(DAY),
    ...fields,
  }
}

/** A passkey of `userId`. */
export function authenticatorFixture(userId: string, fields: Partial<AdapterAuthenticator> = {}): AdapterAuthenticator {
  const credentialID = Buffer.from(randomUUID()).toString("base64url")
  return {
    credentialID,
    userId,
    providerAccountId: credentialID,
    credentialPublicKey: Buffer.from(`public-key-${randomUUID()}`).toString("base64"),
    counter: 0,
    credentialDeviceType: "multiDevice",
    credentialBackedUp: true,
    transports: "internal,hybrid",
    ...fields,
  }
}

/** A user stored through `createUser`, as the adapter returned it (its id may be the adapter's own). */
export async function storedUser(adapter: FullAdapter, fields: Partial<AdapterUser> = {}): Promise<AdapterUser> {
  return adapter.createUser(userFixture(fields))
}

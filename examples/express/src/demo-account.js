// @ts-check
/**
 * The demo account: a seeded user whose password hash (from `gatehouse-auth/password`) lives in a
 * table of the demo's own, next to Gatehouse's tables in the same SQLite file, and the
 * credentials check that signs it in.
 */
import { hashPassword, needsRehash, PasswordHashError, verifyPassword } from "gatehouse-auth/password"

export const DEMO_EMAIL = "demo@example.com"
export const DEMO_PASSWORD = "correct horse battery staple"

/** @typedef {import("gatehouse-auth/adapters/sqlite").SQLiteAdapterMethods} Adapter */

/**
 * Creates the demo user and its password hash on first run. A stored hash `gatehouse-auth/password`
 * cannot read (earlier versions of the demo wrote `scrypt$N$r$p$salt$key`) is replaced: the demo
 * knows its own password, which a real app would not.
 * @param {import("better-sqlite3").Database} db
 * @param {Adapter} adapter
 */
export async function seedDemoUser(db, adapter) {
  db.exec("CREATE TABLE IF NOT EXISTS demo_passwords (user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE, hash TEXT NOT NULL)")
  const existing = await adapter.getUserByEmail(DEMO_EMAIL)
  const stored = existing ? storedHash(db, existing.id) : undefined
  if (stored !== undefined && readable(stored)) return
  // The demo owns its seeded address: stored as proven, so an email sign-in to it takes nothing away.
  const user = existing ?? (await adapter.createUser({ id: crypto.randomUUID(), name: "Demo User", email: DEMO_EMAIL, emailVerified: new Date() }))
  saveHash(db, user.id, await hashPassword(DEMO_PASSWORD))
}

/**
 * The credentials provider's `authorize`: the user for the right email and password, else null.
 * A hash made with weaker parameters than today's is replaced once the password is known.
 * @param {import("better-sqlite3").Database} db
 * @param {Adapter} adapter
 * @returns {Promise<(credentials: Partial<Record<string, unknown>>) => Promise<import("gatehouse-auth").User | null>>}
 */
export async function demoPasswordCheck(db, adapter) {
  // Without a password on file, check against a stand-in anyway: answering sooner would tell
  // who has an account.
  const standInHash = await hashPassword(crypto.randomUUID())
  return async ({ email, password }) => {
    if (typeof email !== "string" || typeof password !== "string") return null
    const user = await adapter.getUserByEmail(email.trim().toLowerCase())
    const hash = user ? storedHash(db, user.id) : undefined
    const matches = await verifyPassword(password, hash ?? standInHash)
    if (!user || hash === undefined || !matches) return null
    if (needsRehash(hash)) saveHash(db, user.id, await hashPassword(password))
    return user
  }
}

/**
 * The credentials provider's `revokeCredentials`: removes the user's password; whether there was one.
 * @param {import("better-sqlite3").Database} db
 * @param {string} userId
 * @returns {boolean}
 */
export function forgetPassword(db, userId) {
  return db.prepare("DELETE FROM demo_passwords WHERE user_id = ?").run(userId).changes > 0
}

/**
 * @param {import("better-sqlite3").Database} db
 * @param {string} userId
 * @returns {string | undefined}
 */
function storedHash(db, userId) {
  const row = /** @type {{ hash: string } | undefined} */ (db.prepare("SELECT hash FROM demo_passwords WHERE user_id = ?").get(userId))
  return row?.hash
}

/**
 * @param {import("better-sqlite3").Database} db
 * @param {string} userId
 * @param {string} hash
 */
function saveHash(db, userId, hash) {
  db.prepare("INSERT INTO demo_passwords (user_id, hash) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET hash = excluded.hash").run(userId, hash)
}

/** @param {string} hash */
function readable(hash) {
  try {
    needsRehash(hash)
    return true
  } catch (error) {
    if (error instanceof PasswordHashError) return false
    throw error
  }
}

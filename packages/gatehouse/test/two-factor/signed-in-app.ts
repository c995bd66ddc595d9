/**
 * Shared by the step-up and recent-auth tests: an application with `twoFactor` and the account
 * routes, on JWT sessions (memory adapter) or database sessions (memory and SQLite adapters), a
 * browser-like client signed in with a password, and a TOTP computed here (not by the module).
 */
import Database from "better-sqlite3"
import { randomBytes } from "node:crypto"
import { vi } from "vitest"
import type { Adapter, AdapterUser } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { SQLiteAdapter } from "../../src/adapters/sqlite.js"
import { recoveryCodeHashes } from "../../src/core/two-factor/recovery-codes.js"
import { sealTotpSecret } from "../../src/core/two-factor/secret-seal.js"
import { Credentials } from "../../src/providers/credentials.js"
import type { AuthConfig, SessionAuthentication, SessionStrategy } from "../../src/types.js"
import { Client, recordingLogger, secret } from "../flow/flow-helpers.js"
import { totpNow } from "../support/totp-reference.js"
export { totpAt, totpNow } from "../support/totp-reference.js"

export const ORIGIN = "https://app.test"
export const SESSION = "__Secure-authjs.session-token"
export const DASHBOARD = `${ORIGIN}/dashboard`
export const SETTINGS = `${ORIGIN}/settings`
export const RECOVERY_CODES = ["7QJXM-2KD9W-TRH4N-PC8ZV-3QEMA", "H4NPC-8ZV3Q-EM7QJ-XM2KD-9WTRB"]
/** `twoFactor.freshAge` of these apps (the default). */
export const FRESH_AGE_MS = 600_000

export type Adapted = Adapter &
  Required<Pick<Adapter, "setTotpPendingSecret" | "enableTotp" | "createUser" | "listSessionsByUserId" | "getTwoFactor" | "linkAccount" | "listAccountsByUserId">>

/** Where sessions live: the strategy and the adapter. */
export interface Store {
  name: string
  strategy: SessionStrategy
  adapter(): { adapter: Adapted; close(): void }
}

export const stores: Store[] = [
  { name: "JWT sessions (memory adapter)", strategy: "jwt", adapter: () => ({ adapter: MemoryAdapter() as Adapted, close: () => {} }) },
  { name: "database sessions (memory adapter)", strategy: "database", adapter: () => ({ adapter: MemoryAdapter() as Adapted, close: () => {} }) },
  {
    name: "database sessions (SQLite adapter)",
    strategy: "database",
    adapter: () => {
      const db = new Database(":memory:")
      return { adapter: SQLiteAdapter(db) as Adapted, close: () => db.close() }
    },
  },
]

/** Moves the faked `Date` on by `ms` (faking it first). */
export function moveClock(ms: number): void {
  const now = Date.now()
  if (!vi.isFakeTimers()) vi.useFakeTimers({ toFake: ["Date"] })
  vi.setSystemTime(now + ms)
}

/**
 * An application whose user Ada signs in with a password; `close()` after the test. `extra`'s
 * providers come after the credentials provider.
 */
export async function signedInApp(store: Store, { providers = [], ...extra }: Partial<AuthConfig> = {}, twoFactor = true) {
  const { adapter, close } = store.adapter()
  const { id: uid } = await adapter.createUser({ id: "", name: "Ada", email: "ada@app.test", emailVerified: null } as AdapterUser)
  const events: { method: string; success: boolean }[] = []
  const config: AuthConfig = {
    secret,
    trustHost: true,
    logger: recordingLogger().logger,
    adapter,
    session: { strategy: store.strategy },
    account: { routes: true, canUseCredentials: () => true },
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: ({ password }) => (password === "correct horse" ? { id: uid, name: "Ada", email: "ada@app.test" } : null),
        rateLimit: false,
      }),
      ...providers,
    ],
    ...(twoFactor && { twoFactor: { totp: { issuer: "Gatehouse tests" }, require: "enrolled" as const } }),
    events: { twoFactorChallenge: ({ method, success }) => void events.push({ method, success }) },
    ...extra,
  }
  const client = new Client(config)
  let key: Uint8Array | undefined

  /** Enables TOTP (and the recovery codes) for Ada, straight through the adapter. */
  const enrol = async (): Promise<Uint8Array> => {
    key = new Uint8Array(randomBytes(20))
    const sealed = await sealTotpSecret({ secret: [secret] }, uid, key)
    await adapter.setTotpPendingSecret(uid, sealed)
    await adapter.enableTotp(uid, { sealed, step: Math.floor(Date.now() / 30_000) - 5, recoveryCodeHashes: await recoveryCodeHashes(uid, RECOVERY_CODES) })
    return key
  }

  /** Signs `on` in with the password, and with the TOTP when Ada is enrolled. */
  const signIn = async (on: Client = client): Promise<void> => {
    const first = await on.signIn({ username: "ada", password: "correct horse", callbackUrl: DASHBOARD })
    if (first.headers.get("location") === DASHBOARD) return
    if (!key) throw new Error(`Sign-in went to ${first.headers.get("location")}`)
    const second = await on.postForm("two-factor", { csrfToken: await on.csrfToken(), code: totpNow(key) })
    if (second.headers.get("location") !== DASHBOARD) throw new Error(`The second factor went to ${second.headers.get("location")}`)
  }

  /** `POST two-factor` from the signed-in client. */
  const stepUp = async (fields: Record<string, string>, on: Client = client): Promise<Response> =>
    on.postForm("two-factor", { csrfToken: await on.csrfToken(), ...fields })

  const authentication = async (on: Client = client): Promise<SessionAuthentication | undefined> =>
    ((await on.session()) as { authentication?: SessionAuthentication } | null)?.authentication

  /** `POST sessions` with `revokeOthers=true` (JSON answer). */
  const revokeOthers = async (on: Client = client): Promise<Response> => on.postForm("sessions", { csrfToken: await on.csrfToken(), revokeOthers: "true" })

  return { adapter, uid, config, client, events, enrol, signIn, stepUp, authentication, revokeOthers, close, key: () => key! }
}

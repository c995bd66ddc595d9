/**
 * Adapters that fail on purpose, for the fault tests. A real store (the memory adapter, or the
 * SQLite adapter on an in-memory database) is wrapped so that one chosen call throws, answers
 * garbage after the store did its work, or waits until the test lets it go. Every call is
 * recorded, so a test can first watch which calls a step makes and then break each in turn.
 *
 * Each store can also be looked at whole (`snapshot`), through its own reads, to check that a
 * failed step left nothing half-written.
 */
import Database from "better-sqlite3"
import type { StoredAdapter } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { SQLiteAdapter } from "../../src/adapters/sqlite.js"

export type AdapterMethod = keyof StoredAdapter

/**
 * What a failing database driver says: a host, a port, a table. It must reach the log (as the
 * cause of an AdapterError) and never a response.
 */
export const DRIVER_MESSAGE = 'connect ECONNREFUSED 10.20.30.40:5432 while writing relation "users"'

export function driverError(): Error {
  return Object.assign(new Error(DRIVER_MESSAGE), { code: "ECONNREFUSED" })
}

/** A wrong answer, made from the right one (so it can be "the row, but in an array"). */
export interface Garbage {
  name: string
  /** The garbage to answer instead of `real`, or `undefined` when this kind does not fit that answer. */
  from(real: unknown, method: AdapterMethod): { value: unknown } | undefined
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date)

/**
 * Methods whose contract is to answer with a row or a count. From the others `null` is an
 * ordinary answer ("no such user", "that session is gone"), which the flow tests cover.
 */
const ANSWER_REQUIRED: ReadonlySet<AdapterMethod> = new Set<AdapterMethod>([
  "createUser",
  "updateUser",
  "linkAccount",
  "createSession",
  "createAuthenticator",
  "updateAuthenticatorCounter",
  "hitRateLimit",
  "listAccountsByUserId",
  "listAuthenticatorsByUserId",
])

const always = (value: unknown) => () => ({ value })

/**
 * The garbage the matrix answers with: null where a row is required, wrong types, arrays,
 * strings, a user without an id, a session whose expiry is no date.
 */
export const GARBAGE: readonly Garbage[] = [
  { name: "null where a row is required", from: (_real, method) => (ANSWER_REQUIRED.has(method) ? { value: null } : undefined) },
  { name: "nothing where a row is required", from: (_real, method) => (ANSWER_REQUIRED.has(method) ? { value: undefined } : undefined) },
  { name: "a string", from: always("garbage") },
  { name: "NaN", from: always(Number.NaN) },
  { name: "an empty object", from: always({}) },
  { name: "the answer inside an array", from: (real) => ({ value: [real] }) },
  {
    name: "every field a boolean",
    from: (real) => {
      if (!isRecord(real)) return undefined
      const flip = (row: unknown) => (isRecord(row) ? Object.fromEntries(Object.keys(row).map((key) => [key, true])) : true)
      return { value: "session" in real && "user" in real ? { session: flip(real.session), user: flip(real.user) } : flip(real) }
    },
  },
  {
    name: "a user without an id",
    from: (real) => {
      if (!isRecord(real)) return undefined
      if (isRecord(real.user)) return { value: { ...real, user: { ...real.user, id: undefined } } }
      return "email" in real && "id" in real ? { value: { ...real, id: undefined } } : undefined
    },
  },
  {
    name: "an expiry that is no date",
    from: (real) => {
      if (!isRecord(real)) return undefined
      if (isRecord(real.session)) return { value: { ...real, session: { ...real.session, expires: "soon" } } }
      return "expires" in real ? { value: { ...real, expires: "soon" } } : undefined
    },
  },
]

/** A call held by the test: it goes on to the store, or fails, only when told. */
export class Hold {
  /** Settles once the held call has been made. */
  readonly reached: Promise<void>
  private arrive!: () => void
  private decide!: (outcome: "release" | "fail") => void
  private readonly decision = new Promise<"release" | "fail">((resolve) => (this.decide = resolve))

  constructor() {
    this.reached = new Promise<void>((resolve) => (this.arrive = resolve))
  }

  /** Lets the call through to the store. */
  release(): void {
    this.decide("release")
  }

  /** Makes the call fail with the driver's error instead. */
  fail(): void {
    this.decide("fail")
  }

  /** Used by the adapter: marks the call as made and waits for the test's decision. */
  wait(): Promise<"release" | "fail"> {
    this.arrive()
    return this.decision
  }
}

export type Fault =
  /** Rejects with the driver's error before the store is touched. */
  | { kind: "throw" }
  /** The store does its work; the core gets garbage instead of its answer. */
  | { kind: "garbage"; garbage: Garbage }
  /** Waits for the test (see {@link Hold}). */
  | { kind: "hold"; hold: Hold }

/** Which call a fault hits: the `at`-th call after arming (from 0), or the `nth` call of `method`. */
export type Target = { at: number } | { method: AdapterMethod; nth?: number }

export interface RecordedCall {
  method: AdapterMethod
  /** Whether the fault was applied to this call. */
  faulted: boolean
}

export interface FaultyAdapter {
  /** Give this to the configuration. */
  readonly adapter: StoredAdapter
  /** Calls since the last `arm` or `watch`, in order. */
  readonly calls: RecordedCall[]
  /** Starts recording afresh, with no fault. */
  watch(): void
  /** Starts recording afresh; the targeted call will fail as `fault` says (once). */
  arm(target: Target, fault: Fault): void
  /** No fault from now on (recording goes on). */
  disarm(): void
  /** Whether the armed fault was applied. */
  readonly fired: boolean
}

/** Wraps `real`: without an armed fault every call goes straight through. */
export function faultyAdapter(real: StoredAdapter): FaultyAdapter {
  let armed: { target: Target; fault: Fault } | undefined
  let fired = false
  const calls: RecordedCall[] = []

  function hits(method: AdapterMethod): boolean {
    if (!armed || fired) return false
    const { target } = armed
    if ("at" in target) return calls.length === target.at
    const earlier = calls.filter((call) => call.method === method).length
    return target.method === method && earlier === (target.nth ?? 0)
  }

  const wrapped = Object.fromEntries(
    (Object.keys(real) as AdapterMethod[]).map((method) => {
      const call = async (...args: unknown[]): Promise<unknown> => {
        const run = () => (real[method] as (...params: unknown[]) => Promise<unknown>)(...args)
        const record: RecordedCall = { method, faulted: false }
        const fault = hits(method) ? armed!.fault : undefined
        calls.push(record)
        if (!fault) return run()
        if (fault.kind === "garbage") {
          const stored = await run()
          const answer = fault.garbage.from(stored, method)
          // Garbage of a kind that does not fit this answer: the call counts as not broken.
          if (!answer) return stored
          record.faulted = fired = true
          return answer.value
        }
        record.faulted = fired = true
        if (fault.kind === "throw" || (await fault.hold.wait()) === "fail") throw driverError()
        return run()
      }
      return [method, call]
    }),
  ) as unknown as StoredAdapter

  return {
    adapter: wrapped,
    calls,
    watch() {
      calls.length = 0
      armed = undefined
      fired = false
    },
    arm(target, fault) {
      calls.length = 0
      armed = { target, fault }
      fired = false
    },
    disarm() {
      armed = undefined
    },
    get fired() {
      return fired
    },
  }
}

/** A store as its own reads show it, reduced to what the invariants are about. */
export interface StoreSnapshot {
  users: { id: string; email: string | null; verified: boolean }[]
  accounts: { userId: string; provider: string; providerAccountId: string; type: string }[]
  sessions: { userId: string }[]
  verificationTokens: { identifier: string }[]
  authenticators: { credentialID: string; userId: string; providerAccountId: string }[]
}

/** A fresh store of one kind: the real adapter, a way to look at everything in it, and cleanup. */
export interface FaultStore {
  readonly real: StoredAdapter
  snapshot(): Promise<StoreSnapshot>
  close(): void
}

export interface StoreKind {
  name: string
  open(): FaultStore
}

/**
 * The memory adapter has no way to list its rows, so every key written through it is noted and
 * read back through its own getters (a verification token is taken and put back again).
 */
function memoryStore(): FaultStore {
  const base = MemoryAdapter()
  const keys = {
    users: new Set<string>(),
    accounts: new Map<string, { provider: string; providerAccountId: string }>(),
    sessions: new Set<string>(),
    tokens: new Map<string, { identifier: string; token: string }>(),
    authenticators: new Set<string>(),
  }
  const real: StoredAdapter = {
    ...base,
    createUser: async (user) => {
      const created = await base.createUser(user)
      keys.users.add(created.id)
      return created
    },
    linkAccount: async (account) => {
      const linked = await base.linkAccount(account)
      keys.accounts.set(`${account.provider}\u0000${account.providerAccountId}`, account)
      return linked
    },
    createSession: async (session) => {
      const created = await base.createSession(session)
      keys.sessions.add(session.sessionToken)
      return created
    },
    createVerificationToken: async (token) => {
      const created = await base.createVerificationToken(token)
      keys.tokens.set(`${token.identifier}\u0000${token.token}`, token)
      return created
    },
    createAuthenticator: async (authenticator) => {
      const created = await base.createAuthenticator(authenticator)
      keys.authenticators.add(authenticator.credentialID)
      return created
    },
  }
  return {
    real,
    close: () => {},
    async snapshot() {
      const snapshot: StoreSnapshot = { users: [], accounts: [], sessions: [], verificationTokens: [], authenticators: [] }
      for (const id of keys.users) {
        const user = await base.getUser(id)
        if (user) snapshot.users.push({ id: user.id, email: user.email, verified: user.emailVerified !== null })
      }
      for (const { provider, providerAccountId } of keys.accounts.values()) {
        const account = await base.getAccount(providerAccountId, provider)
        if (account) snapshot.accounts.push({ userId: account.userId, provider, providerAccountId, type: account.type })
      }
      for (const token of keys.sessions) {
        const found = await base.getSessionAndUser(token)
        if (found) snapshot.sessions.push({ userId: found.session.userId })
      }
      for (const key of keys.tokens.values()) {
        const found = await base.useVerificationToken(key)
        if (!found) continue
        await base.createVerificationToken(found)
        snapshot.verificationTokens.push({ identifier: found.identifier })
      }
      for (const credentialID of keys.authenticators) {
        const found = await base.getAuthenticator(credentialID)
        if (found) snapshot.authenticators.push({ credentialID, userId: found.userId, providerAccountId: found.providerAccountId })
      }
      return snapshot
    },
  }
}

/** SQLite on an in-memory database, read back with plain SQL. */
function sqliteStore(): FaultStore {
  const db = new Database(":memory:")
  const real = SQLiteAdapter(db)
  const all = <T>(sql: string) => db.prepare(sql).all() as T[]
  return {
    real,
    close: () => db.close(),
    async snapshot() {
      // The adapter creates its tables on first use; a store nobody used yet is empty.
      const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'users'").get()
      if (!exists) return { users: [], accounts: [], sessions: [], verificationTokens: [], authenticators: [] }
      return {
        users: all<{ id: string; email: string | null; emailVerified: number | null }>(`SELECT id, email, "emailVerified" FROM users`).map(
          (row) => ({ id: row.id, email: row.email, verified: row.emailVerified !== null }),
        ),
        accounts: all(`SELECT "userId", provider, "providerAccountId", type FROM accounts`),
        sessions: all(`SELECT "userId" FROM sessions`),
        verificationTokens: all(`SELECT identifier FROM verification_token`),
        authenticators: all(`SELECT "credentialID", "userId", "providerAccountId" FROM authenticators`),
      }
    },
  }
}

export const STORE_KINDS: readonly StoreKind[] = [
  { name: "memory", open: memoryStore },
  { name: "SQLite", open: sqliteStore },
]

/**
 * What no failure may leave behind, whatever the step: rows pointing at users who are not there,
 * a user who came from an account sign-up without the account, two users for one address, a
 * passkey account without its passkey (or the other way round).
 *
 * @param accountless - Ids of users allowed to have no account (seeded by the test); users
 *   verified by email need none either.
 */
export function halfWritten(snapshot: StoreSnapshot, accountless: ReadonlySet<string> = new Set()): string[] {
  const problems: string[] = []
  const users = new Set(snapshot.users.map((user) => user.id))
  for (const session of snapshot.sessions) if (!users.has(session.userId)) problems.push(`a session of missing user ${session.userId}`)
  for (const account of snapshot.accounts) if (!users.has(account.userId)) problems.push(`a ${account.provider} account of missing user ${account.userId}`)
  for (const user of snapshot.users) {
    const owns = snapshot.accounts.some((account) => account.userId === user.id)
    if (!owns && !user.verified && !accountless.has(user.id)) problems.push(`user ${user.id} (${user.email}) has no account`)
  }
  const emails = snapshot.users.map((user) => user.email).filter((email): email is string => email !== null)
  for (const email of new Set(emails)) if (emails.filter((other) => other === email).length > 1) problems.push(`two users with ${email}`)
  for (const account of snapshot.accounts.filter((candidate) => candidate.type === "webauthn")) {
    if (!snapshot.authenticators.some((authenticator) => authenticator.providerAccountId === account.providerAccountId)) {
      problems.push(`passkey account ${account.providerAccountId} has no passkey`)
    }
  }
  for (const authenticator of snapshot.authenticators) {
    const account = snapshot.accounts.find((candidate) => candidate.providerAccountId === authenticator.providerAccountId)
    if (!account || account.userId !== authenticator.userId) problems.push(`passkey ${authenticator.credentialID} has no account of its user`)
  }
  return problems
}

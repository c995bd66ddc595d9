/**
 * The one way the core calls an adapter: a missing adapter or method is reported by name,
 * whatever the adapter throws arrives as an {@link AdapterError} with the original as its cause,
 * so a driver's message (which may name tables, hosts or values) is logged but never shown, and
 * a result the core would go on to use is checked for the shape it relies on first.
 * @module
 */
import type { Adapter } from "../adapters/index.js"
import { AdapterError, AuthError, MissingAdapter, MissingAdapterMethods } from "../errors.js"

type AdapterMethod = keyof Adapter
type MethodOf<M extends AdapterMethod> = Extract<NonNullable<Adapter[M]>, (...args: never[]) => unknown>

/**
 * Calls `adapter[method](...args)` with the adapter as `this` (class-based adapters need it).
 *
 * @throws {AdapterError} when the method throws, or returns something that is not what the core
 *   uses it as (say, a user without an id, a string where a row belongs, a count that is no number).
 * @example
 * ```ts
 * const found = await callAdapter(config.adapter, "getSessionAndUser", sessionToken)
 * ```
 */
export async function callAdapter<M extends AdapterMethod>(
  adapter: Adapter | undefined,
  method: M,
  ...args: Parameters<MethodOf<M>>
): Promise<Awaited<ReturnType<MethodOf<M>>>> {
  if (!adapter) throw new MissingAdapter(`This operation needs an adapter (it calls ${method}); set \`adapter\` in the configuration`)
  const fn: unknown = adapter[method]
  if (typeof fn !== "function") {
    throw new MissingAdapterMethods(`The adapter does not implement ${method}, which this operation needs`)
  }
  let result: unknown
  try {
    result = await fn.apply(adapter, args)
  } catch (error) {
    // An AuthError thrown on purpose (say, from an overridden method) keeps its meaning.
    if (error instanceof AuthError) throw error
    throw new AdapterError(`Adapter method ${method} failed`, { cause: error })
  }
  const expected = EXPECTED_RESULTS[method]
  // Garbage taken at face value would sign someone in as nobody, or count a rate limit as never reached.
  if (expected && !expected.accepts(result)) {
    throw new AdapterError(`Adapter method ${method} returned ${describe(result)}, not ${expected.what}`)
  }
  // A buggy or shared store may list other users' rows too: a user must never see, end, unlink or
  // spend what is someone else's, so every listing by user is cut to that user's rows here, once.
  if (LISTS_BY_USER.has(method)) {
    const owner = String(args[0])
    result = (result as Record<string, unknown>[]).filter((row) => String(row.userId) === owner)
  }
  return result as Awaited<ReturnType<MethodOf<M>>>
}

interface Expectation {
  what: string
  accepts(value: unknown): boolean
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const absent = (value: unknown): boolean => value === null || value === undefined

// Auth.js's SQL adapters hand back serial ids as numbers; both kinds identify a row.
const isId = (value: unknown): boolean => (typeof value === "string" && value !== "") || (typeof value === "number" && Number.isFinite(value))

const isUser = (value: unknown): boolean => isRecord(value) && isId(value.id)

const isAccount = (value: unknown): boolean =>
  isRecord(value) && isId(value.userId) && typeof value.provider === "string" && typeof value.providerAccountId === "string"

const isAuthenticator = (value: unknown): boolean =>
  isRecord(value) &&
  isId(value.userId) &&
  typeof value.credentialID === "string" &&
  typeof value.credentialPublicKey === "string" &&
  typeof value.providerAccountId === "string" &&
  typeof value.counter === "number"

const user: Expectation = { what: "a user with an id", accepts: isUser }
const userOrNone: Expectation = { what: "a user with an id, or null", accepts: (value) => absent(value) || isUser(value) }
const accountOrNone: Expectation = { what: "an account, or null", accepts: (value) => absent(value) || isAccount(value) }
const authenticatorOrNone: Expectation = { what: "an authenticator, or null", accepts: (value) => absent(value) || isAuthenticator(value) }

/** What the core relies on in each result it uses; results it ignores are not checked. */
const EXPECTED_RESULTS: Partial<Record<AdapterMethod, Expectation>> = {
  createUser: user,
  updateUser: user,
  getUser: userOrNone,
  getUserByEmail: userOrNone,
  getUserByAccount: userOrNone,
  getSessionAndUser: {
    what: "a session with its user, or null",
    accepts: (value) => absent(value) || (isRecord(value) && isRecord(value.session) && isUser(value.user)),
  },
  useVerificationToken: {
    what: "a verification token, or null",
    accepts: (value) => absent(value) || (isRecord(value) && typeof value.identifier === "string"),
  },
  hitRateLimit: {
    what: "a count",
    accepts: (value) => typeof value === "number" && Number.isFinite(value) && value >= 0,
  },
  getAccount: accountOrNone,
  getAuthenticator: authenticatorOrNone,
  listAccountsByUserId: { what: "an array of accounts", accepts: (value) => Array.isArray(value) && value.every(isAccount) },
  listAuthenticatorsByUserId: {
    what: "an array of authenticators",
    accepts: (value) => Array.isArray(value) && value.every(isAuthenticator),
  },
  listSessionsByUserId: {
    what: "an array of sessions",
    accepts: (value) => Array.isArray(value) && value.every((row) => isRecord(row) && isId(row.userId)),
  },
}

/** The listings by user id (their first argument), whose rows are each that user's. */
const LISTS_BY_USER: ReadonlySet<AdapterMethod> = new Set<AdapterMethod>(["listAccountsByUserId", "listSessionsByUserId", "listAuthenticatorsByUserId"])

/** The kind of value, for the log: never the value itself, which may hold personal data. */
function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value)
  if (Array.isArray(value)) return "an array"
  if (isRecord(value)) return "an object without the fields needed"
  return `a ${typeof value}`
}

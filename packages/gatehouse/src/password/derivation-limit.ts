/**
 * The process-wide limit on concurrent key derivations (every hashPassword and verifyPassword of
 * both builds), with a first-come, first-served queue of bounded length. A derivation holds one
 * thread of libuv's pool (4 by default) for hundreds of milliseconds, and Web Crypto, which
 * decrypts JWT sessions, waits on the same pool: without a limit, a few concurrent password
 * guesses make every session check wait behind them.
 * @module
 */
import { InvalidConfig, PasswordHashError } from "../errors.js"

/**
 * Derivations that may wait for the limit at once; one more is refused as `busy`, so a flood of
 * attempts cannot grow memory without bound. At a few hundred milliseconds per derivation, a
 * thousand waiting is already minutes of queue: answering busy is kinder than answering late.
 */
export const MAX_WAITING_DERIVATIONS = 1_000

/**
 * The Web build's default: two derivations at a time. Where the Web build runs on Node (a bundler
 * that ignores the `node` condition), PBKDF2 through Web Crypto runs on libuv's pool of 4, and two
 * leave half of it to session checks, as the Node build's rule does on a 4-core machine; where
 * derivations run on the isolate's own thread (Workers), a limit changes only their order.
 */
const WEB_DEFAULT = 2

let defaultLimit = WEB_DEFAULT
let configured: number | undefined
let running = 0
// A queue without Array#shift (linear in the length): `waiting[next]` is the oldest waiting.
let waiting: (() => void)[] = []
let next = 0

/** The limit in force: the one set with {@link setConcurrency}, else the runtime's default. */
export function concurrency(): number {
  return configured ?? defaultLimit
}

/**
 * Sets the limit; `undefined` goes back to the runtime's default. Raising it starts waiting
 * derivations at once; lowering it lets running ones finish.
 *
 * @throws {InvalidConfig} for anything but a whole number of at least 1.
 */
export function setConcurrency(limit: number | undefined): void {
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1)) {
    throw new InvalidConfig(`The password hashing concurrency must be a whole number of at least 1; received ${String(limit)}`)
  }
  configured = limit
  startWaiting()
}

/** The Node build's default, set once when it loads (it knows the pool size; the Web build cannot). */
export function setDefaultConcurrency(limit: number): void {
  defaultLimit = limit
  startWaiting()
}

/**
 * Runs `derive` once fewer than the limit are running, after every derivation that asked before it.
 *
 * @throws {PasswordHashError} `busy`, without running `derive`, when {@link MAX_WAITING_DERIVATIONS} wait already.
 */
export async function limited<T>(derive: () => Promise<T>): Promise<T> {
  if (running >= concurrency() || waiting.length > next) {
    if (waiting.length - next >= MAX_WAITING_DERIVATIONS) {
      throw new PasswordHashError("busy", `more than ${MAX_WAITING_DERIVATIONS} password hashes are waiting; try again later`)
    }
    await new Promise<void>((start) => waiting.push(start))
  } else {
    running++
  }
  try {
    return await derive()
  } finally {
    running--
    startWaiting()
  }
}

/** Hands free places to the oldest waiting derivations; each counts as running from here. */
function startWaiting(): void {
  while (running < concurrency() && next < waiting.length) {
    const start = waiting[next++]!
    running++
    start()
  }
  // Under steady load the queue may never drain: drop the started front now and then.
  if (next === waiting.length || next >= 1024) {
    waiting = waiting.slice(next)
    next = 0
  }
}

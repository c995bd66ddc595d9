/**
 * The process-wide limit on concurrent password hashing: session checks (Web Crypto, on the same
 * libuv pool as scrypt) are not kept waiting behind a burst of verifications; at most the limit
 * derive at once, first come first served; the queue is bounded and refuses beyond it as `busy`,
 * which a credentials sign-in answers with 503; the setter and the Node build's default.
 * No timing is asserted: only the order in which promises settle and counts of work in flight.
 */
import { availableParallelism } from "node:os"
import { afterEach, describe, expect, it } from "vitest"
import { Auth } from "../../src/core/handler.js"
import { InvalidConfig, PasswordHashError } from "../../src/errors.js"
import { encode } from "../../src/jwt/index.js"
import { MAX_WAITING_DERIVATIONS } from "../../src/password/derivation-limit.js"
import { hashWith, type PasswordRuntime } from "../../src/password/hashing.js"
import * as nodeBuild from "../../src/password/node.js"
import * as webBuild from "../../src/password/index.js"
import { Credentials } from "../../src/providers/credentials.js"
import { ada, base, Client, credentialsConfig, secret } from "../flow/flow-helpers.js"

const { getPasswordHashingConcurrency, hashPassword, setPasswordHashingConcurrency, verifyPassword } = nodeBuild

afterEach(() => {
  setPasswordHashingConcurrency()
})

/** A stored PBKDF2 hash string that parses (16-byte salt, 32-byte key); no password matches it. */
const STORED = "$pbkdf2-sha256$i=1000$c2FsdHNhbHRzYWx0c2FsdA$" + "A".repeat(43)

/**
 * A runtime whose derivations finish only when the test says: `started` lists the passwords in
 * the order their derivations began, `inFlight` and `mostAtOnce` count them.
 */
function controlledRuntime() {
  const pending: (() => void)[] = []
  const state = { started: [] as string[], inFlight: 0, mostAtOnce: 0 }
  const runtime: PasswordRuntime = {
    defaultAlgorithm: "pbkdf2-sha256",
    derive: (password) => {
      state.started.push(new TextDecoder().decode(password))
      state.inFlight++
      state.mostAtOnce = Math.max(state.mostAtOnce, state.inFlight)
      return new Promise((resolve) =>
        pending.push(() => {
          state.inFlight--
          resolve(new Uint8Array(32))
        }),
      )
    },
    equal: () => false,
  }
  return {
    state,
    /** Starts hashing the password `p<n>`. */
    hash: (n: number) => hashWith(runtime, `p${n}`, undefined),
    /** Lets the oldest running derivation finish, then gives the queue a turn. */
    finishOne: async () => {
      pending.shift()?.()
      await settle()
    },
  }
}

const names = (...numbers: number[]) => numbers.map((n) => `p${n}`)

/** Lets every queued microtask and promise callback run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve))
}

describe("the password hashing concurrency limit", () => {
  it("answers a JWT session check while eight scrypt verifications are under way, before the first of them settles", async () => {
    const hash = await hashPassword("correct horse battery staple")
    const config = credentialsConfig()
    const cookie = await encode({ token: { sub: ada.id, name: ada.name, email: ada.email }, secret, salt: "__Secure-authjs.session-token" })
    const settled: string[] = []
    const verifications = Array.from({ length: 8 }, (_, i) =>
      verifyPassword(`wrong guess ${i}`, hash).then((ok) => settled.push(`verification ${i}: ${ok}`)),
    )
    const check = Auth(new Request(`${base}/session`, { headers: { cookie: `__Secure-authjs.session-token=${cookie}` } }), config).then(async (response) => {
      settled.push("session check")
      return response.json()
    })
    await Promise.all([...verifications, check])
    expect(await check).toMatchObject({ user: { name: ada.name, email: ada.email } })
    // Without the limit, eight scrypt jobs fill libuv's four threads and queue the session
    // check's Web Crypto work behind four more: it settles after the first verifications.
    expect(settled[0]).toBe("session check")
    expect(settled).toHaveLength(9)
  })

  it("runs at most the limit at once, and the rest in the order they asked", async () => {
    setPasswordHashingConcurrency(3)
    const { state, finishOne, hash } = controlledRuntime()
    const hashes = Array.from({ length: 10 }, (_, i) => hash(i))
    await settle()
    expect(state.started).toEqual(names(0, 1, 2))
    while (state.started.length < 10 || state.inFlight > 0) {
      expect(state.inFlight).toBeLessThanOrEqual(3)
      await finishOne()
    }
    await Promise.all(hashes)
    expect(state.mostAtOnce).toBe(3)
    expect(state.started).toEqual(names(0, 1, 2, 3, 4, 5, 6, 7, 8, 9))
  })

  it("starts waiting derivations at once when the limit is raised", async () => {
    setPasswordHashingConcurrency(1)
    const { state, finishOne, hash } = controlledRuntime()
    const hashes = Array.from({ length: 4 }, (_, i) => hash(i))
    await settle()
    expect(state.inFlight).toBe(1)
    setPasswordHashingConcurrency(3)
    await settle()
    expect(state.started).toEqual(names(0, 1, 2))
    for (let i = 0; i < 4; i++) await finishOne()
    await Promise.all(hashes)
  })

  it(`refuses a derivation as busy, without starting it, when ${MAX_WAITING_DERIVATIONS} wait already`, async () => {
    setPasswordHashingConcurrency(1)
    const { state, finishOne, hash } = controlledRuntime()
    const accepted = Array.from({ length: 1 + MAX_WAITING_DERIVATIONS }, (_, i) => hash(i))
    await settle()
    const refused = hash(-1)
    await expect(refused).rejects.toBeInstanceOf(PasswordHashError)
    await expect(refused).rejects.toMatchObject({ reason: "busy", type: "PasswordHashError" })
    // The builds' own verifications are refused too: the queue is the process's, not a runtime's.
    await expect(verifyPassword("guess", STORED)).rejects.toMatchObject({ reason: "busy" })
    await expect(webBuild.verifyPassword("guess", STORED)).rejects.toMatchObject({ reason: "busy" })
    expect(state.started).toEqual(names(0))
    // Once there is room again, a new one is taken, after all those already waiting.
    await finishOne()
    const later = hash(-2)
    while (state.inFlight > 0) await finishOne()
    await Promise.all([...accepted, later])
    expect(state.started).toHaveLength(2 + MAX_WAITING_DERIVATIONS)
    expect(state.started.at(-1)).toBe("p-2")
  })

  it.each([
    ["0", 0],
    ["-1", -1],
    ["1.5", 1.5],
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
    ['the string "2"', "2"],
    ["null", null],
  ])("refuses %s as the limit and keeps the one in force", (_, limit) => {
    setPasswordHashingConcurrency(4)
    expect(() => setPasswordHashingConcurrency(limit as number)).toThrow(InvalidConfig)
    expect(getPasswordHashingConcurrency()).toBe(4)
  })

  it("defaults on Node to max(1, min(threadpool − 2, availableParallelism − 1)), back to it without an argument", () => {
    const threadpool = Number(process.env.UV_THREADPOOL_SIZE) || 4
    const expected = Math.max(1, Math.min(threadpool - 2, availableParallelism() - 1))
    expect(getPasswordHashingConcurrency()).toBe(expected)
    setPasswordHashingConcurrency(7)
    expect(getPasswordHashingConcurrency()).toBe(7)
    expect(webBuild.getPasswordHashingConcurrency()).toBe(7)
    setPasswordHashingConcurrency()
    expect(getPasswordHashingConcurrency()).toBe(expected)
  })

  it("makes a credentials sign-in answer 503 with Retry-After, not a failed sign-in or a 500, when the queue is full", async () => {
    setPasswordHashingConcurrency(1)
    const { state, finishOne, hash } = controlledRuntime()
    const blocking = Array.from({ length: 1 + MAX_WAITING_DERIVATIONS }, (_, i) => hash(i))
    await settle()
    const config = credentialsConfig({
      providers: [Credentials({ authorize: async ({ password }) => ((await verifyPassword(String(password), STORED)) ? { ...ada } : null) })],
    })
    const client = new Client(config)
    const response = await client.signIn({ username: "ada", password: "guess" })
    expect(response.status).toBe(503)
    expect(response.headers.get("retry-after")).toBe("5")
    const page = await response.text()
    expect(page).toContain("<h1>Server busy</h1>")
    expect(page).toContain(`href="${base}/signin?error=ServerBusy"`)
    expect(page).not.toMatch(/\n\s+at |PasswordHashError/)
    while (state.inFlight > 0) await finishOne()
    await Promise.all(blocking)
  })
})

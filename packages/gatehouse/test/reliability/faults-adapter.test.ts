/**
 * Adapter faults, call by call. For each step a user takes (signing in with credentials, by
 * email link, through OAuth, with a passkey; reading, updating and ending a session), a healthy
 * run shows which adapter calls the step makes; then each of those calls is broken in turn, on
 * the memory and the SQLite adapters: it throws (with a driver's message naming a host and a
 * table), or the store does its work and the core gets garbage back (null where a row belongs,
 * strings, NaN, arrays, a user without an id, an expiry that is no date, every field of the
 * wrong type).
 *
 * Whatever broke, the answer is clean (a redirect to the error page with `Configuration`, or a
 * session read answering null; never a 5xx, a stack or the driver's words), the failure is
 * logged, nothing is half-written, and the same step works once the store does.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { LoggerInstance } from "../../src/types.js"
import { startGitHubLikeServer, type GitHubLikeServer } from "../support/github-like-server.js"
import {
  GITHUB_EMAIL,
  newWorld,
  ORIGIN,
  SESSION_COOKIE,
  STEPS,
  type AppliedFault,
  type Prepared,
  type Step,
  type World,
} from "./adapter-steps-support.js"
import { DRIVER_MESSAGE, GARBAGE, halfWritten, STORE_KINDS, type AdapterMethod, type Fault, type StoreKind } from "./faulty-adapter-support.js"

let github: GitHubLikeServer
beforeAll(async () => {
  github = await startGitHubLikeServer({ redirectUris: [`${ORIGIN}/auth/callback/github`], user: { email: GITHUB_EMAIL } })
})
afterAll(() => github?.stop())

const CONFIGURATION_ERROR = `${ORIGIN}/auth/error?error=Configuration`
// A stack frame, as V8 prints them.
const STACK_FRAME = /\n\s+at .+:\d+:\d+/

type LogLine = { level: keyof LoggerInstance; code: string; message: unknown[] }

/** The error and its causes (an AuthError keeps the original under `cause.err`). */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = []
  for (let current = error; current instanceof Error && chain.length < 10; ) {
    chain.push(current)
    const cause: unknown = current.cause
    current = cause instanceof Error ? cause : (cause as { err?: unknown } | undefined)?.err
  }
  return chain
}

/** Whether the log holds an AdapterError (a throw's also carrying the driver's message). */
function loggedAdapterFailure(lines: LogLine[], fault: AppliedFault): boolean {
  return lines.some((line) => {
    const chain = line.message.flatMap(causes)
    const adapterError = chain.some((error) => (error as Error).name === "AdapterError")
    return adapterError && (fault.kind === "garbage" || chain.some((error) => (error as Error).message === DRIVER_MESSAGE))
  })
}

const setsSession = (response: Response) =>
  response.headers.getSetCookie().some((line) => line.startsWith(`${SESSION_COOKIE}=`) && !/Max-Age=0/i.test(line) && !line.startsWith(`${SESSION_COOKIE}=;`))
const touchesSession = (response: Response) => response.headers.getSetCookie().some((line) => line.startsWith(`${SESSION_COOKIE}=`))

async function signedInAs(prepared: Prepared): Promise<string | null> {
  // A passkey user has no proven address: the one typed at sign-up is their name.
  const session = (await prepared.client.session()) as { user?: { email?: string | null; name?: string | null } } | null
  return session?.user?.email ?? session?.user?.name ?? null
}

/** What every answer must be, whatever broke: below 500, no stack, no driver message, no other origin. */
async function expectClean(response: Response): Promise<void> {
  const body = await response.clone().text()
  expect(response.status).toBeLessThan(500)
  expect(body).not.toContain(DRIVER_MESSAGE)
  expect(body).not.toMatch(STACK_FRAME)
  const location = response.headers.get("location")
  if (location !== null) expect(new URL(location).origin).toBe(ORIGIN)
}

/** Judges one faulted run of `step`, then retries it with the store healthy. */
async function judge(world: World, step: Step, prepared: Prepared, response: Response, fault: AppliedFault): Promise<void> {
  await expectClean(response)
  const location = response.headers.get("location")
  let failed: boolean
  switch (step.kind) {
    case "sign-in":
    case "email-request": {
      failed = location !== prepared.landing
      if (failed) {
        expect(location).toBe(CONFIGURATION_ERROR)
        expect(setsSession(response), "a session cookie on a failed sign-in").toBe(false)
        expect(loggedAdapterFailure(world.log.lines, fault), "the failure is logged with its cause").toBe(true)
      }
      expect(await signedInAs(prepared)).toBe(failed ? prepared.before : step.kind === "sign-in" ? prepared.email : null)
      break
    }
    case "session-read": {
      expect(response.status).toBe(200)
      const body = (await response.json()) as { user?: { email?: string } } | null
      failed = body === null
      // Never someone else, never a user without an address: the session, or none.
      if (!failed) expect(body?.user?.email).toBe(prepared.email)
      if (failed) {
        // An outage is not a sign-out: the cookie stays for when the store is back.
        expect(touchesSession(response), "the session cookie touched by a failed read").toBe(false)
        expect(loggedAdapterFailure(world.log.lines, fault), "the failure is logged with its cause").toBe(true)
      }
      if (fault.kind === "throw") expect(failed, "a read whose store call threw").toBe(true)
      break
    }
    case "sign-out": {
      failed = false
      // The user asked to leave: the cookie goes whatever the store said.
      expect(location).toBe(prepared.landing)
      expect(response.headers.getSetCookie().some((line) => line.startsWith(`${SESSION_COOKIE}=;`) || (line.startsWith(SESSION_COOKIE) && /Max-Age=0/i.test(line)))).toBe(true)
      expect(await signedInAs(prepared)).toBeNull()
      break
    }
  }
  const afterAttempt = await world.store.snapshot()
  expect(halfWritten(afterAttempt, world.seeded), "half-written state after the fault").toEqual([])
  prepared.afterAttempt?.(afterAttempt, failed, fault)

  // A fault the core rides out by design (an answer it does not use, an old session it could not
  // delete) needs no retry; a failure must not be the end of the user.
  if (!failed && step.kind !== "sign-out") return
  const retried = await prepared.retry(fault)
  await expectClean(retried)
  if (step.kind === "session-read") {
    expect(((await retried.json()) as { user?: { email?: string } } | null)?.user?.email, "the same cookie, read again").toBe(prepared.email)
  } else {
    expect(retried.headers.get("location"), "the retry").toBe(prepared.landing)
    if (step.kind !== "email-request") expect(await signedInAs(prepared), "signed in after the retry").toBe(prepared.email)
  }
  const afterRetry = await world.store.snapshot()
  expect(halfWritten(afterRetry, world.seeded), "half-written state after the retry").toEqual([])
  prepared.afterRetry?.(afterRetry)
}

/** The adapter calls a healthy run of the step makes, in order (and the run's own success). */
async function healthyCalls(kind: StoreKind, step: Step): Promise<AdapterMethod[]> {
  const world = newWorld(kind, step.strategy, github)
  try {
    const prepared = await step.prepare(world)
    world.faulty.watch()
    const response = await prepared.send()
    if (step.kind === "session-read") expect(((await response.json()) as { user: { email: string } }).user.email).toBe(prepared.email)
    else expect(response.headers.get("location")).toBe(prepared.landing)
    return world.faulty.calls.map((call) => call.method)
  } finally {
    world.store.close()
  }
}

/** Runs the step once with `fault` at call `at`; `false` when the fault did not apply there. */
async function faultedRun(kind: StoreKind, step: Step, at: number, fault: Fault): Promise<boolean> {
  const world = newWorld(kind, step.strategy, github)
  try {
    const prepared = await step.prepare(world)
    world.faulty.arm({ at }, fault)
    const response = await prepared.send()
    world.faulty.disarm()
    if (!world.faulty.fired) return false
    const method = world.faulty.calls[at]!.method
    try {
      await judge(world, step, prepared, response, { kind: fault.kind === "throw" ? "throw" : "garbage", method })
    } catch (error) {
      const what = fault.kind === "garbage" ? `answering ${fault.garbage.name}` : "throwing"
      throw new Error(`${step.name} on ${kind.name}, call ${at} (${method}) ${what}: ${(error as Error).message}`, { cause: error })
    }
    return true
  } finally {
    world.store.close()
  }
}

describe.each(STORE_KINDS)("adapter faults on the $name adapter", (kind) => {
  describe.each(STEPS)("$name", (step) => {
    it("answers cleanly, leaves nothing half-written and works again, whichever adapter call throws", async () => {
      const calls = await healthyCalls(kind, step)
      expect(calls.length, "the step calls the adapter").toBeGreaterThan(0)
      for (let at = 0; at < calls.length; at++) {
        expect(await faultedRun(kind, step, at, { kind: "throw" }), `call ${at} (${calls[at]}) was broken`).toBe(true)
      }
    })

    it("answers cleanly, leaves nothing half-written and works again, whichever adapter call answers garbage", async () => {
      const calls = await healthyCalls(kind, step)
      let broken = 0
      for (let at = 0; at < calls.length; at++) {
        for (const garbage of GARBAGE) if (await faultedRun(kind, step, at, { kind: "garbage", garbage })) broken++
      }
      // Every call can be answered with a string at least.
      expect(broken).toBeGreaterThanOrEqual(calls.length)
    })
  })
})

/**
 * A short bounded load on the Express integration with database sessions on PostgreSQL: 200 users
 * signed in, then about seven seconds of autocannon on loopback (a warm-up, session reads only,
 * then a mix of session reads, protected-route hits, CSRF fetches and full sign-in/sign-out
 * chains). Nothing here asserts a time: it asserts that every answer was right, no session was
 * lost or survived its sign-out, the session table matches what the server did, and the heap did
 * not grow. `npm run load` runs the same load for longer and writes the README's figures.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { testSchema } from "../support/postgres.js"
import type { RequestKind } from "./load-mix.js"
import { runLoad, type LoadResult, type PhaseResult } from "./load-run.js"

/** Generous: the bound is on memory the run keeps, after a full collection, over a few seconds. */
const HEAP_GROWTH_LIMIT_MB = 32

const schema = testSchema()
let result: LoadResult

beforeAll(async () => {
  await schema.create()
  const pool = schema.pool({ max: 10 })
  pool.on("error", () => {
    // An idle connection cut when the schema is dropped; the run itself fails on its own queries.
  })
  result = await runLoad(pool, { users: 200, churnUsers: 20, connections: 16, phaseSeconds: 3, warmupSeconds: 1 })
}, 120_000)

afterAll(() => schema.drop())

const allPhases = (): PhaseResult[] => [result.warmup, ...result.phases]
const mixed = (): PhaseResult => result.phases.find((phase) => phase.name === "mixed")!

describe("a bounded load on Express with database sessions on PostgreSQL", () => {
  it("gets no socket error and no timeout from autocannon in any phase", () => {
    for (const phase of allPhases()) {
      expect({ phase: phase.name, errors: phase.errors, timeouts: phase.timeouts }).toEqual({ phase: phase.name, errors: 0, timeouts: 0 })
    }
  })

  it("answers every request with the status and user that request must get", () => {
    for (const phase of allPhases()) {
      expect(phase.tally.samples, phase.name).toEqual([])
      expect(phase.unexpected, phase.name).toBe(0)
      // Every answer autocannon counted was checked, so none slipped past the checks.
      const checked = Object.values(phase.tally.answers).reduce((sum, n) => sum + n, 0)
      expect(checked, phase.name).toBe(phase.requests)
    }
  })

  it("answers no 5xx, and nothing outside 2xx but the sign-in and sign-out redirects and the anonymous 401s", () => {
    for (const phase of allPhases()) {
      const { answers } = phase.tally
      const expectedOutside2xx = answers["sign-in"] + answers["sign-out"] + answers.anonymous
      expect(phase.non2xx, phase.name).toBe(expectedOutside2xx)
      expect(Object.keys(phase.statusCodes).filter((code) => code.startsWith("5")), phase.name).toEqual([])
    }
  })

  it("ran every kind of request of the mix, sign-ins and sign-outs included", () => {
    const kinds: RequestKind[] = ["session", "protected", "anonymous", "csrf", "sign-in", "own-session", "sign-out"]
    // The warm-up runs the same mix, and counts too: a machine busy with other tests may get few passes through the cycle.
    for (const kind of kinds) expect(result.warmup.tally.answers[kind] + mixed().tally.answers[kind], kind).toBeGreaterThan(0)
    expect(result.phases.find((phase) => phase.name === "session reads")!.tally.answers.session).toBeGreaterThan(0)
  })

  it("loses no session: every user signed in before the load still reads as themselves after it", () => {
    expect(result.lostSamples).toEqual([])
    expect(result.lostSessions).toBe(0)
  })

  it("keeps every session the load opened and did not sign out, and none it signed out", () => {
    expect(result.churn.liveLost).toBe(0)
    expect(result.churn.signedOutStillValid).toBe(0)
    expect(result.churn.signedOutChecked).toBeGreaterThan(0)
    // A sign-out is cut off only by the end of a phase, at most one per connection.
    expect(result.churn.undecided).toBeLessThanOrEqual(result.options.connections * (1 + result.phases.length))
  })

  it("leaves exactly the session rows the server created and did not delete", () => {
    expect(result.sessionRows.before).toBe(result.options.users)
    expect(result.churn.signIns).toBeGreaterThan(0)
    expect(result.sessionRows.after).toBe(result.sessionRows.expected)
    // The sessions known to be open are all there (the rest are sign-ins cut off at a deadline).
    expect(result.sessionRows.after).toBeGreaterThanOrEqual(result.options.users + result.churn.liveChecked)
  })

  it("logs no error while under load", () => {
    expect(result.serverErrorSamples).toEqual([])
    expect(result.serverErrors).toBe(0)
  })

  it(`keeps the heap flat: less than ${HEAP_GROWTH_LIMIT_MB} MB more after the load than before it`, () => {
    expect(result.memory.heapGrowthMB).toBeLessThan(HEAP_GROWTH_LIMIT_MB)
  })
})

/**
 * Gatehouse as three instances (child processes of an Express app on the built package) sharing
 * PostgreSQL and Redis, under load while one instance is killed and restarted and Redis restarts:
 * see ./run.ts for what is checked. Bounded for `npm test`; `npm run load` runs it longer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startGitHubLikeServer, type GitHubLikeServer } from "../../support/github-like-server.js"
import { postgresUrl } from "../../support/postgres.js"
import { startRedis, type RedisServer } from "../../support/redis-server.js"
import { startSmtpServer, type TestSmtpServer } from "../../support/smtp-server.js"
import { JWT_CHECK_AGE, runMultiInstance, type MultiInstanceResult } from "./run.js"

let redis: RedisServer
let smtp: TestSmtpServer
let oauth: GitHubLikeServer
let result: MultiInstanceResult

beforeAll(async () => {
  ;[redis, smtp, oauth] = await Promise.all([startRedis(), startSmtpServer(), startGitHubLikeServer({ refreshTokens: true })])
  result = await runMultiInstance({ databaseUrl: postgresUrl(), redis, smtp, oauth, durationSeconds: 12, workers: 8, jwtSeconds: 4 })
}, 120_000)

afterAll(async () => {
  await Promise.all([redis?.destroy(), smtp?.stop(), oauth?.stop()])
})

describe("three instances sharing PostgreSQL and Redis, one killed and Redis restarted under load", () => {
  it("did real work across the faults", () => {
    console.log(`${result.faults.join("; ")}; stale during the outage: ${result.staleDuringOutage}`)
    expect(result.faults).toHaveLength(4)
    expect(result.cycles).toBeGreaterThan(20)
    expect(result.requests).toBeGreaterThan(500)
  })

  it("answers no request with a 5xx; only the killed instance's connections fail", () => {
    expect(result.firstServerErrors).toEqual([])
    expect(result.serverErrors).toBe(0)
    expect(result.unexpectedConnectionFailures).toBe(0)
  })

  it("loses no session and resurrects none", () => {
    expect({ lost: result.lost, resurrected: result.resurrected, wrongUser: result.wrongUser, incidents: result.incidents }).toEqual({
      lost: 0,
      resurrected: 0,
      wrongUser: 0,
      incidents: [],
    })
  })

  it("serves a session signed out during the Redis outage nowhere once every instance reached Redis again", () => {
    // The stated bound for a sign-out the store missed (session.cacheMaxAge at most; here, the reconnect).
    expect(result.resurrectedAfterOutage).toBe(0)
  })

  it("signs in with a magic link exactly once whichever instances it reaches", () => {
    expect(result.magicLink).toEqual({ attempts: 2, signedIn: 1 })
  })

  it("signs in with a passkey through any instance, and refuses its spent answer on every instance, also after Redis restarted empty", () => {
    expect(result.passkey).toEqual({
      registered: true,
      signedIn: true,
      // Three instances, before the load and after Redis came back.
      replays: 6,
      replaysRefused: 6,
      race: { attempts: 3, signedIn: 1 },
      // Registration, sign-in, the race's one winner: no replay made a session.
      sessionRows: 3,
    })
    // Each refused as a spent challenge, not for anything else (what the killed instance logged is lost with it).
    const refusals = Object.keys(result.expectedErrors).filter((what) => what.startsWith("WebAuthn"))
    expect(refusals).toEqual(["WebAuthnVerificationError: This challenge was already used"])
  })

  it("holds the email rate limit across instances, not once per instance", () => {
    expect(result.emailLimit).toEqual({ limit: 3, requested: 9, sent: 3 })
  })

  it("ends a user's sessions on every instance at once with signOutEverywhere", () => {
    expect(result.signOutEverywhere).toEqual({ browsers: 3, stillSignedIn: 0 })
  })

  it("refreshes an expired access token once for concurrent reads on every instance", () => {
    expect(result.refresh).toEqual({ concurrentReads: 12, tokenRequests: 1, readsWithSession: 12 })
  })

  it("with JWT sessions: no 5xx, no session lost, under load on every instance", () => {
    expect(result.jwt.cycles).toBeGreaterThan(5)
    expect(result.jwt.requests).toBeGreaterThan(100)
    expect({ lost: result.jwt.lost, wrongUser: result.jwt.wrongUser }).toEqual({ lost: 0, wrongUser: 0 })
  })

  it(`with JWT sessions: signOutEverywhere ends the user's sessions on every instance within revocationCheckAge (${JWT_CHECK_AGE} s), and none comes back`, () => {
    const { lastServedAfterMs, ...counts } = result.jwt.signOutEverywhere
    console.log(`JWT: last read served ${lastServedAfterMs} ms after signOutEverywhere returned`)
    expect(counts).toEqual({ browsers: 3, checkAgeSeconds: JWT_CHECK_AGE, servedBeyondBound: 0, resurrected: 0 })
    expect(lastServedAfterMs).toBeLessThanOrEqual(JWT_CHECK_AGE * 1000 + 1000)
  })

  it("logs the Redis outage as warnings, and no error", () => {
    expect(result.firstLoggedErrors).toEqual([])
    expect(result.warnings["shared-store-unavailable"]).toBeGreaterThan(0)
  })

  it("logs the Redis outage once per use on each instance, however many requests were in flight, and its end once", () => {
    const perInstance = result.storeLinesPerInstance.filter((lines) => Object.keys(lines).length > 0)
    expect(perInstance.length).toBeGreaterThan(0)
    for (const lines of perInstance) {
      expect(Object.keys(lines)).not.toContain("?")
      for (const [use, sequence] of Object.entries(lines)) {
        // Each outage once, then its end once: never two of either in a row, whatever was in flight.
        // The Redis restart is one outage; on a loaded machine a command that times out (500 ms)
        // is an outage of its own, so a use may see one or two more, never the flood of one per call.
        expect(sequence.length % 2, `${use} ends with its recovery`).toBe(0)
        const outages = sequence.length / 2
        expect(sequence, use).toEqual(Array.from({ length: sequence.length }, (_, i) => (i % 2 === 0 ? "unavailable" : "recovered")))
        expect(outages, use).toBeGreaterThanOrEqual(1)
        expect(outages, use).toBeLessThanOrEqual(3)
      }
    }
  })
})

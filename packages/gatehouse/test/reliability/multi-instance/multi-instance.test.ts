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
import { runMultiInstance, type MultiInstanceResult } from "./run.js"

let redis: RedisServer
let smtp: TestSmtpServer
let oauth: GitHubLikeServer
let result: MultiInstanceResult

beforeAll(async () => {
  ;[redis, smtp, oauth] = await Promise.all([startRedis(), startSmtpServer(), startGitHubLikeServer({ refreshTokens: true })])
  result = await runMultiInstance({ databaseUrl: postgresUrl(), redis, smtp, oauth, durationSeconds: 12, workers: 8 })
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

  it("holds the email rate limit across instances, not once per instance", () => {
    expect(result.emailLimit).toEqual({ limit: 3, requested: 9, sent: 3 })
  })

  it("ends a user's sessions on every instance at once with signOutEverywhere", () => {
    expect(result.signOutEverywhere).toEqual({ browsers: 3, stillSignedIn: 0 })
  })

  it("refreshes an expired access token once for concurrent reads on every instance", () => {
    expect(result.refresh).toEqual({ concurrentReads: 12, tokenRequests: 1, readsWithSession: 12 })
  })

  it("logs the Redis outage as warnings, and no error", () => {
    expect(result.firstLoggedErrors).toEqual([])
    expect(result.warnings["shared-store-unavailable"]).toBeGreaterThan(0)
  })
})

/**
 * `npm run load -- multi-instance`: the multi-instance run of
 * packages/gatehouse/test/reliability/multi-instance for longer and with more users, on servers of
 * its own (PostgreSQL, Redis, SMTP, the GitHub-like OAuth server), figures into
 * bench/results/multi-instance.{json,md}. Needs the package built (the instances run dist/; the
 * "load" script builds it first).
 *
 *   MULTI_DURATION=60   seconds of load (the kill, restart and Redis restart fall within it)
 *   MULTI_WORKERS=24    users cycling through sign-in, reads, update and sign-out at once
 * then the JWT-sessions phase for a sixth of the duration (at least 10 s).
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { startGitHubLikeServer } from "../../packages/gatehouse/test/support/github-like-server.js"
import { startPostgres } from "../../packages/gatehouse/test/support/postgres-server.js"
import { startRedis } from "../../packages/gatehouse/test/support/redis-server.js"
import { startSmtpServer } from "../../packages/gatehouse/test/support/smtp-server.js"
import { runMultiInstance, type MultiInstanceResult } from "../../packages/gatehouse/test/reliability/multi-instance/run.js"
import { repoRoot, resultsDir } from "../paths.js"

/** Runs it, writes the figures, and returns what is broken (empty when nothing is). */
export async function multiInstanceLoad(options: { durationSeconds: number; workers: number; log: (line: string) => void }): Promise<string[]> {
  const [postgres, redis, smtp, oauth] = await Promise.all([startPostgres(), startRedis(), startSmtpServer(), startGitHubLikeServer({ refreshTokens: true })])
  try {
    options.log(`Three instances, ${options.workers} users, ${options.durationSeconds} s of load; one instance killed and restarted, Redis restarted`)
    const result = await runMultiInstance({
      databaseUrl: postgres.url,
      redis,
      smtp,
      oauth,
      durationSeconds: options.durationSeconds,
      workers: options.workers,
      jwtSeconds: Math.max(10, Math.round(options.durationSeconds / 6)),
      appPath: join(repoRoot, "packages/gatehouse/test/reliability/multi-instance/instance-app.mjs"),
    })
    writeFileSync(join(resultsDir, "multi-instance.json"), `${JSON.stringify({ date: new Date().toISOString(), ...options, log: undefined, result }, null, 2)}\n`)
    writeFileSync(join(resultsDir, "multi-instance.md"), report(result, options))
    options.log(report(result, options))
    return broken(result)
  } finally {
    await Promise.all([redis.destroy(), smtp.stop(), oauth.stop()])
    await postgres.destroy()
  }
}

function broken(result: MultiInstanceResult): string[] {
  const problems: string[] = []
  if (result.serverErrors > 0) problems.push(`${result.serverErrors} answers with a 5xx: ${result.firstServerErrors.join(" | ")}`)
  if (result.unexpectedConnectionFailures > 0) problems.push(`${result.unexpectedConnectionFailures} connection failures on live instances`)
  if (result.lost + result.resurrected + result.wrongUser > 0) problems.push(`sessions lost ${result.lost}, resurrected ${result.resurrected}, wrong user ${result.wrongUser}`)
  if (result.resurrectedAfterOutage > 0) problems.push(`${result.resurrectedAfterOutage} sessions signed out during the Redis outage still served after it`)
  if (result.magicLink.signedIn !== 1) problems.push(`a magic link signed in ${result.magicLink.signedIn} times`)
  if (result.emailLimit.sent !== result.emailLimit.limit) problems.push(`${result.emailLimit.sent} emails sent for a limit of ${result.emailLimit.limit}`)
  if (result.signOutEverywhere.stillSignedIn > 0) problems.push(`${result.signOutEverywhere.stillSignedIn} sessions outlived signOutEverywhere`)
  if (result.refresh.tokenRequests !== 1) problems.push(`${result.refresh.tokenRequests} token requests for one refresh`)
  const { passkey, jwt } = result
  if (!passkey.registered || !passkey.signedIn) problems.push("a passkey did not register or sign in across instances")
  if (passkey.replaysRefused !== passkey.replays || passkey.race.signedIn !== 1 || passkey.sessionRows !== 3) {
    problems.push(`spent passkey answers: ${passkey.replaysRefused} of ${passkey.replays} replays refused, ${passkey.race.signedIn} of ${passkey.race.attempts} racers signed in, ${passkey.sessionRows} session rows (3 expected)`)
  }
  if (jwt.lost + jwt.wrongUser > 0) problems.push(`JWT sessions lost ${jwt.lost}, wrong user ${jwt.wrongUser}`)
  if (jwt.signOutEverywhere.servedBeyondBound + jwt.signOutEverywhere.resurrected > 0) {
    problems.push(`JWT signOutEverywhere: ${jwt.signOutEverywhere.servedBeyondBound} reads served beyond revocationCheckAge, ${jwt.signOutEverywhere.resurrected} resurrected`)
  }
  if (result.loggedErrors > 0) problems.push(`${result.loggedErrors} errors logged: ${result.firstLoggedErrors.join(" | ")}`)
  return problems
}

function report(result: MultiInstanceResult, options: { durationSeconds: number; workers: number }): string {
  return [
    "# Multi-instance run",
    "",
    `Three Express instances on one machine sharing PostgreSQL and Redis; ${options.workers} users, ${options.durationSeconds} s of load.`,
    `Faults: ${result.faults.join("; ")}. 5xx and errors logged count both phases.`,
    "",
    "Database sessions (session cache in Redis, cacheMaxAge 30 s):",
    "",
    "| requests | 5xx | connection failures (killed instance) | p50 | p99 | cycles | lost | resurrected |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
    `| ${result.requests - result.jwt.requests} | ${result.serverErrors} | ${result.connectionFailures} | ${result.p50Ms} ms | ${result.p99Ms} ms | ${result.cycles} | ${result.lost} | ${result.resurrected} |`,
    "",
    `- sign-outs during the Redis outage still served from an older cached copy by another instance until the signing-out one reached Redis again: ${result.staleDuringOutage} reads; after it: ${result.resurrectedAfterOutage}`,
    `- magic link used on two instances at once: signed in ${result.magicLink.signedIn} time(s)`,
    `- email limit ${result.emailLimit.limit} per address: ${result.emailLimit.sent} of ${result.emailLimit.requested} requests across instances sent`,
    `- signOutEverywhere: ${result.signOutEverywhere.stillSignedIn} of ${result.signOutEverywhere.browsers} browsers still signed in on any instance right after`,
    `- ${result.refresh.concurrentReads} concurrent reads of an expired access token: ${result.refresh.tokenRequests} token request(s)`,
    `- passkey registered through one instance and used through another: ${result.passkey.registered && result.passkey.signedIn ? "yes" : "no"}; its spent answer replayed on every instance (before the load and after Redis restarted empty): ${result.passkey.replaysRefused} of ${result.passkey.replays} refused; one fresh answer sent to all three at once: signed in ${result.passkey.race.signedIn} time(s); session rows: ${result.passkey.sessionRows} (one per challenge)`,
    "",
    `Then the same instances with JWT sessions (revocationCheckAge ${result.jwt.signOutEverywhere.checkAgeSeconds} s):`,
    "",
    "| requests | p50 | p99 | cycles | lost |",
    "| --- | --- | --- | --- | --- |",
    `| ${result.jwt.requests} | ${result.jwt.p50Ms} ms | ${result.jwt.p99Ms} ms | ${result.jwt.cycles} | ${result.jwt.lost} |`,
    "",
    `- signOutEverywhere with ${result.jwt.signOutEverywhere.browsers} browsers reading on every instance: the last read that still had the session began ${result.jwt.signOutEverywhere.lastServedAfterMs} ms after it returned (bound: revocationCheckAge plus a request in flight); beyond the bound: ${result.jwt.signOutEverywhere.servedBeyondBound}; cookies replayed after it: ${result.jwt.signOutEverywhere.resurrected} with a session`,
    `- errors logged: ${result.loggedErrors}; warnings: ${JSON.stringify(result.warnings)}`,
    "",
  ].join("\n")
}

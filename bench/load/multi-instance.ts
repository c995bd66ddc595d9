/**
 * `npm run load -- multi-instance`: the multi-instance run of
 * packages/gatehouse/test/reliability/multi-instance for longer and with more users, on servers of
 * its own (PostgreSQL, Redis, SMTP, the GitHub-like OAuth server), figures into
 * bench/results/multi-instance.{json,md}. Needs the package built (the instances run dist/; the
 * "load" script builds it first).
 *
 *   MULTI_DURATION=60   seconds of load (the kill, restart and Redis restart fall within it)
 *   MULTI_WORKERS=24    users cycling through sign-in, reads, update and sign-out at once
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
  if (result.loggedErrors > 0) problems.push(`${result.loggedErrors} errors logged: ${result.firstLoggedErrors.join(" | ")}`)
  return problems
}

function report(result: MultiInstanceResult, options: { durationSeconds: number; workers: number }): string {
  return [
    "# Multi-instance run",
    "",
    `Three Express instances on one machine sharing PostgreSQL and Redis; ${options.workers} users, ${options.durationSeconds} s of load.`,
    `Faults: ${result.faults.join("; ")}.`,
    "",
    "| requests | 5xx | connection failures (killed instance) | p50 | p99 | cycles | lost | resurrected |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
    `| ${result.requests} | ${result.serverErrors} | ${result.connectionFailures} | ${result.p50Ms} ms | ${result.p99Ms} ms | ${result.cycles} | ${result.lost} | ${result.resurrected} |`,
    "",
    `- sign-outs during the Redis outage still served from an older cached copy by another instance until the signing-out one reached Redis again: ${result.staleDuringOutage} reads; after it: ${result.resurrectedAfterOutage}`,
    `- magic link used on two instances at once: signed in ${result.magicLink.signedIn} time(s)`,
    `- email limit ${result.emailLimit.limit} per address: ${result.emailLimit.sent} of ${result.emailLimit.requested} requests across instances sent`,
    `- signOutEverywhere: ${result.signOutEverywhere.stillSignedIn} of ${result.signOutEverywhere.browsers} browsers still signed in on any instance right after`,
    `- ${result.refresh.concurrentReads} concurrent reads of an expired access token: ${result.refresh.tokenRequests} token request(s)`,
    `- errors logged: ${result.loggedErrors}; warnings: ${JSON.stringify(result.warnings)}`,
    "",
  ].join("\n")
}

/**
 * The multi-instance run: three processes of ./instance-app.mjs on loopback ports sharing one
 * PostgreSQL schema and one Redis, requests spread across them by the caller (as a load balancer
 * would), while one instance is killed and restarted and Redis is restarted. Shared by
 * ./multi-instance.test.ts (bounded) and bench/load.ts (longer, figures into bench/results/), so it
 * imports no vitest.
 *
 * What it checks and reports (the test asserts; the bench writes figures):
 * - every answer: no 5xx; a request that reached the killed instance fails to connect, is counted
 *   as such and sent to another instance (no other connection failure);
 * - sessions: while a user is signed in, every read on every instance has their session (lost: 0);
 *   after a sign-out, none does (resurrected: 0);
 * - a magic link used on two instances at once signs in exactly once;
 * - the email rate limit holds across instances (so many links for one address, not three times as many);
 * - signOutEverywhere on one instance ends the user's sessions on every instance at once;
 * - concurrent session reads on all instances of a user whose access token expired reach the token
 *   endpoint once.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { fileURLToPath } from "node:url"
import pg from "pg"
import { migrate, PostgresAdapter } from "../../../src/adapters/postgres.js"
import { CookieJar } from "../../support/cookie-jar.js"
import { freePort } from "../../support/free-port.js"
import type { GitHubLikeServer } from "../../support/github-like-server.js"
import type { RedisServer } from "../../support/redis-server.js"
import type { TestSmtpServer } from "../../support/smtp-server.js"

const APP = fileURLToPath(new URL("./instance-app.mjs", import.meta.url))
const SECRET = "multi-instance-secret-0123456789abcdef0123456789"
const PASSWORD = "multi-instance-password"
const SESSION_COOKIE = "authjs.session-token"
const INSTANCES = 3
/** How long after Redis answers again its clients may still be reconnecting (ms). */
const REDIS_RECONNECT_MARGIN_MS = 1500

/** What the run needs: the servers the instances share, and how long and hard to run. */
export interface MultiInstanceOptions {
  databaseUrl: string
  redis: RedisServer
  smtp: TestSmtpServer
  oauth: GitHubLikeServer
  /** Seconds of load, during which the faults happen. */
  durationSeconds: number
  /** Users signing in, reading, updating and signing out concurrently, one loop each. */
  workers: number
  /** Seconds the instances may serve a database session from Redis. */
  cacheMaxAge?: number
  /** The instance script; default ./instance-app.mjs beside this module (a bundle passes its own path). */
  appPath?: string
}

/** Figures and findings of a run; every count of something wrong should be 0. */
export interface MultiInstanceResult {
  requests: number
  /** Answers with status 500 or above. */
  serverErrors: number
  firstServerErrors: string[]
  /** Requests that could not connect or lost their connection: only the killed instance's. */
  connectionFailures: number
  /** Connection failures on an instance that was not down. */
  unexpectedConnectionFailures: number
  /** Reads without the session of a signed-in user. */
  lost: number
  /**
   * Reads with a session after its sign-out, except those of sign-outs made while Redis was down
   * (or coming back, and not yet reached by every instance): the stated bound, see below.
   */
  resurrected: number
  /**
   * Sign-outs during the Redis outage whose session another instance still served from a copy
   * cached before (within the stated bound: until the signing-out instance reaches Redis again).
   */
  staleDuringOutage: number
  /** Of those, sessions still served by any instance once Redis had been back a few seconds: must be 0. */
  resurrectedAfterOutage: number
  /** What each lost or resurrected read was: which check, which instance, when (s into the load). */
  incidents: string[]
  /** Reads answered with another user's session. */
  wrongUser: number
  cycles: number
  p50Ms: number
  p99Ms: number
  magicLink: { attempts: number; signedIn: number }
  emailLimit: { limit: number; requested: number; sent: number }
  signOutEverywhere: { browsers: number; stillSignedIn: number }
  refresh: { concurrentReads: number; tokenRequests: number; readsWithSession: number }
  /** Error lines the instances logged (the killed one's up to its death are lost with it). */
  loggedErrors: number
  firstLoggedErrors: string[]
  /** Warnings by code (shared-store-unavailable while Redis was down, etc.). */
  warnings: Record<string, number>
  faults: string[]
}

interface Instance {
  port: number
  url: string
  child: ChildProcess | undefined
  down: boolean
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Runs the whole scenario; the servers in `options` are the caller's to start and stop. */
export async function runMultiInstance(options: MultiInstanceOptions): Promise<MultiInstanceResult> {
  const schema = `mi_${Math.random().toString(16).slice(2, 10)}`
  const admin = new pg.Client({ connectionString: options.databaseUrl })
  await admin.connect()
  await admin.query(`CREATE SCHEMA ${schema}`)
  await admin.end()
  const pool = new pg.Pool({ connectionString: options.databaseUrl, options: `-c search_path=${schema}`, max: 4 })
  await migrate(pool)
  const adapter = PostgresAdapter(pool)

  const users = await Promise.all(
    Array.from({ length: options.workers + 4 }, (_, i) => adapter.createUser({ email: `user${i}@multi.test`, emailVerified: null, name: `User ${i}` })),
  )

  const instances: Instance[] = []
  for (let i = 0; i < INSTANCES; i++) {
    const port = await freePort()
    instances.push({ port, url: `http://127.0.0.1:${port}`, child: undefined, down: true })
  }
  const settings = (port: number) =>
    JSON.stringify({
      port,
      databaseUrl: options.databaseUrl,
      schema,
      redisUrl: options.redis.url,
      smtpUrl: options.smtp.smtpUrl,
      secret: SECRET,
      password: PASSWORD,
      emailLimit: 3,
      cacheMaxAge: options.cacheMaxAge ?? 30,
      oauth: {
        clientId: options.oauth.clientId,
        clientSecret: options.oauth.clientSecret,
        authorizeUrl: options.oauth.authorizeUrl,
        tokenUrl: options.oauth.tokenUrl,
        userUrl: options.oauth.userUrl,
      },
    })
  const start = (instance: Instance) =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, [options.appPath ?? APP], { env: { ...process.env, INSTANCE_CONFIG: settings(instance.port) }, stdio: ["ignore", "pipe", "pipe"] })
      let output = ""
      const timer = setTimeout(() => reject(new Error(`instance on ${instance.port} did not start:\n${output}`)), 20_000)
      child.stderr!.on("data", (data: Buffer) => (output += data.toString()))
      child.stdout!.on("data", (data: Buffer) => {
        output += data.toString()
        if (output.includes("READY")) {
          clearTimeout(timer)
          instance.child = child
          instance.down = false
          resolve()
        }
      })
      child.once("exit", (code) => {
        clearTimeout(timer)
        if (instance.child === child) instance.child = undefined
        if (!output.includes("READY")) reject(new Error(`instance on ${instance.port} exited with ${code}:\n${output}`))
      })
    })
  const kill = async (instance: Instance) => {
    const child = instance.child
    instance.down = true
    if (!child) return
    const exited = new Promise((resolve) => child.once("exit", resolve))
    child.kill("SIGKILL")
    await exited
  }

  const result: MultiInstanceResult = {
    requests: 0,
    serverErrors: 0,
    firstServerErrors: [],
    connectionFailures: 0,
    unexpectedConnectionFailures: 0,
    lost: 0,
    resurrected: 0,
    staleDuringOutage: 0,
    resurrectedAfterOutage: 0,
    incidents: [],
    wrongUser: 0,
    cycles: 0,
    p50Ms: 0,
    p99Ms: 0,
    magicLink: { attempts: 0, signedIn: 0 },
    emailLimit: { limit: 3, requested: 0, sent: 0 },
    signOutEverywhere: { browsers: 0, stillSignedIn: 0 },
    refresh: { concurrentReads: 0, tokenRequests: 0, readsWithSession: 0 },
    loggedErrors: 0,
    firstLoggedErrors: [],
    warnings: {},
    faults: [],
  }
  const latencies: number[] = []
  let roundRobin = 0

  /**
   * One request to instance `index` (or the next live one): a connection failure on an instance
   * that is down (or being killed) is retried on the next, as a load balancer would.
   */
  let loadStart = Date.now()
  let lastPort = 0
  const incident = (what: string) => {
    if (result.incidents.length < 10) result.incidents.push(`${what} on ${lastPort} at ${((Date.now() - loadStart) / 1000).toFixed(2)} s`)
  }
  async function send(jar: CookieJar, path: string, init: RequestInit = {}, index?: number): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const instance = instances[(index ?? roundRobin++) % INSTANCES]!
      if (instance.down && index === undefined) continue
      const started = performance.now()
      try {
        const response = await fetch(`${instance.url}${path}`, {
          ...init,
          redirect: "manual",
          headers: { ...(init.headers as Record<string, string>), cookie: jar.header() },
          signal: AbortSignal.timeout(10_000),
        })
        const body = await response.text()
        lastPort = instance.port
        latencies.push(performance.now() - started)
        result.requests++
        if (response.status >= 500) {
          result.serverErrors++
          if (result.firstServerErrors.length < 5) result.firstServerErrors.push(`${response.status} ${path} on ${instance.port}: ${body.slice(0, 200)}`)
        }
        jar.store(response)
        return new Response(response.status === 204 || response.status === 304 ? null : body, { status: response.status, headers: response.headers })
      } catch (error) {
        result.connectionFailures++
        if (!instance.down) result.unexpectedConnectionFailures++
        if (attempt > 20) throw error
        index = undefined
      }
    }
  }
  const csrf = async (jar: CookieJar, index?: number) => ((await (await send(jar, "/auth/csrf", {}, index)).json()) as { csrfToken: string }).csrfToken
  const form = (fields: Record<string, string>): RequestInit => ({
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  })
  const session = async (jar: CookieJar, index?: number) => (await (await send(jar, "/auth/session", {}, index)).json()) as { user?: { email?: string } } | null
  const signIn = async (jar: CookieJar, email: string) => {
    const response = await send(jar, "/auth/callback/credentials", form({ csrfToken: await csrf(jar), email, password: PASSWORD }))
    if (!jar.cookies.has(SESSION_COOKIE)) throw new Error(`sign-in of ${email} failed: ${response.status} ${response.headers.get("location")}`)
  }

  try {
    await Promise.all(instances.map(start))

    // The email rate limit, across instances: requests round-robin, the limit counted once.
    const limited = "limited@multi.test"
    for (let i = 0; i < 9; i++) {
      const jar = new CookieJar()
      await send(jar, "/auth/signin/nodemailer", form({ csrfToken: await csrf(jar), email: limited }))
      result.emailLimit.requested++
    }
    await sleep(300)
    result.emailLimit.sent = options.smtp.messages.filter((message) => message.to.includes(limited)).length

    // A magic link used on two other instances at once, by the browser that asked for it.
    const linkUser = users.at(-1)!
    const browser = new CookieJar()
    await send(browser, "/auth/signin/nodemailer", form({ csrfToken: await csrf(browser, 0), email: linkUser.email }), 0)
    const message = await waitForMessage(options.smtp, linkUser.email)
    const link = new URL(/http:\/\/127\.0\.0\.1:\d+\/auth\/callback\/nodemailer\?[^\s"<>]+/.exec(message)![0].replaceAll("&amp;", "&"))
    const uses = await Promise.all(
      [1, 2].map(async (index) => {
        const jar = new CookieJar()
        for (const [name, value] of browser.cookies) jar.cookies.set(name, value)
        await send(jar, `${link.pathname}${link.search}`, {}, index)
        return jar.cookies.has(SESSION_COOKIE)
      }),
    )
    result.magicLink = { attempts: uses.length, signedIn: uses.filter(Boolean).length }

    // The load, with the faults on a timeline.
    const durationMs = options.durationSeconds * 1000
    loadStart = Date.now()
    let redisDown = { from: Infinity, to: Infinity }
    const staleCookies: CookieJar[] = []
    const faults = (async () => {
      const at = async (fraction: number) => sleep(Math.max(0, loadStart + fraction * durationMs - Date.now()))
      await at(0.2)
      await kill(instances[2]!)
      result.faults.push(`instance 3 killed at ${((Date.now() - loadStart) / 1000).toFixed(1)} s`)
      await at(0.35)
      await start(instances[2]!)
      result.faults.push(`instance 3 restarted at ${((Date.now() - loadStart) / 1000).toFixed(1)} s`)
      await at(0.55)
      redisDown = { from: Date.now(), to: Infinity }
      await options.redis.stop()
      result.faults.push(`Redis stopped at ${((Date.now() - loadStart) / 1000).toFixed(1)} s`)
      await at(0.7)
      await options.redis.start()
      // The instances' clients reconnect within about 100 ms; a margin for a busy machine.
      redisDown.to = Date.now() + REDIS_RECONNECT_MARGIN_MS
      result.faults.push(`Redis started at ${((Date.now() - loadStart) / 1000).toFixed(1)} s`)
    })()
    const workers = Array.from({ length: options.workers }, async (_, w) => {
      const user = users[w]!
      while (Date.now() - loadStart < durationMs) {
        const jar = new CookieJar()
        await signIn(jar, user.email)
        for (let read = 0; read < 6; read++) {
          const found = await session(jar)
          if (!found?.user) {
            result.lost++
            incident("lost (read)")
          }
          else if (found.user.email !== user.email) result.wrongUser++
        }
        const updated = await send(jar, "/auth/session", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ csrfToken: await csrf(jar), data: {} }) })
        const afterUpdate = (await updated.json()) as { user?: { email?: string } } | null
        if (!afterUpdate?.user) {
          result.lost++
          incident("lost (update)")
        }
        const ended = new CookieJar()
        for (const [name, value] of jar.cookies) ended.cookies.set(name, value)
        const signOutAt = Date.now()
        await send(jar, "/auth/signout", form({ csrfToken: await csrf(jar) }))
        const duringOutage = signOutAt >= redisDown.from && Date.now() <= redisDown.to
        // The old cookie, replayed on every instance, finds nothing.
        for (let index = 0; index < INSTANCES; index++) {
          if (instances[index]!.down) continue
          if ((await session(ended, index))?.user) {
            if (duringOutage) {
              result.staleDuringOutage++
              staleCookies.push(ended)
            } else {
              result.resurrected++
              incident("resurrected")
            }
          }
        }
        result.cycles++
      }
    })
    await Promise.all([...workers, faults])
    // Sign-outs the store missed were written again once their instance reached it: none holds now.
    await sleep(Math.max(0, redisDown.to + 1000 - Date.now()))
    for (const jar of staleCookies) {
      for (let index = 0; index < INSTANCES; index++) if ((await session(jar, index))?.user) result.resurrectedAfterOutage++
    }

    // signOutEverywhere on one instance ends the user's sessions on all, at once.
    const everywhereUser = users.at(-2)!
    const browsers = [new CookieJar(), new CookieJar(), new CookieJar()]
    for (const jar of browsers) await signIn(jar, everywhereUser.email)
    for (const [index, jar] of browsers.entries()) await session(jar, index)
    await send(browsers[0]!, "/account/sign-out-everywhere", { method: "POST" }, 0)
    result.signOutEverywhere.browsers = browsers.length
    for (const jar of browsers) {
      for (let index = 0; index < INSTANCES; index++) if ((await session(jar, index))?.user) result.signOutEverywhere.stillSignedIn++
    }

    // Concurrent reads on every instance of a user whose access token expired: one refresh.
    const refreshUser = users.at(-3)!
    const tokens = await oauthTokens(options.oauth)
    await adapter.linkAccount({
      userId: refreshUser.id,
      type: "oauth",
      provider: "github",
      providerAccountId: `gh-${refreshUser.id}`,
      access_token: tokens.access_token,
      refresh_token: tokens.refresh_token,
      expires_at: Math.floor(Date.now() / 1000) - 60,
      token_type: "bearer",
    })
    const refresher = new CookieJar()
    await signIn(refresher, refreshUser.email)
    const grantsBefore = refreshGrants(options.oauth)
    const reads = await Promise.all(Array.from({ length: 12 }, (_, i) => session(refresher, i % INSTANCES)))
    result.refresh = {
      concurrentReads: reads.length,
      tokenRequests: refreshGrants(options.oauth) - grantsBefore,
      readsWithSession: reads.filter((read) => read?.user && !(read as { error?: string }).error).length,
    }

    for (const instance of instances) {
      const stats = (await (await fetch(`${instance.url}/stats`)).json()) as { errors: number; firstErrors: string[]; warningCodes: Record<string, number> }
      result.loggedErrors += stats.errors
      result.firstLoggedErrors.push(...stats.firstErrors)
      for (const [code, count] of Object.entries(stats.warningCodes)) result.warnings[code] = (result.warnings[code] ?? 0) + count
    }
  } finally {
    await Promise.all(instances.map(kill))
    await pool.end()
    const cleanup = new pg.Client({ connectionString: options.databaseUrl })
    await cleanup.connect()
    await cleanup.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
    await cleanup.end()
  }
  const sorted = [...latencies].sort((a, b) => a - b)
  result.p50Ms = Math.round(percentile(sorted, 50) * 10) / 10
  result.p99Ms = Math.round(percentile(sorted, 99) * 10) / 10
  return result
}

async function waitForMessage(smtp: TestSmtpServer, to: string): Promise<string> {
  const message = await smtp.waitForMessage((candidate) => candidate.to.includes(to), 10_000)
  return message.text || message.html
}

function refreshGrants(server: GitHubLikeServer): number {
  return server.requests.filter((request) => request.body?.get("grant_type") === "refresh_token").length
}

/** An access and refresh token from the OAuth server, by its authorization-code flow. */
async function oauthTokens(server: GitHubLikeServer): Promise<{ access_token: string; refresh_token: string }> {
  const redirectUri = "https://app.test/auth/callback/github"
  const authorize = await fetch(`${server.authorizeUrl}?client_id=${server.clientId}&redirect_uri=${encodeURIComponent(redirectUri)}&scope=read:user&state=s`, { redirect: "manual" })
  const code = new URL(authorize.headers.get("location")!).searchParams.get("code")!
  const response = await fetch(server.tokenUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: new URLSearchParams({ client_id: server.clientId, client_secret: server.clientSecret, code, redirect_uri: redirectUri, grant_type: "authorization_code" }),
  })
  return (await response.json()) as { access_token: string; refresh_token: string }
}

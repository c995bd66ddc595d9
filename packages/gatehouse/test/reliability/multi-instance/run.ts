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
 * - a passkey registered through one instance signs in through another; the signed answer, sent
 *   again with its challenge cookie, is refused on every instance (also after Redis restarted
 *   empty), and sent to all three at once it signs in on one: each use of a challenge adds one
 *   session row at most;
 * - the email rate limit holds across instances (so many links for one address, not three times as many);
 * - signOutEverywhere on one instance ends the user's sessions on every instance at once;
 * - concurrent session reads on all instances of a user whose access token expired reach the token
 *   endpoint once;
 * - then, the instances restarted with JWT sessions (revocationCheckAge {@link JWT_CHECK_AGE} s)
 *   under load: no 5xx, no session lost, and signOutEverywhere on one instance ends the user's JWT
 *   sessions on every instance within revocationCheckAge of its return (plus one request in
 *   flight), never served again after.
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
import { SoftwareAuthenticator, type CredentialJSON } from "../../support/software-authenticator.js"

const APP = fileURLToPath(new URL("./instance-app.mjs", import.meta.url))
const SECRET = "multi-instance-secret-0123456789abcdef0123456789"
const PASSWORD = "multi-instance-password"
const SESSION_COOKIE = "authjs.session-token"
const INSTANCES = 3
/** How long after Redis answers again its clients may still be reconnecting (ms). */
const REDIS_RECONNECT_MARGIN_MS = 1500
/** The JWT phase's session.revocationCheckAge (s): how long signOutEverywhere may take to reach a JWT. */
export const JWT_CHECK_AGE = 2
/** A request in flight when signOutEverywhere returned may still have checked the old version (ms). */
const IN_FLIGHT_MARGIN_MS = 1000
/** The relying party every instance serves passkeys for, as behind one load balancer. */
const RP = { origin: "https://app.test", rpId: "app.test" }

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
  /** Seconds of the JWT-sessions phase (default 5; at least JWT_CHECK_AGE + 2). */
  jwtSeconds?: number
}

/** Figures and findings of a run; every count of something wrong should be 0. */
export interface MultiInstanceResult {
  /** Requests of both phases (database sessions, then JWT sessions); p50/p99 are the first phase's. */
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
  passkey: {
    /** Registered through one instance (options) and another (answer), signed in by it. */
    registered: boolean
    /** Signed in with it through a third instance. */
    signedIn: boolean
    /** The spent answer with its challenge cookie sent again, on every instance, before the load and after Redis restarted. */
    replays: number
    /** Of those, answered with the WebAuthn error page and no session cookie. */
    replaysRefused: number
    /** One fresh answer sent to all three instances at once: how many signed in. */
    race: { attempts: number; signedIn: number }
    /** Session rows the passkey user has: one per use of a challenge (registration, sign-in, race). */
    sessionRows: number
  }
  jwt: {
    requests: number
    p50Ms: number
    p99Ms: number
    cycles: number
    lost: number
    wrongUser: number
    /** signOutEverywhere under JWT sessions: browsers reading on every instance meanwhile. */
    signOutEverywhere: {
      browsers: number
      checkAgeSeconds: number
      /** The last read that found the session began this long after signOutEverywhere returned (ms; negative: none after). */
      lastServedAfterMs: number
      /** Reads that found the session beyond the bound (check age + one request in flight). */
      servedBeyondBound: number
      /** Cookies captured before the sign-out (and the last each browser held), replayed on every instance after the bound, that still had a session. */
      resurrected: number
    }
  }
  /** Errors the test provokes and the instances log as expected, by code and message. */
  expectedErrors: Record<string, number>  /** Error lines the instances logged (the killed one's up to its death are lost with it). */
  loggedErrors: number
  firstLoggedErrors: string[]
  /** Warnings by code (shared-store-unavailable while Redis was down, etc.). */
  warnings: Record<string, number>
  /** Per instance that lived through the Redis restart: its shared-store lines in order, per use ("unavailable", "recovered"). */
  storeLinesPerInstance: Record<string, string[]>[]
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
  let strategy: "database" | "jwt" = "database"
  const settings = (port: number) =>
    JSON.stringify({
      strategy,
      revocationCheckAge: JWT_CHECK_AGE,
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
    passkey: { registered: false, signedIn: false, replays: 0, replaysRefused: 0, race: { attempts: 0, signedIn: 0 }, sessionRows: 0 },
    jwt: {
      requests: 0,
      p50Ms: 0,
      p99Ms: 0,
      cycles: 0,
      lost: 0,
      wrongUser: 0,
      signOutEverywhere: { browsers: 0, checkAgeSeconds: JWT_CHECK_AGE, lastServedAfterMs: -1, servedBeyondBound: 0, resurrected: 0 },
    },
    expectedErrors: {},
    loggedErrors: 0,
    firstLoggedErrors: [],
    warnings: {},
    storeLinesPerInstance: [],
    faults: [],
  }
  const latencies: number[] = []
  /** Where the JWT phase's latencies begin. */
  let jwtLatencies = Infinity
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
  const copyOf = (jar: CookieJar) => {
    const copy = new CookieJar()
    for (const [name, value] of jar.cookies) copy.cookies.set(name, value)
    return copy
  }
  const passkeyOptions = async (jar: CookieJar, query: Record<string, string>, index: number) =>
    (await (await send(jar, `/auth/webauthn-options/passkey?${new URLSearchParams(query)}`, {}, index)).json()) as { action: string; options: { challenge: string } }
  const passkeyAnswer = (jar: CookieJar, action: string, credential: CredentialJSON, index: number) =>
    send(jar, "/auth/callback/passkey", form({ action, data: JSON.stringify(credential) }), index)
  /** Sends a spent answer again on every instance with the cookies it was first sent with; counts the refusals. */
  const replayEverywhere = async (captured: CookieJar, credential: CredentialJSON) => {
    for (let index = 0; index < INSTANCES; index++) {
      const jar = copyOf(captured)
      const response = await passkeyAnswer(jar, "authenticate", credential, index)
      result.passkey.replays++
      const refused = /[?&]error=WebAuthnVerificationError/.test(response.headers.get("location") ?? "") && !jar.cookies.has(SESSION_COOKIE)
      if (refused) result.passkey.replaysRefused++
    }
  }
  const sessionRows = async (userId: string) =>
    Number((await pool.query<{ count: string }>(`SELECT count(*) FROM sessions WHERE "userId" = $1`, [userId])).rows[0]!.count)
  const collectStats = async (phase: "database" | "jwt") => {
    for (const instance of instances) {
      if (instance.down) continue
      const stats = (await (await fetch(`${instance.url}/stats`)).json()) as {
        errors: number
        firstErrors: string[]
        warningCodes: Record<string, number>
        storeLines: Record<string, string[]>
        expected: Record<string, number>
      }
      // The Redis restart happens in the first phase; the JWT phase's instances start after it.
      if (phase === "database") result.storeLinesPerInstance.push(stats.storeLines)
      result.loggedErrors += stats.errors
      result.firstLoggedErrors.push(...stats.firstErrors)
      for (const [code, count] of Object.entries(stats.warningCodes)) result.warnings[code] = (result.warnings[code] ?? 0) + count
      for (const [what, count] of Object.entries(stats.expected)) result.expectedErrors[what] = (result.expectedErrors[what] ?? 0) + count
    }
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

    // A passkey: options from one instance, the answer to another, signing in through a third; its
    // spent answer replayed on every instance; a fresh answer sent to all three at once.
    const passkeyEmail = "passkey@multi.test"
    // A counter that never moves, as many platform passkeys: only the spent challenge stops a replay.
    const authenticator = new SoftwareAuthenticator({ countSignatures: false })
    const registering = new CookieJar()
    const registration = await passkeyOptions(registering, { action: "register", email: passkeyEmail }, 0)
    const registered = await passkeyAnswer(registering, "register", authenticator.register({ challenge: registration.options.challenge, ...RP }), 1)
    if (!registering.cookies.has(SESSION_COOKIE)) throw new Error(`passkey registration failed: ${registered.status} ${registered.headers.get("location")}`)
    // A passkey's new user is named by what was typed; no address is proven, so none is stored.
    const passkeyUser = ((await session(registering, 2)) as { user?: { id?: string; email?: string } } | null)?.user
    result.passkey.registered = registration.action === "register" && passkeyUser?.email === passkeyEmail && typeof passkeyUser.id === "string"
    const signingIn = new CookieJar()
    const { options: signInOptions } = await passkeyOptions(signingIn, {}, 2)
    const spentAnswer = authenticator.authenticate({ challenge: signInOptions.challenge, ...RP })
    const spentCookies = copyOf(signingIn)
    await passkeyAnswer(signingIn, "authenticate", spentAnswer, 0)
    result.passkey.signedIn = ((await session(signingIn, 1)) as { user?: { id?: string } } | null)?.user?.id === passkeyUser?.id
    await replayEverywhere(spentCookies, spentAnswer)
    const racing = new CookieJar()
    const { options: raceOptions } = await passkeyOptions(racing, {}, 1)
    const raceAnswer = authenticator.authenticate({ challenge: raceOptions.challenge, ...RP })
    const raced = await Promise.all(
      Array.from({ length: INSTANCES }, async (_, index) => {
        const jar = copyOf(racing)
        await passkeyAnswer(jar, "authenticate", raceAnswer, index)
        return jar.cookies.has(SESSION_COOKIE)
      }),
    )
    result.passkey.race = { attempts: raced.length, signedIn: raced.filter(Boolean).length }

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
    // Redis restarted empty: the spent passkey answer is still refused everywhere.
    await replayEverywhere(spentCookies, spentAnswer)
    result.passkey.sessionRows = await sessionRows(passkeyUser?.id ?? "")

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

    await collectStats("database")

    // The same instances with JWT sessions: signOutEverywhere reaches a JWT at its next version
    // check, at most revocationCheckAge after the sign-out returned.
    await Promise.all(instances.map(kill))
    strategy = "jwt"
    await Promise.all(instances.map(start))
    const jwtMs = Math.max(JWT_CHECK_AGE + 2, options.jwtSeconds ?? 5) * 1000
    const jwtStart = Date.now()
    const requestsBefore = result.requests
    jwtLatencies = latencies.length
    const jwtWorkers = Array.from({ length: options.workers }, async (_, w) => {
      const user = users[w]!
      while (Date.now() - jwtStart < jwtMs) {
        const jar = new CookieJar()
        await signIn(jar, user.email)
        for (let read = 0; read < 6; read++) {
          const found = await session(jar)
          if (!found?.user) result.jwt.lost++
          else if (found.user.email !== user.email) result.jwt.wrongUser++
        }
        await send(jar, "/auth/signout", form({ csrfToken: await csrf(jar) }))
        result.jwt.cycles++
      }
    })
    const everywhere = (async () => {
      const jwtUser = users.at(-4)!
      const jars = [new CookieJar(), new CookieJar(), new CookieJar()]
      for (const jar of jars) await signIn(jar, jwtUser.email)
      result.jwt.signOutEverywhere.browsers = jars.length
      let signedOutAt = Infinity
      const captured: CookieJar[] = []
      // Each browser reads on every instance in turn, before and after the sign-out.
      const readers = jars.map(async (jar, b) => {
        for (let read = 0; Date.now() - jwtStart < jwtMs; read++) {
          const began = Date.now()
          const found = await session(jar, (b + read) % INSTANCES)
          if (found?.user?.email === jwtUser.email && began > signedOutAt) {
            result.jwt.signOutEverywhere.lastServedAfterMs = Math.max(result.jwt.signOutEverywhere.lastServedAfterMs, began - signedOutAt)
            if (began - signedOutAt > JWT_CHECK_AGE * 1000 + IN_FLIGHT_MARGIN_MS) result.jwt.signOutEverywhere.servedBeyondBound++
          }
          await sleep(25)
        }
        captured.push(copyOf(jar))
      })
      await sleep(1000)
      captured.push(...jars.map(copyOf))
      await send(copyOf(jars[0]!), "/account/sign-out-everywhere", { method: "POST" }, 0)
      signedOutAt = Date.now()
      await Promise.all(readers)
      // Past the bound, no copy of any of the browsers' cookies has a session anywhere.
      await sleep(Math.max(0, signedOutAt + JWT_CHECK_AGE * 1000 + IN_FLIGHT_MARGIN_MS - Date.now()))
      for (const jar of captured) {
        for (let index = 0; index < INSTANCES; index++) if ((await session(copyOf(jar), index))?.user) result.jwt.signOutEverywhere.resurrected++
      }
    })()
    await Promise.all([...jwtWorkers, everywhere])
    result.jwt.requests = result.requests - requestsBefore
    await collectStats("jwt")
  } finally {
    await Promise.all(instances.map(kill))
    await pool.end()
    const cleanup = new pg.Client({ connectionString: options.databaseUrl })
    await cleanup.connect()
    await cleanup.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
    await cleanup.end()
  }
  const sorted = latencies.slice(0, jwtLatencies).sort((a, b) => a - b)
  result.p50Ms = Math.round(percentile(sorted, 50) * 10) / 10
  result.p99Ms = Math.round(percentile(sorted, 99) * 10) / 10
  const jwtSorted = latencies.slice(jwtLatencies).sort((a, b) => a - b)
  result.jwt.p50Ms = Math.round(percentile(jwtSorted, 50) * 10) / 10
  result.jwt.p99Ms = Math.round(percentile(jwtSorted, 99) * 10) / 10
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

// @ts-check
/**
 * One instance of the app the multi-instance test runs three of (child processes on loopback
 * ports): Express with ServerAuth on the built package, database sessions in the shared PostgreSQL
 * (PostgresAdapter) with the session cache in the shared Redis (redisStore), or JWT sessions with
 * their versions cached there; credentials, email links over SMTP, passkeys (one relying party,
 * https://app.test, as behind a load balancer), and an OAuth provider with access-token refresh. Plain JavaScript on dist/, so it
 * starts without a TypeScript loader. Configured by INSTANCE_CONFIG (JSON); prints READY once it
 * listens, and counts its error log lines on /stats.
 */
import express from "express"
import pg from "pg"
import { createClient } from "redis"
import { signOutEverywhere } from "gatehouse-auth"
import { PostgresAdapter } from "gatehouse-auth/adapters/postgres"
import { requireAuth, ServerAuth } from "gatehouse-auth/express"
import Credentials from "gatehouse-auth/providers/credentials"
import Nodemailer from "gatehouse-auth/providers/nodemailer"
import Passkey from "gatehouse-auth/providers/passkey"
import { redisStore } from "gatehouse-auth/stores/redis"

/** @type {{ port: number, databaseUrl: string, schema: string, redisUrl: string, smtpUrl: string, secret: string, password: string, oauth: { clientId: string, clientSecret: string, authorizeUrl: string, tokenUrl: string, userUrl: string }, emailLimit: number, cacheMaxAge: number, strategy: "database" | "jwt", revocationCheckAge: number }} */
const settings = JSON.parse(process.env.INSTANCE_CONFIG ?? "{}")

const pool = new pg.Pool({ connectionString: settings.databaseUrl, options: `-c search_path=${settings.schema}`, max: 8 })
pool.on("error", () => {})
const redis = createClient({ url: settings.redisUrl, socket: { reconnectStrategy: () => 100, connectTimeout: 1000 } })
redis.on("error", () => {})
await redis.connect()

const counters = {
  errors: 0,
  warnings: 0,
  firstErrors: /** @type {string[]} */ ([]),
  warningCodes: /** @type {Record<string, number>} */ ({}),
  /** The shared store's lines in the order logged, per use: "unavailable" or "recovered". */
  storeLines: /** @type {Record<string, string[]>} */ ({}),
  /** Errors the test provokes on purpose, by code and first message line. */
  expected: /** @type {Record<string, number>} */ ({}),
}
/**
 * What the test provokes on purpose: a rate-limited email, a magic link used twice, a spent passkey
 * challenge replayed. Caused by the client, so each is one warning line.
 */
const EXPECTED_ERRORS = new Set(["EmailRateLimited", "Verification", "WebAuthnVerificationError"])
const adapter = PostgresAdapter(pool)

/** @type {import("gatehouse-auth/express").ServerAuthConfig} */
const config = {
  secret: settings.secret,
  trustHost: true,
  adapter,
  sharedStore: redisStore({ client: redis, prefix: `${settings.schema}:` }),
  session:
    settings.strategy === "jwt"
      ? { strategy: "jwt", revocationCheckAge: settings.revocationCheckAge }
      : { strategy: "database", cacheMaxAge: settings.cacheMaxAge },
  experimental: { enableWebAuthn: true },
  providers: [
    Credentials({
      credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
      authorize: async ({ email, password }) => {
        if (password !== settings.password || typeof email !== "string") return null
        return (await adapter.getUserByEmail?.(email)) ?? null
      },
      rateLimit: { perIdentifier: { max: 1000, windowSeconds: 60 }, perIp: false },
    }),
    Passkey({ relyingParty: { id: "app.test", origin: "https://app.test", name: "Multi-instance" } }),
    Nodemailer({ server: settings.smtpUrl, from: "auth@app.test", rateLimit: { perEmail: { max: settings.emailLimit, windowSeconds: 600 }, perIp: false } }),
    {
      id: "github",
      name: "GitHub-like",
      type: "oauth",
      clientId: settings.oauth.clientId,
      clientSecret: settings.oauth.clientSecret,
      authorization: { url: settings.oauth.authorizeUrl, params: { scope: "read:user" } },
      token: settings.oauth.tokenUrl,
      userinfo: settings.oauth.userUrl,
      refreshAccessToken: true,
    },
  ],
  callbacks: {
    // `user` under database sessions, the token's subject under JWT sessions.
    session: ({ session, user, token }) => ({ ...session, user: { ...session.user, id: user?.id ?? token?.sub } }),
  },
  logger: {
    error(code, ...message) {
      counters.errors++
      if (counters.firstErrors.length < 5) counters.firstErrors.push(`${code}: ${message.map((part) => (part instanceof Error ? `${part.message} ${JSON.stringify(part.cause ?? "")}` : String(part))).join(" ")}`)
    },
    warn(code, ...message) {
      if (EXPECTED_ERRORS.has(code)) {
        const key = `${code}: ${String(message[0])}`
        counters.expected[key] = (counters.expected[key] ?? 0) + 1
        return
      }
      counters.warnings++
      counters.warningCodes[code] = (counters.warningCodes[code] ?? 0) + 1
      if (code.startsWith("shared-store-")) {
        // Each line names its use: "… failed for <use>; …" or "…; <use> use it again."
        const use = /(?: failed for |; )([a-z-]+)(?:; | use it again)/.exec(String(message[0]))?.[1] ?? "?"
        ;(counters.storeLines[use] ??= []).push(code.slice("shared-store-".length))
      }
    },
    debug() {},
  },
}

const app = express()
app.set("trust proxy", false)
app.use("/auth", ServerAuth(config))
app.post("/account/sign-out-everywhere", requireAuth(config), async (_req, res) => {
  const user = /** @type {{ id?: string } | undefined} */ (res.locals.session?.user)
  if (!user?.id) return void res.status(401).json({ error: "no user" })
  await signOutEverywhere(user.id, config)
  res.json({ ok: true })
})
app.get("/stats", (_req, res) => void res.json(counters))

const server = app.listen(settings.port, "127.0.0.1", () => process.stdout.write(`READY ${settings.port}\n`))
server.keepAliveTimeout = 5_000
process.on("SIGTERM", () => {
  server.close()
  void pool.end()
  redis.destroy()
})

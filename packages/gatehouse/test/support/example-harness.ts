/**
 * What every example app's Chromium test shares: the app installed and built once, a local SMTP
 * inbox, Chromium, a folder for the SQLite files, and a start per session strategy with the app's
 * OpenID client registered at a fresh local provider. Registers its own beforeAll and afterAll for
 * the build, the inbox, Chromium and the folder; an app it starts (and its provider) the caller stops.
 */
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll } from "vitest"
import { launchChromium } from "./chromium.js"
import { buildExampleApp, freePort, startExampleApp, type ExampleApp, type RunningApp } from "./example-app.js"
import { startOidcServer, type OidcServer } from "./oidc-server.js"
import { startSmtpServer, type TestSmtpServer } from "./smtp-server.js"

/** How one app is started for a session strategy. */
export interface StrategyStart {
  /** The local provider's callback path on the app (`/api/auth/callback/local-oidc`). */
  callbackPath: string
  /** The command's arguments after `node`, given the port. */
  command: (port: number) => string[]
  /** How the app finds its own address: always `AUTH_URL`, or by strategy (JWT: `AUTH_TRUST_HOST`, database: `AUTH_URL`). */
  address: "AUTH_URL" | "by strategy"
  /** The app's own variables, given the address the browser uses. */
  env?: (origin: string) => Record<string, string>
  /** A path that answers once the server is up. */
  readyPath?: string
  /** The port the app must listen on, when its build fixed its address (SvelteKit 3's `paths.origin`). Default: a free one. */
  port?: number
}

/** An app started for one strategy: its SQLite file and its OpenID provider, both the caller's to stop. */
export type StrategyApp = RunningApp & { db: string; oidc: OidcServer }

/** The shared pieces of an example app's test; `name` names its temp folder and OpenID client. */
export function exampleHarness(app: ExampleApp, name: string) {
  let browser: Browser | undefined
  let smtp: TestSmtpServer | undefined
  let dataDir: string | undefined

  beforeAll(async () => {
    buildExampleApp(app)
    dataDir = mkdtempSync(join(tmpdir(), `gatehouse-${name}-`))
    smtp = await startSmtpServer()
    browser = await launchChromium()
  }, 600_000)

  afterAll(async () => {
    await browser?.close()
    await smtp?.stop()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })

  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the example harness's ${what} is used before beforeAll ran`)
    return value
  }

  return {
    get browser(): Browser {
      return ready(browser, "browser")
    },
    get smtp(): TestSmtpServer {
      return ready(smtp, "SMTP inbox")
    },
    get dataDir(): string {
      return ready(dataDir, "data folder")
    },

    /** The app started with `strategy` sessions, its OpenID client registered at a new local provider. */
    async start(strategy: "jwt" | "database", how: StrategyStart): Promise<StrategyApp> {
      const port = how.port ?? (await freePort())
      const origin = `http://localhost:${port}`
      const client = `${name}-${strategy}`
      const oidc = await startOidcServer({
        clients: [{ client_id: client, client_secret: `${name}-secret`, redirect_uris: [`${origin}${how.callbackPath}`] }],
        accounts: { grace: { email: `grace.${strategy}@example.com`, email_verified: true, name: "Grace Hopper" } },
      })
      const db = join(this.dataDir, `${strategy}.db`)
      const address: Record<string, string> = how.address === "AUTH_URL" || strategy === "database" ? { AUTH_URL: origin } : { AUTH_TRUST_HOST: "true" }
      const running = await startExampleApp(app, {
        port,
        command: how.command,
        env: {
          ...how.env?.(origin),
          AUTH_SECRET: randomBytes(32).toString("base64"),
          ...address,
          SESSION_STRATEGY: strategy,
          DATABASE_PATH: db,
          OIDC_ISSUER: oidc.issuer,
          OIDC_CLIENT_ID: client,
          OIDC_CLIENT_SECRET: `${name}-secret`,
          SMTP_URL: this.smtp.smtpUrl,
        },
        ...(how.readyPath !== undefined && { readyPath: how.readyPath }),
      })
      return { ...running, db, oidc }
    },

    /**
     * The app started with JWT sessions and no OpenID provider (its issuer is an address nothing
     * listens on), for a test of one setting: `env` gives the address and secret variables
     * (an empty `AUTH_SECRET` to start without one) and anything else on top.
     */
    async startBare(how: StrategyStart, database: string, env: (origin: string) => Record<string, string>, readyPath = how.readyPath): Promise<RunningApp> {
      const port = how.port ?? (await freePort())
      const origin = `http://localhost:${port}`
      return startExampleApp(app, {
        port,
        command: how.command,
        env: {
          ...how.env?.(origin),
          SESSION_STRATEGY: "jwt",
          DATABASE_PATH: join(this.dataDir, `${database}.db`),
          OIDC_ISSUER: "http://127.0.0.1:9",
          OIDC_CLIENT_ID: "unused",
          OIDC_CLIENT_SECRET: "unused",
          SMTP_URL: this.smtp.smtpUrl,
          ...env(origin),
        },
        ...(readyPath !== undefined && { readyPath }),
      })
    },
  }
}

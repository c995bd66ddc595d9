/**
 * An Express app deployed as production (NODE_ENV=production) with neither AUTH_URL nor
 * AUTH_TRUST_HOST: its public pages still answer, and only what needs the auth configuration
 * fails, each naming the fix: the auth routes with the core's safe answer, a session read with
 * the typed `UntrustedHost` (logged once).
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { UntrustedHost } from "../../src/errors.js"
import { authSession, getSession, requireAuth, ServerAuth, type ServerAuthConfig } from "../../src/express/index.js"
import { credentialsConfig, recordingLogger, secret } from "../flow/flow-helpers.js"
import { closeServers, expressVersions, HttpClient, isolateAuthEnv, listen, reportErrors } from "./express-apps.js"

isolateAuthEnv()
afterEach(closeServers)

const FIX = /AUTH_URL=https:\/\/your\.site.*AUTH_TRUST_HOST=true/

/** The README's Express app, plus a page that reads the session itself. */
function productionConfig(): { config: ServerAuthConfig; lines: ReturnType<typeof recordingLogger>["lines"] } {
  vi.stubEnv("NODE_ENV", "production")
  vi.stubEnv("AUTH_SECRET", secret)
  const { logger, lines } = recordingLogger()
  const { trustHost: _, ...config } = credentialsConfig({ logger })
  return { config, lines }
}

describe.each(expressVersions)("an untrusted host on $name in production", (version) => {
  it("answers public pages, refuses the auth routes with the safe answer, and throws UntrustedHost naming the fix to a session read, logged once", async () => {
    const { config, lines } = productionConfig()
    const app = version.express()
    app.use("/auth", ServerAuth(config))
    app.use(authSession(config))
    app.get("/", (_req, res) => {
      res.json({ user: res.locals.session?.user ?? null })
    })
    app.get("/account", requireAuth(config), (_req, res) => {
      res.json(res.locals.session)
    })
    app.get("/me", async (req, res, next) => {
      try {
        res.json(await getSession(req, config, res))
      } catch (error) {
        next(error)
      }
    })
    app.use(reportErrors)
    const { origin } = await listen(app)
    const client = new HttpClient(origin)

    const home = await client.get("/")
    expect(home.status).toBe(200)
    expect(await home.json()).toEqual({ user: null })

    // A protected page reads as signed out: to sign in, where the auth route says what is wrong.
    const account = await client.get("/account", { accept: "text/html" })
    expect(account.status).toBe(302)

    for (const path of ["/auth/session", "/auth/providers"]) {
      const refused = await client.get(path)
      expect(refused.status, path).toBe(500)
      const body = await refused.text()
      expect(body, path).toContain("server configuration")
      expect(body, path).not.toMatch(/UntrustedHost|at .*\.ts|AUTH_URL/)
    }

    const me = await client.get("/me")
    expect(me.status).toBe(599)
    const caught = (await me.json()) as { type: string; message: string }
    expect(caught.type).toBe("UntrustedHost")
    expect(caught.message).toMatch(FIX)
    expect(caught.message).toContain("behind a proxy")

    const logged = lines.filter((line) => line.code === "UntrustedHost")
    expect(logged).toHaveLength(1)
    expect(logged[0]!.message[0]).toBeInstanceOf(UntrustedHost)
    expect(String((logged[0]!.message[0] as Error).message)).toMatch(FIX)
  })

  it("sends a browser from a page guarded by requireAuth alone (no authSession before it) to sign in, and an API call gets 401, not 500", async () => {
    const { config } = productionConfig()
    const app = version.express()
    app.use("/auth", ServerAuth(config))
    app.get("/account", requireAuth(config), (_req, res) => {
      res.json(res.locals.session)
    })
    app.get("/api/me", requireAuth(config, { redirectTo: false }), (_req, res) => {
      res.json(res.locals.session)
    })
    app.use(reportErrors)
    const { origin } = await listen(app)
    const client = new HttpClient(origin)

    const account = await client.get("/account", { accept: "text/html" })
    expect(account.status).toBe(302)
    expect(account.headers.get("location")).toMatch(/^\/auth\/signin\?callbackUrl=%2Faccount$/)
    const api = await client.get("/api/me")
    expect(api.status).toBe(401)
  })
})

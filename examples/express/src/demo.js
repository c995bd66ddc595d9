// @ts-check
/**
 * The demo app: Express with Gatehouse on its embedded defaults (a SQLite file, database
 * sessions) and four ways to sign in that need nothing but this machine.
 */
import Database from "better-sqlite3"
import express from "express"
import { mkdirSync } from "node:fs"
import { createServer } from "node:http"
import { fileURLToPath } from "node:url"
import { join } from "node:path"
import { SQLiteAdapter } from "gatehouse-auth/adapters/sqlite"
import { ServerAuth, authSession, requireAuth } from "gatehouse-auth/express"
import Credentials from "gatehouse-auth/providers/credentials"
import Nodemailer from "gatehouse-auth/providers/nodemailer"
import Passkey from "gatehouse-auth/providers/passkey"
import { startDevOidcProvider } from "./dev-oidc-provider.js"
import { startMailCapture } from "./mail-capture.js"
import { organizationRoutes } from "./organizations.js"
import { homePage, inboxPage, protectedPage } from "./pages.js"
import { DEMO_EMAIL, DEMO_PASSWORD, demoPasswordCheck, forgetPassword, seedDemoUser } from "./demo-account.js"

export { DEMO_EMAIL, DEMO_PASSWORD }

/**
 * @typedef {object} DemoOptions
 * @property {number} [port] default 3000; 0 picks a free one
 * @property {string} [dataDir] where the SQLite file lives; default `examples/express/.data`
 * @typedef {{ url: string, close(): Promise<void>, mail: import("./mail-capture.js").MailCapture }} Demo
 */

/**
 * Starts the demo on 127.0.0.1. The secret comes from `AUTH_SECRET` (see env-file.js).
 * @param {DemoOptions} [options]
 * @returns {Promise<Demo>}
 */
export async function startDemo({ port = 3000, dataDir = fileURLToPath(new URL("../.data", import.meta.url)) } = {}) {
  mkdirSync(dataDir, { recursive: true })
  const db = new Database(join(dataDir, "gatehouse-demo.db"))
  const adapter = SQLiteAdapter(db)
  await seedDemoUser(db, adapter)
  const authorize = await demoPasswordCheck(db, adapter)

  const app = express()
  const server = createServer(app)
  await new Promise((resolve, reject) => {
    server.once("error", reject).listen(port, "127.0.0.1", () => resolve(undefined))
  })
  const actualPort = /** @type {import("node:net").AddressInfo} */ (server.address()).port
  // Passkeys need a domain name (localhost), not an IP address, so every link says localhost.
  const url = `http://localhost:${actualPort}`
  // Only requests addressed to this machine: a web page that rebinds its own domain to 127.0.0.1
  // must not get to read the inbox.
  const hosts = new Set([`localhost:${actualPort}`, `127.0.0.1:${actualPort}`])
  app.use((req, res, next) => (hosts.has(req.headers.host ?? "") ? next() : res.status(421).send("Misdirected request")))
  const mail = await startMailCapture()
  const oidc = await startDevOidcProvider({
    appUrl: url,
    redirectUris: [url, url.replace("localhost", "127.0.0.1")].map((origin) => `${origin}/auth/callback/dev-oidc`),
    // The demo's sign-out always lands on its home page (see pages.js), here too.
    postLogoutRedirectUris: [url, url.replace("localhost", "127.0.0.1")].map((origin) => `${origin}/`),
  })

  /** @type {import("gatehouse-auth/express").ServerAuthConfig} */
  const config = {
    adapter,
    session: { strategy: "database" },
    experimental: { enableWebAuthn: true },
    pages: { verifyRequest: "/dev/inbox" },
    // Organizations (organizations.js): invitation links lead to the demo's own page, which
    // accepts with acceptInvitation; the emails go out through the Nodemailer provider below.
    organizations: { invitationPage: "/organizations/invitation" },
    providers: [
      Credentials({
        name: "Demo account",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        authorize,
        // Someone proving the address of an account nobody proved it for gets it without this password.
        revokeCredentials: (user) => forgetPassword(db, user.id),
      }),
      Nodemailer({ name: "Email", server: mail.url, from: "Gatehouse demo <demo@localhost>", confirmSignIn: true }),
      {
        id: "dev-oidc",
        name: "Dev OpenID Provider",
        type: "oidc",
        issuer: oidc.issuer,
        clientId: oidc.clientId,
        clientSecret: oidc.clientSecret,
        // Show the provider's login page every time, so signing out and in again picks anyone.
        authorization: { params: { scope: "openid email profile", prompt: "login" } },
        // The demo's own provider, which vouches for every address (email_verified): signing in
        // there as the seeded address joins the demo account instead of answering
        // OAuthAccountNotLinked. A real app sets this only for a provider that checks addresses.
        allowDangerousEmailAccountLinking: true,
      },
      Passkey(),
    ],
  }

  // Browsers ask every origin for one unless a page names its own; the demo's pages and the
  // library's name an empty data: icon, but a JSON answer such as /api/me names none.
  app.get("/favicon.ico", (_req, res) => {
    res.status(204).end()
  })
  app.use("/auth", ServerAuth(config))
  app.use(authSession(config))
  app.get("/assets/gatehouse-webauthn.js", (_req, res) => {
    res.type("text/javascript").sendFile(fileURLToPath(import.meta.resolve("gatehouse-auth/webauthn")))
  })
  app.get("/", (_req, res) => {
    res.send(homePage(res.locals.session, { demoEmail: DEMO_EMAIL, demoPassword: DEMO_PASSWORD }))
  })
  app.get("/protected", requireAuth(config), (_req, res) => {
    res.send(protectedPage(/** @type {import("gatehouse-auth").Session} */ (res.locals.session)))
  })
  app.get("/api/me", requireAuth(config, { redirectTo: false }), (_req, res) => {
    res.json({ user: res.locals.session?.user, expires: res.locals.session?.expires })
  })
  app.use("/organizations", organizationRoutes(config, [url, url.replace("localhost", "127.0.0.1")]))
  app.get("/dev/inbox", (_req, res) => {
    res.send(inboxPage(mail.messages, res.locals.session))
  })

  return {
    url,
    mail,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(() => resolve(undefined)))
      await Promise.all([mail.close(), oidc.close()])
      db.close()
    },
  }
}

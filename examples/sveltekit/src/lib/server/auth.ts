/**
 * The app's Gatehouse configuration. The identity providers it uses run locally (the tests start
 * an OpenID provider and an SMTP inbox, and pass their addresses in the environment), and users
 * and passkeys live in a SQLite file, opened with Node's built-in `node:sqlite` (better-sqlite3 12
 * aborts Node 24 when it collects a statement); SESSION_STRATEGY picks JWT or database sessions.
 * AUTH_SECRET (and AUTH_URL or AUTH_TRUST_HOST) come from the environment at the first request.
 * The app's own settings come from `$app/env/private` (declared in src/env.ts): `.env` in
 * `vite dev` and `vite preview`, the process's environment under `node build`.
 */
import { DATABASE_PATH, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_ISSUER, SESSION_STRATEGY, SMTP_URL } from "$app/env/private"
import { DatabaseSync } from "node:sqlite"
import { KitAuth } from "gatehouse-auth/sveltekit"
import { SQLiteAdapter } from "gatehouse-auth/adapters/sqlite"
import Credentials from "gatehouse-auth/providers/credentials"
import Nodemailer from "gatehouse-auth/providers/nodemailer"
import Passkey from "gatehouse-auth/providers/passkey"
import type { KitAuthConfig } from "gatehouse-auth/sveltekit"

/** The one account the credentials form knows. */
const DEMO = { email: "ada@example.com", password: "correct horse battery staple" }

let config: KitAuthConfig | undefined

/**
 * Built at the first request rather than at import: `vite build` imports this module to analyse
 * the app, and must not open the database (or need any secret) then.
 */
function configuration(): KitAuthConfig {
  if (config) return config
  const adapter = SQLiteAdapter(new DatabaseSync(DATABASE_PATH ?? "gatehouse-example.db"))
  config = {
    adapter,
    session: { strategy: SESSION_STRATEGY === "database" ? "database" : "jwt" },
    experimental: { enableWebAuthn: true },
    pages: { signIn: "/signin" },
    providers: [
      Credentials({
        credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
        async authorize({ email, password }) {
          if (email !== DEMO.email || password !== DEMO.password) return null
          return (await adapter.getUserByEmail(DEMO.email)) ?? (await adapter.createUser({ email: DEMO.email, name: "Ada Lovelace", emailVerified: new Date() }))
        },
        // The demo account's password is fixed; nothing to revoke.
        revokeCredentials: () => false,
      }),
      {
        id: "local-oidc",
        name: "Local OpenID",
        type: "oidc",
        issuer: OIDC_ISSUER,
        clientId: OIDC_CLIENT_ID,
        clientSecret: OIDC_CLIENT_SECRET,
      },
      Nodemailer({ server: SMTP_URL, from: "Gatehouse example <auth@localhost>" }),
      Passkey(),
    ],
  }
  return config
}

// The same object every time, so Gatehouse prepares it once.
export const { handle, signIn, signOut } = KitAuth(configuration)

/**
 * The app's Gatehouse configuration, in a module of its own: SolidStart 1 keeps only the handlers
 * of a route file, so the route file imports this. Server-only (SQLite, SMTP): import it from
 * API routes, the middleware and "use server" modules, never from a component.
 *
 * The identity providers run locally (the tests start an OpenID provider and an SMTP inbox and
 * pass their addresses in the environment); users and passkeys live in a SQLite file;
 * SESSION_STRATEGY picks JWT or database sessions.
 */
import Database from "better-sqlite3"
import { SQLiteAdapter } from "gatehouse-auth/adapters/sqlite"
import Credentials from "gatehouse-auth/providers/credentials"
import Nodemailer from "gatehouse-auth/providers/nodemailer"
import Passkey from "gatehouse-auth/providers/passkey"
import type { SignalAuthConfig } from "gatehouse-auth/solid-start"

const adapter = SQLiteAdapter(new Database(process.env.DATABASE_PATH ?? "gatehouse-example.db"))

/** The one account the password form knows. */
const DEMO = { email: "ada@example.com", password: "correct horse battery staple" }

export const authConfig: SignalAuthConfig = {
  // Where src/routes/api/auth/[...auth].ts serves the routes (the default, spelled out).
  prefix: "/api/auth",
  adapter,
  session: {
    strategy: process.env.SESSION_STRATEGY === "database" ? "database" : "jwt",
    // Seconds before a session read renews the cookie (the tests set 0 to see every read do it).
    updateAge: Number(process.env.SESSION_UPDATE_AGE ?? 24 * 60 * 60),
  },
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
      issuer: process.env.OIDC_ISSUER,
      clientId: process.env.OIDC_CLIENT_ID,
      clientSecret: process.env.OIDC_CLIENT_SECRET,
    },
    Nodemailer({ server: process.env.SMTP_URL, from: "Gatehouse example <auth@localhost>" }),
    Passkey(),
  ],
  callbacks: {
    // What the client's update() sends becomes the session's name (validated: a short string).
    jwt: ({ token, trigger, session }) => {
      const name = nameIn(session)
      if (trigger === "update" && name) token.name = name
      return token
    },
    // Database sessions keep the name on the user row.
    async session({ session, user, trigger, newSession }) {
      const name = nameIn(newSession)
      if (user && trigger === "update" && name) {
        await adapter.updateUser({ id: user.id, name })
        return { ...session, user: { ...session.user, name } }
      }
      return session
    },
  },
}

function nameIn(data: unknown): string | undefined {
  const name = (data as { name?: unknown } | null | undefined)?.name
  return typeof name === "string" && name.trim() !== "" && name.length <= 64 ? name.trim() : undefined
}

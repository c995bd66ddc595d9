/**
 * The app's Gatehouse configuration. The identity providers it uses run locally (the tests start
 * an OpenID provider and an SMTP inbox, and pass their addresses in the environment), and users
 * and passkeys live in a SQLite file; SESSION_STRATEGY picks JWT or database sessions.
 */
import Database from "better-sqlite3"
import NextAuth from "gatehouse-auth/next"
import { SQLiteAdapter } from "gatehouse-auth/adapters/sqlite"
import Credentials from "gatehouse-auth/providers/credentials"
import Nodemailer from "gatehouse-auth/providers/nodemailer"
import Passkey from "gatehouse-auth/providers/passkey"
import type { NextAuthConfig } from "gatehouse-auth/next"

const adapter = SQLiteAdapter(new Database(process.env.DATABASE_PATH ?? "gatehouse-example.db"))

/** The one account the credentials form knows. */
const DEMO = { email: "ada@example.com", password: "correct horse battery staple" }

const config: NextAuthConfig = {
  adapter,
  session: { strategy: process.env.SESSION_STRATEGY === "database" ? "database" : "jwt" },
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
    // The proxy asks this for every page it matches: /protected needs a session.
    authorized: ({ auth, request }) => !request.nextUrl.pathname.startsWith("/protected") || !!auth?.user,
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

export const { handlers, auth, signIn, signOut, unstable_update } = NextAuth(config)

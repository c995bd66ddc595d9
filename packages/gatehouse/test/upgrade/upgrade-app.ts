/**
 * The application of the upgrade fixtures, shared by the script that made them with the previous
 * release (make-fixtures.ts) and the test that signs their users in with the current code
 * (from-previous-release.test.ts): one secret, one origin, the same users at a GitHub-shaped
 * provider, the same configuration. Values only (types are erased), so the script can run it
 * against an old build without loading the current sources.
 */
import type { Adapter } from "../../src/adapters/index.js"
import type { OAuthConfig } from "../../src/providers/types.js"
import type { AuthConfig, Profile } from "../../src/types.js"
import type { GitHubLikeServer, GitHubUser } from "../support/github-like-server.js"

/** The auth secret the previous release signed, sealed and hashed everything with. */
export const FIXTURE_SECRET = "upgrade-fixture-secret-do-not-use-anywhere-else-0123456789"
export const ORIGIN = "https://app.test"
export const DASHBOARD = `${ORIGIN}/dashboard`
export const SESSION_COOKIE = "__Secure-authjs.session-token"

/** The people of the fixtures, as the GitHub-shaped server describes them. */
export const GITHUB_USERS = {
  alice: { id: 1001, login: "alice", name: "Alice", email: "alice@example.test", avatar_url: "https://avatars.example.test/1001" },
  bob: { id: 1002, login: "bob", name: "Bob", email: "bob@example.test", avatar_url: "https://avatars.example.test/1002" },
  carol: { id: 1003, login: "carol", name: "Carol", email: "carol@example.test", avatar_url: "https://avatars.example.test/1003" },
} satisfies Record<string, GitHubUser>
export type Person = keyof typeof GITHUB_USERS

/** Carol's authenticator-app key (20 bytes, hex) and her recovery codes, enrolled under the previous release. */
export const CAROL_TOTP_KEY_HEX = "3132333435363738393031323334353637383930"
export const CAROL_RECOVERY_CODES = ["7QJXM-2KD9W-TRH4N-PC8ZV-3QEMA", "H4NPC-8ZV3Q-EM7QJ-XM2KD-9WTRB"]

/** The email-link token left unused in the database. */
export const PENDING_VERIFICATION = { identifier: "dave@example.test", token: "upgrade-fixture-verification-token", expires: "2099-01-01T00:00:00.000Z" }

/** A session lifetime that outlives the fixtures (about 75 years), so they never expire. */
export const FIXTURE_SESSION_MAX_AGE = Math.floor((Date.UTC(2100, 0, 1) - Date.UTC(2025, 0, 1)) / 1000)

/** The provider: the GitHub-shaped server of the test support, its users mapped as GitHub's are. */
export function githubProvider(server: GitHubLikeServer): OAuthConfig {
  return {
    id: "github",
    name: "GitHub",
    type: "oauth",
    clientId: server.clientId,
    clientSecret: server.clientSecret,
    authorization: { url: server.authorizeUrl, params: { scope: "read:user user:email" } },
    token: server.tokenUrl,
    userinfo: server.userUrl,
    profile: (profile: Profile) => {
      const user = profile as unknown as GitHubUser
      return { id: String(user.id), name: user.name ?? user.login, email: user.email, image: user.avatar_url }
    },
  }
}

/**
 * The app: GitHub sign-in over a SQL adapter (or none), authenticator-app two-factor for those enrolled,
 * `/auth` as base path. `maxAge` is the fixtures' long one when they are made, the default when
 * the current code reads them. The session answers carry the user's id.
 */
export function upgradeConfig(options: { adapter?: Adapter; strategy: "jwt" | "database"; server: GitHubLikeServer; maxAge?: number }): Omit<AuthConfig, "raw"> {
  return {
    secret: FIXTURE_SECRET,
    trustHost: true,
    basePath: "/auth",
    ...(options.adapter && { adapter: options.adapter }),
    session: { strategy: options.strategy, ...(options.maxAge !== undefined && { maxAge: options.maxAge }) },
    providers: [githubProvider(options.server)],
    // Two-factor keeps its state in the database, so an app without one has none.
    ...(options.adapter && { twoFactor: { totp: { issuer: "Gatehouse upgrade fixtures" } } }),
    // The user's id in the session, as most apps add it: "the same session" then means the same user.
    callbacks: { session: ({ session, user, token }) => ({ ...session, user: { ...session.user, id: user?.id ?? token?.sub } }) },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
  }
}

/** What `fixture.json` records beside the database files. */
export interface FixtureManifest {
  /** The commit and version that made the fixtures. */
  madeBy: { commit: string; version: string }
  stores: Record<"sqlite" | "postgres", StoreFixture>
  /** JWT session cookies written by the previous release's `encode` (no database needed to read them). */
  jwtCookies: { name: string; value: string; session: FixtureSession }[]
}

/** The users of one database and the cookies of their sessions. */
export interface StoreFixture {
  userIds: Record<Person, string>
  /** Database-session cookies, with what the previous release's session route answered for each. */
  databaseCookies: { person: Person; label: string; value: string; session: FixtureSession }[]
  /** JWT-session cookies the previous release set after a sign-in through this database. */
  jwtCookies: { person: Person; label: string; value: string; session: FixtureSession }[]
  /** Row counts of every table after the fixtures were made. */
  rowCounts: Record<string, number>
}

/** A session as `GET /auth/session` answers it, without `expires` (which moves with the clock). */
export type FixtureSession = Record<string, unknown>

/** The session route's answer without the fields that depend on when it is asked. */
export function comparableSession(session: unknown): FixtureSession {
  if (session === null || typeof session !== "object") throw new Error(`not a session: ${JSON.stringify(session)}`)
  const { expires: _expires, ...rest } = session as Record<string, unknown>
  return rest
}

/** The tables whose rows are counted before and after an upgrade: all but SQLite's own, sorted. */
export const countedTables = (tables: string[]): string[] => tables.filter((table) => !table.startsWith("sqlite_")).sort()

/** The schema the PostgreSQL fixture was dumped from; the test loads it under a name of its own. */
export const DUMPED_SCHEMA = "gatehouse_prev"

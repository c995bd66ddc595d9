/**
 * Makes the upgrade fixtures (fixtures/<version>/) with a *build of a previous release*, so the
 * upgrade test can show the current code signing that release's users in. Checked in with what it
 * made; run it again only to add fixtures for a new release (keep the old ones).
 *
 * How to run it (from the repository root; never `npm install` in the copy):
 *
 *   git worktree add /tmp/gh-prev <commit of the release>      # 53b541f for 0.1.0
 *   cp -al node_modules /tmp/gh-prev/node_modules
 *   (cd /tmp/gh-prev && npm run build)
 *   npx tsx packages/gatehouse/test/upgrade/make-fixtures.ts /tmp/gh-prev <commit> <version>
 *   git worktree remove --force /tmp/gh-prev
 *
 * It starts a throwaway PostgreSQL and the GitHub-shaped OAuth server of the test support, signs
 * Alice, Bob and Carol in through the old build's `Auth` with GitHub (database sessions, and JWT
 * sessions over the same database), enrols Carol in authenticator-app two-factor and signs her in
 * with her code, leaves an email-link token unused, and writes:
 * - `sqlite.db`: the SQLite database as the old `SQLiteAdapter` left it;
 * - `postgres.sql`: `pg_dump --column-inserts` of the schema `gatehouse_prev`, as the old
 *   `migrate(pool)` and `PostgresAdapter` left it (psql meta-commands removed: plain SQL);
 * - `fixture.json`: user ids, session cookies with what the old session route answered for each,
 *   JWT cookies written by the old `encode`, and every table's row count.
 * Sessions last until 2100 (`FIXTURE_SESSION_MAX_AGE`), so the fixtures never expire.
 */
import Database from "better-sqlite3"
import { execFileSync } from "node:child_process"
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import pg from "pg"
import { Browser } from "../support/browser.js"
import { startGitHubLikeServer, type GitHubLikeServer } from "../support/github-like-server.js"
import { postgresBinDir, startPostgres } from "../support/postgres-server.js"
import { totpNow } from "../support/totp-reference.js"
import {
  CAROL_RECOVERY_CODES,
  CAROL_TOTP_KEY_HEX,
  comparableSession,
  countedTables,
  DASHBOARD,
  DUMPED_SCHEMA,
  FIXTURE_SECRET,
  FIXTURE_SESSION_MAX_AGE,
  GITHUB_USERS,
  ORIGIN,
  PENDING_VERIFICATION,
  SESSION_COOKIE,
  upgradeConfig,
  type FixtureManifest,
  type Person,
  type StoreFixture,
} from "./upgrade-app.js"

const [previousRoot, commit, version] = process.argv.slice(2)
if (!previousRoot || !commit || !version) {
  console.error("usage: make-fixtures.ts <worktree of the previous release, built> <commit> <version>")
  process.exit(2)
}
const dist = resolve(previousRoot, "packages/gatehouse/dist")
const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(join(dist, path)).href)) as T

// The previous release, from its build: the types are the current ones, the code is the old one.
const { Auth } = await load<typeof import("../../src/index.js")>("index.js")
const { encode } = await load<typeof import("../../src/jwt/index.js")>("jwt/index.js")
const { SQLiteAdapter } = await load<typeof import("../../src/adapters/sqlite.js")>("adapters/sqlite.js")
const { PostgresAdapter, migrate } = await load<typeof import("../../src/adapters/postgres.js")>("adapters/postgres.js")
// Enrolment as the old two-factor routes store it (the sealed key, the hashed codes), without a QR page.
const { sealTotpSecret } = await load<typeof import("../../src/core/two-factor/secret-seal.js")>("core/two-factor/secret-seal.js")
const { recoveryCodeHashes } = await load<typeof import("../../src/core/two-factor/recovery-codes.js")>("core/two-factor/recovery-codes.js")
// What both old adapters have: the contract they share (the SQLite one may have more).
type OldAdapter = ReturnType<typeof PostgresAdapter>

const out = resolve(import.meta.dirname, "fixtures", version)
mkdirSync(out, { recursive: true })

const github = await startGitHubLikeServer({ clientId: "gh-client", clientSecret: "gh-secret" })
const postgres = await startPostgres()

/** Signs `person` in with GitHub on the old app; the session cookie and what the session route says. */
async function signIn(app: (request: Request) => Promise<Response>, person: Person, twoFactorCode?: () => string): Promise<{ value: string; session: Record<string, unknown> }> {
  github.user = { ...GITHUB_USERS[person] }
  const browser = new Browser({ app, appOrigin: ORIGIN })
  const csrf = async () => ((await browser.get(`${ORIGIN}/auth/csrf`)).last.json() as { csrfToken: string }).csrfToken
  let visit = await browser.post(`${ORIGIN}/auth/signin/github`, { csrfToken: await csrf(), callbackUrl: DASHBOARD })
  if (twoFactorCode) {
    if (!visit.url.startsWith(`${ORIGIN}/auth/two-factor`)) throw new Error(`${person}: no second factor asked (${visit.url})`)
    visit = await browser.post(`${ORIGIN}/auth/two-factor`, { csrfToken: await csrf(), code: twoFactorCode() })
  }
  if (visit.url !== DASHBOARD) throw new Error(`${person}: the sign-in ended at ${visit.url} (${visit.status})`)
  const cookie = browser.cookies(ORIGIN).find((c) => c.name === SESSION_COOKIE)
  if (!cookie) throw new Error(`${person}: no session cookie`)
  const session = (await browser.get(`${ORIGIN}/auth/session`)).last.json()
  return { value: cookie.value, session: comparableSession(session) }
}

/** Everything the fixtures hold, made in one database through the old adapter. */
async function populate(adapter: OldAdapter, countRows: () => Promise<Record<string, number>>): Promise<StoreFixture> {
  const app = (strategy: "jwt" | "database") => {
    const config = upgradeConfig({ adapter, strategy, server: github, maxAge: FIXTURE_SESSION_MAX_AGE })
    return (request: Request) => Auth(request, config)
  }
  const database = app("database")
  const jwt = app("jwt")
  const fixture: StoreFixture = { userIds: { alice: "", bob: "", carol: "" }, databaseCookies: [], jwtCookies: [], rowCounts: {} }
  for (const person of ["alice", "bob", "carol"] as const) {
    const signedIn = await signIn(database, person)
    fixture.databaseCookies.push({ person, label: "GitHub sign-in", ...signedIn })
    const user = await adapter.getUserByAccount({ provider: "github", providerAccountId: String(GITHUB_USERS[person].id) })
    if (!user) throw new Error(`${person}: no linked user`)
    fixture.userIds[person] = user.id
  }
  fixture.jwtCookies.push({ person: "bob", label: "GitHub sign-in, JWT session", ...(await signIn(jwt, "bob")) })

  // Carol enrols an authenticator app (and gets recovery codes), then signs in with both factors.
  const uid = fixture.userIds.carol
  const key = Uint8Array.from(Buffer.from(CAROL_TOTP_KEY_HEX, "hex"))
  const sealed = await sealTotpSecret({ secret: [FIXTURE_SECRET] }, uid, key)
  await adapter.setTotpPendingSecret(uid, sealed)
  await adapter.enableTotp(uid, { sealed, step: Math.floor(Date.now() / 30_000) - 10, recoveryCodeHashes: await recoveryCodeHashes(uid, CAROL_RECOVERY_CODES) })
  fixture.databaseCookies.push({ person: "carol", label: "GitHub and authenticator app", ...(await signIn(database, "carol", () => totpNow(key))) })
  // A later step than the one above: the old code refuses a step it has seen.
  await new Promise((done) => setTimeout(done, 30_000 - (Date.now() % 30_000) + 100))
  fixture.jwtCookies.push({ person: "carol", label: "GitHub and authenticator app, JWT session", ...(await signIn(jwt, "carol", () => totpNow(key))) })

  await adapter.createVerificationToken({ ...PENDING_VERIFICATION, expires: new Date(PENDING_VERIFICATION.expires) })
  fixture.rowCounts = await countRows()
  return fixture
}

try {
  // SQLite: a file, as an app keeps it; one file at the end (no WAL beside it).
  const sqliteFile = join(out, "sqlite.db")
  rmSync(sqliteFile, { force: true })
  const db = new Database(sqliteFile)
  const sqliteTables = () => countedTables((db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]).map((row) => row.name))
  const sqlite = await populate(SQLiteAdapter(db), async () =>
    Object.fromEntries(sqliteTables().map((table) => [table, (db.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n])),
  )
  db.pragma("journal_mode = DELETE")
  db.close()

  // PostgreSQL: the old migrate(pool) in a schema of its own, then a plain-SQL dump of it.
  const admin = new pg.Client({ connectionString: postgres.url })
  await admin.connect()
  await admin.query(`CREATE SCHEMA ${DUMPED_SCHEMA}`)
  await admin.end()
  const pool = new pg.Pool({ connectionString: postgres.url, options: `-c search_path=${DUMPED_SCHEMA}` })
  await migrate(pool)
  const postgresFixture = await populate(PostgresAdapter(pool), async () => {
    const { rows } = await pool.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE'`, [DUMPED_SCHEMA])
    const counts: Record<string, number> = {}
    for (const table of countedTables(rows.map((row) => row.table_name))) counts[table] = Number((await pool.query(`SELECT count(*) AS n FROM "${table}"`)).rows[0].n)
    return counts
  })
  await pool.end()
  const dump = execFileSync(join(postgresBinDir(), "pg_dump"), ["--dbname", postgres.url, "--schema", DUMPED_SCHEMA, "--no-owner", "--no-privileges", "--column-inserts", "--no-comments"], {
    encoding: "utf8",
  })
  const plain = dump
    .split("\n")
    // psql meta-commands (\restrict) and settings older servers lack are not plain SQL.
    .filter((line) => !line.startsWith("\\") && !line.startsWith("SET transaction_timeout"))
    .join("\n")
  writeFileSync(join(out, "postgres.sql"), `-- Made by make-fixtures.ts with gatehouse-auth ${version} (${commit}); the schema ${DUMPED_SCHEMA} is renamed on load.\n${plain}`)

  // JWT cookies straight from the old encode, for an app without a database.
  const token = { name: "Erin", email: "erin@example.test", picture: null, sub: "erin-without-a-database" }
  const jwtCookie = await encode({ token, secret: FIXTURE_SECRET, salt: SESSION_COOKIE, maxAge: FIXTURE_SESSION_MAX_AGE })
  const withoutDatabase = upgradeConfig({ strategy: "jwt", server: github })
  const read = await Auth(new Request(`${ORIGIN}/auth/session`, { headers: { cookie: `${SESSION_COOKIE}=${jwtCookie}` } }), withoutDatabase)
  if (read.status !== 200) throw new Error(`the old session route answered ${read.status} for the encoded cookie`)
  const manifest: FixtureManifest = {
    madeBy: { commit, version },
    stores: { sqlite, postgres: postgresFixture },
    jwtCookies: [{ name: SESSION_COOKIE, value: jwtCookie, session: comparableSession(await read.json()) }],
  }
  writeFileSync(join(out, "fixture.json"), `${JSON.stringify(manifest, null, 2)}\n`)
  console.log(`fixtures written to ${out}`)
} finally {
  await github.stop()
  await postgres.destroy()
}

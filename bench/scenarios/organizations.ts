/**
 * Scenario 10: organizations at size, on PostgreSQL: 10,000 members in one organization among
 * 1,000 organizations. Auth.js has no organizations (only an RBAC guide), so these lines are
 * Gatehouse's alone: absolute latencies (p50, p95, p99) and the SQL queries one operation makes,
 * counted on the pg pool. Every query that reads organization_members is run through EXPLAIN (the
 * plan PostgreSQL picks for these values, and the generic plan a prepared statement may settle
 * on); a sequential scan of organization_members fails the run, as a wrong answer does.
 *
 * The lines follow the issue's three promises: (a) the membership and permission check of a
 * request is one indexed query; (b) a page of 50 members is one query with a join, p95 ≤ 50 ms;
 * (c) switching the active organization reads no member list (one membership read, one context
 * write). Where the server functions and the session's active organization are not in the build
 * yet, the adapter calls they are made of stand in, and the line says so.
 */
import { createHash } from "node:crypto"
import * as gatehouse from "gatehouse-auth"
import type { AdapterMemberListing, ListMembersOptions } from "gatehouse-auth/adapters"
import { migrate, PostgresAdapter, type PostgresAdapterMethods } from "gatehouse-auth/adapters/postgres"
import { getSession, prepareConfig } from "gatehouse-auth/framework"
import { encode } from "gatehouse-auth/jwt"
import GitHub from "gatehouse-auth/providers/github"
import pg from "pg"
import { startPostgres } from "../../packages/gatehouse/test/support/postgres-server.js"
import { basePath, githubOptions, origin, secret, sessionCookieName } from "../fixtures.js"
import { interleave, timingAtScale, type Timing } from "../measure.js"
import type { Scenario, ScenarioContext } from "../scenario.js"

const ORGANIZATIONS = 1_000
const MEMBERS = 10_000
/** Members of each organization but the big one (users spread over the whole users table). */
const SMALL_ORGANIZATION_MEMBERS = 10
const PAGE = 50
/** The issue's bound for a page of members, here. */
const PAGE_P95_TARGET_MS = 50

const userId = (n: number) => `bench-user-${String(n).padStart(5, "0")}`
const organizationId = (n: number) => `bench-org-${String(n).padStart(4, "0")}`
/** The organization with every user in it. */
const BIG = organizationId(1)
/** A small organization the signed-in member also belongs to: where the switch goes. */
const OTHER = organizationId(2)
const OWNER = userId(1)
/** The signed-in user of the session lines: a plain `member` of both organizations. */
const MEMBER = userId(2)
/** Member n of the big organization joined this many seconds after the epoch below (keyset order). */
const JOINED = Date.parse("2026-01-01T00:00:00Z")

/** Far ahead, so no session read extends the session (a write that is not what is measured). */
const EXPIRES = new Date(Date.now() + 365 * 24 * 3600 * 1000)

/** One query as the adapter sent it, and how many rows it answered. */
interface LoggedQuery {
  text: string
  values: unknown[]
  rows: number
}

/**
 * Counts what goes through the pool. It wraps `pool.query` before the adapter is made (the
 * adapter keeps the function it was given), so every statement of the adapter passes here.
 */
class QueryLog {
  private recording: LoggedQuery[] | null = null

  constructor(pool: pg.Pool) {
    const query = pool.query.bind(pool) as (config: unknown, values?: unknown) => Promise<pg.QueryResult>
    ;(pool as unknown as { query: unknown }).query = async (config: unknown, values?: unknown) => {
      const result = await query(config, values)
      if (this.recording) {
        const statement = typeof config === "string" ? { text: config, values } : (config as { text: string; values?: unknown })
        this.recording.push({ text: statement.text, values: Array.isArray(statement.values) ? statement.values : [], rows: result.rows.length })
      }
      return result
    }
  }

  /**
   * The queries one run of `op` makes (run alone: nothing else may use the pool meanwhile), after
   * a first run uncounted: a process's first call also reads the schema version, once.
   */
  async of(op: () => Promise<unknown>): Promise<LoggedQuery[]> {
    await op()
    const log: LoggedQuery[] = []
    this.recording = log
    try {
      await op()
    } finally {
      this.recording = null
    }
    return log
  }
}

/** What one query does, in a few words: its verb and the tables it names ("SELECT sessions, users"). */
function summary(query: LoggedQuery): string {
  const verb = /^\s*(?:WITH\b[\s\S]*?\)\s*)?(SELECT|INSERT|UPDATE|DELETE)\b/i.exec(query.text)?.[1]?.toUpperCase() ?? query.text.trim().split(/\s+/)[0]
  const tables = [...new Set([...query.text.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE)\s+"?([a-z_]+)"?/gi)].map((match) => match[1]!).filter((name) => !/^(set|select|lateral|only)$/i.test(name)))]
  return `${verb} ${tables.join(", ")}`
}

const summaries = (queries: LoggedQuery[]) => queries.map(summary).join("; ")

const readsMembers = (query: LoggedQuery) => /\borganization_members\b/.test(query.text)
const writesContext = (query: LoggedQuery) => /\bsession_context\b/.test(query.text) && /\b(INSERT|UPDATE)\b/i.test(query.text)

interface PlanNode {
  "Node Type": string
  "Relation Name"?: string
  "Index Name"?: string
  /** With EXPLAIN ANALYZE: rows per loop, and loops. */
  "Actual Rows"?: number
  "Actual Loops"?: number
  Plans?: PlanNode[]
}

function scansOf(node: PlanNode, into: PlanNode[] = []): PlanNode[] {
  if (node["Relation Name"] !== undefined || node["Index Name"] !== undefined) into.push(node)
  for (const child of node.Plans ?? []) scansOf(child, into)
  return into
}

/** A value as an SQL literal, for `EXECUTE` of a prepared statement (EXPLAIN of a generic plan). */
function literal(client: pg.PoolClient, value: unknown): string {
  if (value === null || value === undefined) return "NULL"
  if (typeof value === "number" || typeof value === "bigint") return String(value)
  if (value instanceof Date) return client.escapeLiteral(value.toISOString())
  return client.escapeLiteral(String(value))
}

/**
 * The scans PostgreSQL plans for `query`: with these values (a custom plan), and as a generic
 * plan (what a prepared statement, as the adapter runs them, may use after five executions).
 * A read is run as well (EXPLAIN ANALYZE), so the plans tell how many member rows they read.
 */
async function plans(pool: pg.Pool, query: LoggedQuery): Promise<{ custom: PlanNode[]; generic: PlanNode[] }> {
  const client = await pool.connect()
  const explain = /^\s*SELECT\b/i.test(query.text) ? "EXPLAIN (ANALYZE, FORMAT JSON)" : "EXPLAIN (FORMAT JSON)"
  try {
    const custom = (await client.query<{ "QUERY PLAN": { Plan: PlanNode }[] }>(`${explain} ${query.text}`, query.values)).rows[0]!["QUERY PLAN"][0]!.Plan
    await client.query(`PREPARE bench_explained AS ${query.text}`)
    try {
      await client.query(`SET plan_cache_mode = force_generic_plan`)
      const args = query.values.length > 0 ? `(${query.values.map((value) => literal(client, value)).join(", ")})` : ""
      const generic = (await client.query<{ "QUERY PLAN": { Plan: PlanNode }[] }>(`${explain} EXECUTE bench_explained${args}`)).rows[0]!["QUERY PLAN"][0]!.Plan
      return { custom: scansOf(custom), generic: scansOf(generic) }
    } finally {
      await client.query(`RESET plan_cache_mode`)
      await client.query(`DEALLOCATE bench_explained`)
    }
  } finally {
    client.release()
  }
}

const describeScan = (scan: PlanNode) =>
  `${scan["Node Type"]}${scan["Relation Name"] ? ` on ${scan["Relation Name"]}` : ""}${scan["Index Name"] ? ` using ${scan["Index Name"]}` : ""}` +
  (scan["Actual Rows"] !== undefined ? ` (${(scan["Actual Rows"] * (scan["Actual Loops"] ?? 1)).toLocaleString("en-US")} rows)` : "")

/**
 * EXPLAINs every query of `queries` that reads organization_members, prints what each scans, and
 * (`strict`) throws on a sequential scan of organization_members: at 10,000 members that is the
 * slow path the issue rules out, and a broken result rather than a slow figure. A search is not
 * strict: it filters on the users' email and name, which no index serves as an ILIKE prefix, so
 * PostgreSQL may rightly scan and hash-join rather than walk the member order; it is printed.
 */
async function checkPlans(pool: pg.Pool, report: ScenarioContext["report"], what: string, queries: LoggedQuery[], strict = true): Promise<void> {
  for (const query of queries.filter(readsMembers)) {
    const { custom, generic } = await plans(pool, query)
    const seq = [...custom, ...generic].filter((scan) => scan["Node Type"] === "Seq Scan" && scan["Relation Name"] === "organization_members")
    const indexes = [...new Set(custom.filter((scan) => scan["Index Name"]).map((scan) => scan["Index Name"]))]
    report.note(
      `EXPLAIN ${what}: ${seq.length === 0 ? `index used (${indexes.join(", ") || "none named"})` : "SEQUENTIAL SCAN of organization_members"}; ` +
        `plan: ${custom.map(describeScan).join(", ")}; generic plan: ${generic.map(describeScan).join(", ")}`,
    )
    if (seq.length > 0 && strict) throw new Error(`${what} scans organization_members sequentially: ${query.text.replace(/\s+/g, " ")}`)
  }
}

/** Users, organizations and members in four statements (no per-row round trips), then fresh statistics. */
async function seed(pool: pg.Pool): Promise<void> {
  await pool.query(
    `INSERT INTO users (id, name, email, "emailVerified")
     SELECT 'bench-user-' || lpad(n::text, 5, '0'), 'Member ' || n, 'member' || n || '@example.com', now()
     FROM generate_series(1, ${MEMBERS}) AS n`,
  )
  await pool.query(
    `INSERT INTO organizations (id, name, slug, created_at)
     SELECT 'bench-org-' || lpad(n::text, 4, '0'), 'Organization ' || n, 'organization-' || n, now()
     FROM generate_series(1, ${ORGANIZATIONS}) AS n`,
  )
  await pool.query(
    `INSERT INTO organization_members (organization_id, "userId", role, created_at)
     SELECT '${BIG}', 'bench-user-' || lpad(n::text, 5, '0'), CASE WHEN n = 1 THEN 'owner' ELSE 'member' END,
            timestamptz '2026-01-01T00:00:00Z' + n * interval '1 second'
     FROM generate_series(1, ${MEMBERS}) AS n`,
  )
  await pool.query(
    `INSERT INTO organization_members (organization_id, "userId", role, created_at)
     SELECT 'bench-org-' || lpad(o::text, 4, '0'), 'bench-user-' || lpad(((o * ${SMALL_ORGANIZATION_MEMBERS} + j) % ${MEMBERS} + 1)::text, 5, '0'),
            CASE WHEN j = 0 THEN 'owner' ELSE 'member' END, timestamptz '2026-01-01T00:00:00Z' + j * interval '1 second'
     FROM generate_series(2, ${ORGANIZATIONS}) AS o, generate_series(0, ${SMALL_ORGANIZATION_MEMBERS - 1}) AS j`,
  )
  await pool.query(`ANALYZE users, organizations, organization_members`)
}

/** The adapter method part A adds (the member joined with its organization), when this build has it. */
type GetMembership = (organizationId: string, userId: string) => Promise<{ role: string; organization?: { id: string } } | null>

/** The server functions of design.md, looked up by name so this bench builds before and after they exist. */
interface OrganizationFunctions {
  setActiveOrganization?: (request: Request, config: unknown, organizationId: string | null) => Promise<{ setCookies: string[] }>
  listMembers?: (request: Request, config: unknown, organizationId: string, options?: { limit?: number }) => Promise<unknown>
}

function pageCheck(list: () => Promise<AdapterMemberListing[]>, first: string, size = PAGE): () => Promise<void> {
  return async () => {
    const page = await list()
    if (page.length !== size || page[0]?.userId !== first || typeof page[0]?.user.email !== "string") {
      throw new Error(`listMembers answered ${page.length} members starting at ${page[0]?.userId}, expected ${size} from ${first}`)
    }
  }
}

async function timed(scale: number, op: () => Promise<unknown>): Promise<Timing> {
  const [timing] = await interleave([{ name: "gatehouse", op }], timingAtScale(scale, 1))
  return timing!
}

const met = (ok: boolean) => (ok ? "met" : "NOT MET")

async function run({ report, scale, cleanup }: ScenarioContext): Promise<void> {
  const server = await startPostgres()
  cleanup(() => server.destroy())
  const pool = new pg.Pool({ connectionString: server.url, max: 4 })
  pool.on("error", (error) => {
    if (!pool.ending) console.error("PostgreSQL connection lost:", error.message)
  })
  cleanup(() => pool.end())
  await migrate(pool)
  const seeding = performance.now()
  await seed(pool)
  report.note(
    `PostgreSQL: throwaway cluster on 127.0.0.1:${server.port}; ${MEMBERS.toLocaleString("en-US")} users, all members of one organization, ` +
      `${ORGANIZATIONS.toLocaleString("en-US")} organizations (the others ${SMALL_ORGANIZATION_MEMBERS} members each); seeded by bulk SQL in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
  )
  report.note("Auth.js has no organizations: absolute figures, and the SQL queries per call counted on the pg pool; sequential calls")

  const log = new QueryLog(pool)
  const adapter: PostgresAdapterMethods = PostgresAdapter(pool)
  if ((await adapter.addMember({ organizationId: OTHER, userId: MEMBER, role: "member" })) === "already-member") throw new Error(`${MEMBER} was already in ${OTHER}`)
  const sessionToken = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex")
  const storedToken = `sha256:${createHash("sha256").update(sessionToken).digest("hex")}`
  await adapter.createSession({ sessionToken: storedToken, userId: MEMBER, expires: EXPIRES })
  const request = () => new Request(`${origin}/dashboard`, { headers: { cookie: `${sessionCookieName}=${sessionToken}` } })
  const config = { secret, basePath, trustHost: true, adapter, session: { strategy: "database" as const }, providers: [GitHub({ ...githubOptions })], organizations: {} }
  const functions = gatehouse as unknown as OrganizationFunctions

  // (a) The membership and permission check: what a session read makes of the active organization.
  const getMembership = (adapter as unknown as { getMembership?: GetMembership }).getMembership
  const membershipCheck = getMembership
    ? async () => {
        const membership = await getMembership(BIG, MEMBER)
        if (membership?.role !== "member") throw new Error(`getMembership answered ${JSON.stringify(membership)}`)
      }
    : async () => {
        const member = await adapter.getMember(BIG, MEMBER)
        const organization = await adapter.getOrganization({ id: BIG })
        if (member?.role !== "member" || organization?.id !== BIG) throw new Error(`getMember/getOrganization answered ${JSON.stringify({ member, organization })}`)
      }
  {
    const queries = await log.of(membershipCheck)
    const label = getMembership
      ? "(a) membership and permission check of a request: adapter getMembership (member ⋈ organization by primary key)"
      : "(a) membership and permission check of a request: adapter getMember + getOrganization (stand-in until the adapter has getMembership)"
    await checkPlans(pool, report, "membership read", queries)
    report.latency(label, await timed(scale, membershipCheck), {
      queries: queries.length,
      aside: getMembership ? `one indexed query: ${met(queries.length === 1)}` : "two indexed queries (primary keys); getMembership makes them one",
    })
  }

  // (a) again, whole: the in-process session read (what auth() does) with an active organization set.
  const { config: prepared } = prepareConfig(config, {}, { basePath })
  const page = request()
  const readSession = async () => (await getSession(page, prepared)).session as { user?: { email?: string }; activeOrganization?: { id?: string; role?: string } | null } | null
  const setContext = (adapter as { setSessionContext?: (token: string, patch: { activeOrganizationId: string | null }) => Promise<boolean> }).setSessionContext
  const contextSet = setContext ? await setContext(storedToken, { activeOrganizationId: BIG }) : false
  const active = contextSet ? (await readSession())?.activeOrganization : undefined
  if (active?.id === BIG) {
    const sessionCheck = async () => {
      const session = await readSession()
      if (session?.activeOrganization?.id !== BIG || session.activeOrganization.role !== "member") throw new Error(`the session read answered ${JSON.stringify(session)}`)
    }
    const queries = await log.of(sessionCheck)
    await checkPlans(pool, report, "session read's membership read", queries)
    const memberReads = queries.filter(readsMembers).length
    report.latency("(a) session read with an active organization (database session, in-process getSession as auth() calls it)", await timed(scale, sessionCheck), {
      queries: queries.length,
      aside: `of which ${memberReads} read organization_members; one indexed membership query: ${met(memberReads === 1)}; queries: ${summaries(queries)}`,
    })
  } else {
    report.note(
      `(a) the whole session read with an active organization: not measured, this build ${setContext ? "does not put activeOrganization in the session" : "has no setSessionContext"} (parts A and B of issue 39 bring it)`,
    )
  }

  // The same under JWT sessions: the claim holds only the organization's id, so the membership
  // query is the read's only one. The claim is Gatehouse's own: set through setActiveOrganization.
  if (functions.setActiveOrganization) {
    const jwtConfig = { secret, basePath, trustHost: true, adapter, session: { strategy: "jwt" as const }, providers: [GitHub({ ...githubOptions })], organizations: {} }
    const token = await encode({ token: { sub: MEMBER, name: "Member 2", email: "member2@example.com" }, secret, salt: sessionCookieName })
    const signedIn = new Request(`${origin}/dashboard`, { headers: { cookie: `${sessionCookieName}=${token}` } })
    const { setCookies } = await functions.setActiveOrganization(signedIn, jwtConfig, BIG)
    const cookie = setCookies.find((line) => line.startsWith(`${sessionCookieName}=`))?.split(";")[0]
    if (!cookie) throw new Error(`setActiveOrganization under JWT sessions set no session cookie: ${JSON.stringify(setCookies)}`)
    const { config: preparedJwt } = prepareConfig(jwtConfig, {}, { basePath })
    // The browser's cookie, carried forward as a browser would: a read that checks the session
    // version (every revocationCheckAge, 60 s) writes a refreshed token, and the reads after it
    // must not check again, or the timing would hold a query the count below leaves out.
    let jwtCookie = cookie
    const jwtCheck = async () => {
      const read = await getSession(new Request(`${origin}/dashboard`, { headers: { cookie: jwtCookie } }), preparedJwt)
      const refreshed = read.setCookies.find((line) => line.startsWith(`${sessionCookieName}=`))?.split(";")[0]
      if (refreshed) jwtCookie = refreshed
      const session = read.session as { activeOrganization?: { id?: string; role?: string } | null } | null
      if (session?.activeOrganization?.id !== BIG || session.activeOrganization.role !== "member") throw new Error(`the JWT session read answered ${JSON.stringify(session)}`)
    }
    const queries = await log.of(jwtCheck)
    await checkPlans(pool, report, "JWT session read's membership read", queries)
    report.latency("(a) session read with an active organization (JWT session, in-process getSession)", await timed(scale, jwtCheck), {
      queries: queries.length,
      aside: `one indexed membership query: ${met(queries.length === 1 && queries.every(readsMembers))}; queries: ${summaries(queries)}`,
    })
  }

  // (b) A page of 50 members: the first, one deep in the list (keyset), and a search.
  const lines: { label: string; options: ListMembersOptions; first: string; strict?: false }[] = [
    { label: "first page", options: { limit: PAGE }, first: OWNER },
    {
      label: "page after the 5,000th member (keyset cursor)",
      options: { limit: PAGE, after: { createdAt: new Date(JOINED + 5_000 * 1000), userId: userId(5_000) } },
      first: userId(5_001),
    },
    // member99…: 99, 990–999, 9900–9999 (111 members), so a full page.
    { label: "search 'member99' (email or name prefix)", options: { limit: PAGE, search: "member99" }, first: userId(99), strict: false },
  ]
  for (const line of lines) {
    const check = pageCheck(async () => await adapter.listMembers(BIG, line.options), line.first)
    const queries = await log.of(check)
    await checkPlans(pool, report, `member page, ${line.label}`, queries, line.strict)
    const timing = await timed(scale, check)
    report.latency(`(b) listMembers, 50 of 10,000 members, ${line.label}`, timing, {
      queries: queries.length,
      aside: `one query: ${met(queries.length === 1)}; p95 ≤ ${PAGE_P95_TARGET_MS} ms: ${met(timing.p95Us / 1000 <= PAGE_P95_TARGET_MS)}`,
    })
  }
  if (functions.listMembers) {
    const listMembers = functions.listMembers
    const check = async () => {
      const answer = (await listMembers(request(), config, BIG, { limit: PAGE })) as { members?: unknown[] } | unknown[]
      const members = Array.isArray(answer) ? answer : answer.members
      if (members?.length !== PAGE) throw new Error(`listMembers answered ${JSON.stringify(answer).slice(0, 300)}`)
    }
    const queries = await log.of(check)
    await checkPlans(pool, report, "listMembers server function", queries)
    const timing = await timed(scale, check)
    report.latency("(b) listMembers server function (session read, permission check, page of 50)", timing, {
      queries: queries.length,
      aside: `p95 ≤ ${PAGE_P95_TARGET_MS} ms: ${met(timing.p95Us / 1000 <= PAGE_P95_TARGET_MS)}; queries: ${summaries(queries)}`,
    })
  }

  // (c) Switching the active organization: one membership read, one context write, no member list.
  let target = OTHER
  const next = () => (target = target === OTHER ? BIG : OTHER)
  const setActive = functions.setActiveOrganization
  const switchOrganization = setActive
    ? async () => {
        await setActive(request(), config, next())
      }
    : async () => {
        const organization = next()
        const member = await adapter.getMember(organization, MEMBER)
        if (!member) throw new Error(`${MEMBER} is no member of ${organization}`)
        if (setContext && !(await setContext(storedToken, { activeOrganizationId: organization }))) throw new Error("setSessionContext found no session")
      }
  {
    const queries = await log.of(switchOrganization)
    await checkPlans(pool, report, "switch's membership read", queries)
    const memberReads = queries.filter(readsMembers)
    const listRead = memberReads.find((query) => query.rows > 1)
    if (listRead) throw new Error(`switching the active organization read ${listRead.rows} member rows: ${listRead.text.replace(/\s+/g, " ")}`)
    const contextWrites = queries.filter(writesContext).length
    const label = setActive
      ? "(c) setActiveOrganization (server function, database session)"
      : `(c) switching the active organization: adapter getMember${setContext ? " + setSessionContext" : ""} (stand-in until setActiveOrganization exists)`
    report.latency(label, await timed(scale, switchOrganization), {
      queries: queries.length,
      aside:
        `${memberReads.length} membership read(s) of one row, ${contextWrites} context write(s), no member list read; ` +
        (setActive || setContext
          ? `one membership read + one context write: ${met(memberReads.length === 1 && contextWrites === 1)}`
          : "no context write in this build (setSessionContext comes with part B)") +
        `; queries: ${summaries(queries)}`,
    })
  }
}

export const organizations: Scenario = {
  name: "organizations",
  title: "10. Organizations on PostgreSQL: 10,000 members in one organization, 1,000 organizations (Gatehouse only)",
  run,
}

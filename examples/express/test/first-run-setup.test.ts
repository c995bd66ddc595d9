/** What the demo does on first run before anything listens: the secret and the demo account. */
import Database from "better-sqlite3"
import { randomBytes, scryptSync } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { SQLiteAdapter } from "gatehouse-auth/adapters/sqlite"
import { verifyPassword } from "gatehouse-auth/password"
import { DEMO_EMAIL, DEMO_PASSWORD, demoPasswordCheck, seedDemoUser } from "../src/demo-account.js"
import { loadEnvFile } from "../src/env-file.js"

const dirs: string[] = []
function envPath(): string {
  const dir = mkdtempSync(join(tmpdir(), "gatehouse-demo-env-"))
  dirs.push(dir)
  return join(dir, ".env")
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe("the demo's .env", () => {
  it("gets a new 32-byte AUTH_SECRET on first run, readable only by its owner, and keeps it afterwards", () => {
    const path = envPath()
    const first: Record<string, string | undefined> = {}
    expect(loadEnvFile(path, first)).toEqual({ created: true })
    expect(Buffer.from(first.AUTH_SECRET!, "base64")).toHaveLength(32)
    expect(statSync(path).mode & 0o777).toBe(0o600)

    const second: Record<string, string | undefined> = {}
    expect(loadEnvFile(path, second)).toEqual({ created: false })
    expect(second.AUTH_SECRET).toBe(first.AUTH_SECRET)
  })

  it("adds the secret after what the file already holds, and loads the rest of it too", () => {
    const path = envPath()
    writeFileSync(path, "PORT=4000")
    const env: Record<string, string | undefined> = {}
    loadEnvFile(path, env)
    expect(env.PORT).toBe("4000")
    expect(readFileSync(path, "utf8")).toMatch(/^PORT=4000\nAUTH_SECRET="[^"]{44}"/)
  })

  it("writes nothing when the environment already has a secret, and lets set variables win", () => {
    const path = envPath()
    writeFileSync(path, "PORT=4000\n")
    const env: Record<string, string | undefined> = { AUTH_SECRET: "from-the-shell", PORT: "5000" }
    expect(loadEnvFile(path, env)).toEqual({ created: false })
    expect(readFileSync(path, "utf8")).toBe("PORT=4000\n")
    expect(env).toEqual({ AUTH_SECRET: "from-the-shell", PORT: "5000" })
  })
})

const databases: Array<{ dir: string; db: Database.Database }> = []
afterAll(() => {
  for (const { dir, db } of databases.splice(0)) {
    db.close()
    rmSync(dir, { recursive: true, force: true })
  }
})

/** A fresh demo database in a temporary directory, as on first run. */
function demoDatabase(): { db: Database.Database; adapter: ReturnType<typeof SQLiteAdapter> } {
  const dir = mkdtempSync(join(tmpdir(), "gatehouse-demo-db-"))
  const db = new Database(join(dir, "demo.db"))
  databases.push({ dir, db })
  return { db, adapter: SQLiteAdapter(db) }
}

function storedHash(db: Database.Database): string | undefined {
  return (db.prepare("SELECT hash FROM demo_passwords").get() as { hash: string } | undefined)?.hash
}

/** A scrypt hash of the demo password made by node:crypto alone, in `$scrypt$…` (PHC) or the demo's earlier layout. */
function independentHash(layout: "phc" | "earlier", ln: number): string {
  const salt = randomBytes(16)
  const key = scryptSync(DEMO_PASSWORD, salt, 32, { N: 2 ** ln, r: 8, p: 1 })
  if (layout === "earlier") return `scrypt$${2 ** ln}$8$1$${salt.toString("base64")}$${key.toString("base64")}`
  const b64 = (bytes: Buffer) => bytes.toString("base64").replace(/=+$/, "")
  return `$scrypt$ln=${ln},r=8,p=1$${b64(salt)}$${b64(key)}`
}

/** A demo database holding the demo user and `hash` as its password, as a previous run left it. */
async function previousRun(hash: string) {
  const demo = demoDatabase()
  await seedDemoUser(demo.db, demo.adapter)
  demo.db.prepare("UPDATE demo_passwords SET hash = ?").run(hash)
  return demo
}

describe("the demo account", () => {
  let seeded: ReturnType<typeof demoDatabase>
  let authorize: Awaited<ReturnType<typeof demoPasswordCheck>>
  beforeAll(async () => {
    seeded = demoDatabase()
    await seedDemoUser(seeded.db, seeded.adapter)
    authorize = await demoPasswordCheck(seeded.db, seeded.adapter)
  })

  it("is seeded with a gatehouse-auth/password scrypt hash of the demo password", async () => {
    const hash = storedHash(seeded.db)!
    expect(hash).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/)
    expect(await verifyPassword(DEMO_PASSWORD, hash)).toBe(true)
  })

  it("keeps its hash when the demo starts again", async () => {
    const before = storedHash(seeded.db)
    await seedDemoUser(seeded.db, seeded.adapter)
    expect(storedHash(seeded.db)).toBe(before)
  })

  it("signs in with the demo password only, whatever case or spaces the email comes with", async () => {
    const user = await authorize({ email: ` ${DEMO_EMAIL.toUpperCase()} `, password: DEMO_PASSWORD })
    expect(user?.email).toBe(DEMO_EMAIL)
    expect(await authorize({ email: DEMO_EMAIL, password: "not the password" })).toBeNull()
    expect(await authorize({ email: "nobody@example.com", password: DEMO_PASSWORD })).toBeNull()
    expect(await authorize({ email: DEMO_EMAIL })).toBeNull()
  })

  it("replaces a hash in the demo's earlier scrypt$N$r$p$salt$key layout, which gatehouse-auth/password does not read", async () => {
    const { db, adapter } = await previousRun(independentHash("earlier", 10))
    await seedDemoUser(db, adapter)
    const hash = storedHash(db)!
    expect(hash).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$/)
    expect(await (await demoPasswordCheck(db, adapter))({ email: DEMO_EMAIL, password: DEMO_PASSWORD })).not.toBeNull()
  })

  it("verifies a hash with weaker parameters, then replaces it with a current one", async () => {
    const weak = independentHash("phc", 12)
    const { db, adapter } = await previousRun(weak)
    await seedDemoUser(db, adapter)
    expect(storedHash(db)).toBe(weak)
    expect(await (await demoPasswordCheck(db, adapter))({ email: DEMO_EMAIL, password: DEMO_PASSWORD })).not.toBeNull()
    const upgraded = storedHash(db)!
    expect(upgraded).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$/)
    expect(await verifyPassword(DEMO_PASSWORD, upgraded)).toBe(true)
  })
})

/**
 * The runtime job: the packed package, installed into a throwaway app outside the workspace,
 * served by each runtime's own HTTP server (Node 20, 22 and 24 behind `node:http`, `Bun.serve`,
 * `Deno.serve`, and a Worker's `fetch` in workerd through miniflare, bundled by esbuild as a
 * Workers user bundles it), and driven over HTTP from here with the same requests and assertions:
 * credentials sign-in, session read, `getToken`, sign-out, and an OAuth sign-in against a
 * GitHub-shaped server on loopback, which the runtime's server calls with its own `fetch`.
 * Under /mfa, a sign-in that enrols an authenticator app before its session (Web Crypto HMAC-SHA-1,
 * the sealed secret, the QR code) on each runtime too.
 *
 * Run it alone: `npm run build && npx vitest run packages/gatehouse/test/runtimes`.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process"
import { randomBytes } from "node:crypto"
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CookieJar } from "../support/cookie-jar.js"
import { freePort } from "../support/free-port.js"
import { startGitHubLikeServer, type GitHubLikeServer } from "../support/github-like-server.js"
import { nodeRelease } from "../support/node-release.js"
import { packedPackage } from "../support/packed-package.js"
import { runtimeTools, type RuntimeTools } from "../support/runtime-tools.js"
import { base32Decode, totpNow } from "../support/totp-reference.js"

const appSource = fileURLToPath(new URL("./app", import.meta.url))
const readme = readFileSync(fileURLToPath(new URL("../../../../README.md", import.meta.url)), "utf8")

const SESSION_COOKIE = "authjs.session-token"
const PASSWORD = "correct horse battery"
const secret = randomBytes(32).toString("base64url")

/** What a runtime's server needs: the app folder, the tools, and the environment it gets. */
interface ServerContext {
  app: string
  tools: RuntimeTools
  env: NodeJS.ProcessEnv
}

interface Runtime {
  /** The `describe` name. */
  name: string
  /** The first cell of the README's "What works where" row listing it. */
  readmeRow: string
  /** Installs or builds what the server needs, before any port is picked. */
  prepare?(context: Omit<ServerContext, "env">): void
  /** Starts the server listening on `env.PORT`; it prints `{"ready":true,...}` once it is. */
  start(context: ServerContext): ChildProcess
  /** The runtime's version: from the server's ready line, or asked of the runtime here. */
  version(ready: { version?: string }, tools: RuntimeTools): string
}

const onNode = (major: number | undefined): Runtime => ({
  name: `Node ${major ?? process.versions.node.split(".")[0]}`,
  readmeRow: "Node.js",
  prepare: () => {
    if (major !== undefined) nodeRelease(major)
  },
  start: ({ app, env }) => spawn(major === undefined ? process.execPath : nodeRelease(major).node, ["node-server.mjs"], { cwd: app, env }),
  version: (ready) => ready.version!.replace(/^v/, ""),
})

const runtimes: Runtime[] = [
  onNode(undefined),
  onNode(22),
  onNode(24),
  {
    name: "Bun",
    readmeRow: "Bun",
    start: ({ app, tools, env }) => spawn(tools.bun, ["bun-server.mjs"], { cwd: app, env }),
    version: (ready) => ready.version!,
  },
  {
    name: "Deno",
    readmeRow: "Deno",
    start: ({ app, tools, env }) =>
      spawn(tools.deno, ["run", "--allow-net=127.0.0.1", "--allow-env", "--allow-read", "deno-server.mjs"], {
        cwd: app,
        env: { ...env, DENO_DIR: join(tools.dir, "deno-dir"), DENO_NO_UPDATE_CHECK: "1" },
      }),
    version: (ready) => ready.version!,
  },
  {
    name: "workerd (miniflare)",
    readmeRow: "Cloudflare Workers",
    prepare: ({ app, tools }) => {
      // Bundled the way a Workers user bundles: Workers' export conditions, no Node built-ins
      // (esbuild fails on any `node:` import it meets), one ES module.
      execFileSync(
        tools.esbuild,
        ["worker.mjs", "--bundle", "--format=esm", "--platform=neutral", "--main-fields=browser,module,main", "--conditions=workerd,worker,browser", "--outfile=worker.bundle.mjs", "--log-level=warning"],
        { cwd: app, stdio: "pipe" },
      )
      nodeRelease(24)
    },
    // miniflare needs Node 22 or later.
    start: ({ app, tools, env }) => spawn(nodeRelease(24).node, ["miniflare-server.mjs"], { cwd: app, env: { ...env, RUNTIME_TOOLS: tools.dir } }),
    version: (_ready, tools) => execFileSync(tools.workerd, ["--version"], { encoding: "utf8" }).replace(/^workerd\s+/, "").trim(),
  },
]

/** The version cells of the README row whose first cell starts with `label`. */
function readmeVersions(label: string): string[] {
  const section = readme.slice(readme.indexOf("### What works where"))
  const row = section.split("\n").find((line) => line.startsWith(`| ${label}`))
  expect(row, `the README's "What works where" table has a ${label} row`).toBeDefined()
  return row!.split("|")[2]!.match(/\d+(?:[.-]\d+)*/g) ?? []
}

let app: string
let tools: RuntimeTools
let github: GitHubLikeServer
const ports = new Map<string, number>()

beforeAll(async () => {
  tools = runtimeTools()
  app = mkdtempSync(join(tmpdir(), "gatehouse-runtime-app-"))
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "runtime-app", private: true, type: "module" }))
  for (const file of readdirSync(appSource)) copyFileSync(join(appSource, file), join(app, file))
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", packedPackage(), "uqr@0.1.3"], { cwd: app, stdio: "pipe" })
  for (const runtime of runtimes) runtime.prepare?.({ app, tools })
  // Picked once everything is installed, so the servers start right after.
  for (const runtime of runtimes) ports.set(runtime.name, await freePort([...ports.values()]))
  github = await startGitHubLikeServer({
    clientId: "gh-client",
    clientSecret: "gh-secret",
    redirectUris: [...ports.values()].map((port) => `http://127.0.0.1:${port}/auth/callback/github`),
  })
}, 600_000)

afterAll(async () => {
  await github?.stop()
  if (app) rmSync(app, { recursive: true, force: true })
})

/** One visitor of one origin: requests with its cookies, redirects not followed. */
class Visitor {
  readonly jar = new CookieJar()
  constructor(readonly origin: string) {}

  async get(path: string): Promise<Response> {
    return this.jar.store(await fetch(new URL(path, this.origin), { redirect: "manual", headers: { cookie: this.jar.header() } }))
  }

  async post(path: string, form: Record<string, string>): Promise<Response> {
    return this.jar.store(
      await fetch(new URL(path, this.origin), {
        method: "POST",
        redirect: "manual",
        headers: { cookie: this.jar.header(), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(form),
      }),
    )
  }

  async csrfToken(basePath = "/auth"): Promise<string> {
    const response = await this.get(`${basePath}/csrf`)
    expect(response.status).toBe(200)
    const { csrfToken } = (await response.json()) as { csrfToken: string }
    expect(csrfToken).toMatch(/^[0-9a-f]{64}$/)
    return csrfToken
  }

  async json(path: string): Promise<unknown> {
    const response = await this.get(path)
    expect(response.status).toBe(200)
    return response.json()
  }

  async signInWithPassword(password: string): Promise<Response> {
    const csrfToken = await this.csrfToken()
    return this.post("/auth/callback/credentials", { csrfToken, username: "ada", password, callbackUrl: `${this.origin}/dashboard` })
  }
}

/** Starts `runtime`'s server and waits for its ready line; rejects with its output if it exits first. */
function startServer(runtime: Runtime, port: number): Promise<{ child: ChildProcess; ready: { version?: string }; output: () => string }> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    NODE_ENV: "production",
    PORT: String(port),
    AUTH_SECRET: secret,
    AUTH_URL: `http://127.0.0.1:${port}`,
    AUTH_GITHUB_ID: "gh-client",
    AUTH_GITHUB_SECRET: "gh-secret",
    GITHUB_URL: github.url,
  }
  const child = runtime.start({ app, tools, env })
  let output = ""
  const output_ = () => output
  return new Promise((resolve, reject) => {
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk))
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk
      const line = output.split("\n").find((text) => text.startsWith('{"ready":true'))
      if (line) resolve({ child, ready: JSON.parse(line) as { version?: string }, output: output_ })
    })
    child.once("exit", (code) => reject(new Error(`${runtime.name} exited (${code}) before it listened:\n${output}`)))
    child.once("error", reject)
  })
}

for (const runtime of runtimes) {
  describe(runtime.name, () => {
    let server: Awaited<ReturnType<typeof startServer>> | undefined
    let origin: string

    beforeAll(async () => {
      const port = ports.get(runtime.name)!
      origin = `http://127.0.0.1:${port}`
      server = await startServer(runtime, port)
    }, 300_000)

    afterAll(() => {
      server?.child.kill("SIGTERM")
    })

    it("runs the version the README's \"What works where\" table lists", () => {
      const version = runtime.version(server!.ready, tools)
      const listed = readmeVersions(runtime.readmeRow)
      expect(listed.some((entry) => version === entry || version.startsWith(`${entry}.`)), `${runtime.name} is ${version}; the README lists ${listed.join(", ")}`).toBe(true)
    })

    it("signs in with credentials: a CSRF token, then a POST to the callback", async () => {
      const visitor = new Visitor(origin)
      const response = await visitor.signInWithPassword(PASSWORD)
      expect(response.status, server!.output()).toBe(302)
      expect(response.headers.get("location")).toBe(`${origin}/dashboard`)
      expect(visitor.jar.get(SESSION_COOKIE)).toMatch(/^[\w-]+\.[\w-]*\.[\w-]+\.[\w-]+\.[\w-]+$/)
    })

    it("refuses a wrong password with CredentialsSignin and no session", async () => {
      const visitor = new Visitor(origin)
      const response = await visitor.signInWithPassword("wrong")
      expect(response.status, server!.output()).toBe(302)
      expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe("CredentialsSignin")
      expect(visitor.jar.get(SESSION_COOKIE)).toBeUndefined()
      expect(await visitor.json("/auth/session")).toBeNull()
    })

    it("reads the session", async () => {
      const visitor = new Visitor(origin)
      expect(await visitor.json("/auth/session")).toBeNull()
      await visitor.signInWithPassword(PASSWORD)
      expect(await visitor.json("/auth/session")).toEqual({ user: { name: "Ada", email: "ada@example.test" }, expires: expect.any(String) })
    })

    it("decodes the session cookie with getToken", async () => {
      const visitor = new Visitor(origin)
      expect(await visitor.json("/token")).toBeNull()
      await visitor.signInWithPassword(PASSWORD)
      expect(await visitor.json("/token")).toMatchObject({ sub: "1", name: "Ada", email: "ada@example.test", exp: expect.any(Number) })
    })

    it("signs out: the session cookie is cleared and the session is gone", async () => {
      const visitor = new Visitor(origin)
      await visitor.signInWithPassword(PASSWORD)
      expect(visitor.jar.get(SESSION_COOKIE)).toBeDefined()
      const response = await visitor.post("/auth/signout", { csrfToken: await visitor.csrfToken() })
      expect(response.status, server!.output()).toBe(302)
      expect(visitor.jar.get(SESSION_COOKIE)).toBeUndefined()
      expect(await visitor.json("/auth/session")).toBeNull()
      expect(await visitor.json("/token")).toBeNull()
    })

    it("signs in with OAuth against a GitHub-shaped server, which the runtime calls with fetch", async () => {
      const visitor = new Visitor(origin)
      const mark = github.requests.length
      const start = await visitor.post("/auth/signin/github", { csrfToken: await visitor.csrfToken(), callbackUrl: `${origin}/dashboard` })
      expect(start.status, server!.output()).toBe(302)
      const authorization = start.headers.get("location")!
      expect(authorization.startsWith(github.authorizeUrl)).toBe(true)

      // The provider approves at once and sends the browser back with a code.
      const approval = await fetch(authorization, { redirect: "manual" })
      const callback = new URL(approval.headers.get("location")!)
      expect(callback.origin + callback.pathname).toBe(`${origin}/auth/callback/github`)

      const landing = await visitor.get(callback.pathname + callback.search)
      expect(landing.status, server!.output()).toBe(302)
      expect(landing.headers.get("location")).toBe(`${origin}/dashboard`)
      const paths = github.requests.slice(mark).map((request) => `${request.method} ${request.path}`)
      expect(paths).toEqual(expect.arrayContaining(["POST /login/oauth/access_token", "GET /api/v3/user", "GET /api/v3/user/emails"]))
      expect(await visitor.json("/auth/session")).toEqual({
        user: { name: "The Octocat", email: "octocat@users.example", image: "https://avatars.example/u/1001" },
        expires: expect.any(String),
      })
    })

    it("asks for a second factor: enrols an authenticator app before any session, then signs in at aal 2", async () => {
      const visitor = new Visitor(origin)
      const first = await visitor.post("/mfa/callback/credentials", { csrfToken: await visitor.csrfToken("/mfa"), username: "ada", password: PASSWORD, callbackUrl: `${origin}/dashboard` })
      expect(first.status, server!.output()).toBe(302)
      expect(first.headers.get("location")).toBe(`${origin}/mfa/two-factor`)
      expect(visitor.jar.get(SESSION_COOKIE)).toBeUndefined()
      expect(await visitor.json("/mfa/session")).toBeNull()

      // The enrolment page: the secret sealed and stored, its QR code drawn, the key as text.
      const page = await visitor.get("/mfa/two-factor")
      expect(page.status, server!.output()).toBe(200)
      const html = await page.text()
      expect(html).toMatch(/<svg[^>]*role="img"/)
      const key = base32Decode(html.match(/id="totp-secret">([A-Z2-7 ]+)</)![1]!)
      const field = (name: string) => html.match(new RegExp(`name="${name}" value="([^"]*)"`))![1]!
      const confirm = await visitor.post("/mfa/two-factor/totp/confirm", { csrfToken: field("csrfToken"), ref: field("ref"), code: totpNow(key) })
      expect(confirm.status, server!.output()).toBe(200)
      expect(await confirm.text()).toMatch(/[0-9a-z]{5}(?:-[0-9a-z]{5}){4}/)
      expect(await visitor.json("/mfa/session")).toMatchObject({ user: { email: "ada@example.test" }, authentication: { aal: 2, amr: ["pwd", "otp", "mfa"] } })
    })

    // Last: a runtime that lacks something the library uses shows up here as a warning or an
    // error even where the flows above still pass.
    it("logged no warning or error but the refused password's", () => {
      const logged = server!.output().split("\n").filter((line) => /^\[auth\]\[(warn|error)\]/.test(line) || /error/i.test(line))
      expect(logged).toEqual(["[auth][warn][CredentialsSignin] The authorize function returned no user (code: credentials)"])
    })
  })
}

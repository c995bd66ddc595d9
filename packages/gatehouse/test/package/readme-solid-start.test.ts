/**
 * The README's SolidStart section, pasted as a new user pastes it into two apps and run in each:
 * a SolidStart 2 app laid out as `npm create solid` makes it today (test/fixtures/solid-start-2:
 * the basic template, with TypeScript for the type check; the scaffolder itself fetches its
 * template from GitHub, so the layout is committed), on Node 24 from the npm registry (SolidStart 2
 * needs it), built with `vite build`; and a SolidStart 1.3 app (test/fixtures/solid-start-1, the
 * v1 basic template, its app.config.ts naming the middleware as the section says) on the Node
 * running the tests, built with `vinxi build` over examples/solid-start's installed modules (the
 * same versions). Every ts/tsx block goes, unchanged, to the file its first line names; the app's
 * own password check (`~/lib/users`, which the section leaves to the app) is written here. Then,
 * with the packed package: `tsc`, the build, a secret from `gatehouse-auth secret` in
 * `.env.local`, the server started with the section's own command, and the same checks on both,
 * over HTTP and in Chromium: the middleware (also for /account spelt with an escape or capitals)
 * and the page's query guarding /account, a wrong password back on the app's sign-in page with its
 * error, a sign-in (on SolidStart 2 the session read from the H3 event under SolidStart's too) and
 * a sign-out.
 */
import { execFileSync } from "node:child_process"
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchChromium } from "../support/chromium.js"
import { borrowExampleModules, buildExampleApp, freePort, installExampleApp, startExampleApp, type ExampleApp, type RunningApp } from "../support/example-app.js"
import { nodeRelease } from "../support/node-release.js"
import { codeBlocks, fileOf } from "../support/readme-section.js"

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}/`, import.meta.url))

/** The app's own lookup the section's config imports: one account, its password checked here. */
const USERS = `export async function checkPassword(email: unknown, password: unknown) {
  return email === "ada@example.com" && password === "correct horse battery staple" ? { id: "ada", email: "ada@example.com", name: "Ada Lovelace" } : null
}
`

/**
 * An API route of the app's own handing getSession the real H3 v2 event under SolidStart's event
 * (what SolidStart 2's array-form middleware receives), type-checked against both packages' types.
 */
const NATIVE_SESSION = `import type { APIEvent } from "@solidjs/start/server"
import { getSession } from "gatehouse-auth/solid-start"
import { authConfig } from "~/lib/auth"

export async function GET(event: APIEvent) {
  return Response.json(await getSession(event.nativeEvent, authConfig))
}
`

/** Build output and installed modules, kept between runs; everything else is scaffolded again. */
const KEPT = new Set(["node_modules", ".output"])

/**
 * The scaffold `name` in a folder of its own under the system's temp folder, with the section's
 * blocks pasted into it (but those for `except`), the app's password check and `extra` files.
 */
function scaffold(name: string, blocks: { language: string; code: string }[], except: string[], extra: Record<string, string>): string {
  const dir = join(tmpdir(), "gatehouse-readme-apps", name)
  mkdirSync(dir, { recursive: true })
  for (const entry of readdirSync(dir)) if (!KEPT.has(entry)) rmSync(join(dir, entry), { recursive: true, force: true })
  cpSync(fixture(name), dir, { recursive: true })
  const files: Record<string, string> = { "src/lib/users.ts": USERS, ...extra }
  for (const { language, code } of blocks) {
    const path = fileOf(code)
    if ((language === "ts" || language === "tsx") && path && !except.includes(path)) files[path] = code
  }
  for (const [path, code] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), code)
  }
  return dir
}

/** What `tsc -p .` prints in `dir` (nothing when it passes), run by `node`. */
function typeCheck(dir: string, node: string, env?: NodeJS.ProcessEnv): string {
  try {
    execFileSync(node, ["node_modules/typescript/bin/tsc", "-p", "."], { cwd: dir, encoding: "utf8", stdio: "pipe", env })
    return ""
  } catch (error) {
    return String((error as { stdout?: string }).stdout || error)
  }
}

const SESSION = "authjs.session-token"

/** A SolidStart version the section runs on: its scaffold, build and Node, and what is checked only there. */
interface SolidVersion {
  label: string
  /** The @solidjs/start version installed, as a pattern on its package.json. */
  start: RegExp
  /** The Node.js major the app is built and run with. */
  nodeMajor: number
  /** The section's blocks this version does not take (SolidStart 1 names its middleware in app.config.ts instead). */
  except: string[]
  /** The app installed (or given installed modules) and described, not yet type-checked or built. */
  prepare(blocks: { language: string; code: string }[], except: string[]): ExampleApp
  /** Whether the app has the API route reading the session from the H3 v2 event (SolidStart 2 only). */
  nativeSession: boolean
}

const VERSIONS: SolidVersion[] = [
  {
    label: "new SolidStart 2 app (Node 24)",
    start: /"version": "2\./,
    nodeMajor: 24,
    except: [],
    nativeSession: true,
    prepare: (blocks, except) => {
      const app: ExampleApp = {
        dir: scaffold("solid-start-2", blocks, except, { "src/routes/api/native-session.ts": NATIVE_SESSION }),
        build: ["node_modules/vite/bin/vite.js", "build"],
        sources: ["src", "vite.config.ts", "tsconfig.json", "package.json"],
        built: ".output/server/index.mjs",
        node: nodeRelease(24),
        // As a user's shell builds: vitest's NODE_ENV=test would make `vite build` emit development code that cannot serve.
        buildEnv: { NODE_ENV: "production" },
      }
      installExampleApp(app)
      return app
    },
  },
  {
    label: "SolidStart 1.3 app (vinxi, Node 20)",
    start: /"version": "1\.3\./,
    nodeMajor: 20,
    // The fixture's app.config.ts names the middleware, as the section says for SolidStart 1.
    except: ["vite.config.ts"],
    nativeSession: false,
    prepare: (blocks, except) => {
      const app: ExampleApp = {
        dir: scaffold("solid-start-1", blocks, except, {}),
        build: ["node_modules/vinxi/bin/cli.mjs", "build"],
        sources: ["src", "app.config.ts", "tsconfig.json", "package.json"],
        built: ".output/server/index.mjs",
        buildEnv: { NODE_ENV: "production" },
      }
      // examples/solid-start has the same SolidStart, router, Solid and vinxi versions installed.
      borrowExampleModules({ dir: fileURLToPath(new URL("../../../../examples/solid-start/", import.meta.url)) }, app)
      return app
    },
  },
]

describe.each(VERSIONS.map((version) => [version.label, version] as const))("the README's SolidStart section in a %s", (_label, version) => {
  const blocks = codeBlocks("SolidStart")
  let app: ExampleApp
  let typeChecked = ""
  let startCommand: string[] = []
  let running: RunningApp | undefined
  let browser: Browser | undefined
  let context: BrowserContext
  let page: Page
  const node = () => app.node?.node ?? process.execPath
  const nodeEnv = () => app.node?.env() ?? process.env

  beforeAll(async () => {
    app = version.prepare(blocks, version.except)
    typeChecked = typeCheck(app.dir, node(), nodeEnv())
    buildExampleApp(app)

    // What `npx gatehouse-auth secret` runs, under the app's Node; then the GitHub app's settings, as the section asks.
    rmSync(join(app.dir, ".env.local"), { force: true })
    execFileSync(node(), ["node_modules/gatehouse-auth/dist/cli/index.js", "secret"], { cwd: app.dir, stdio: "pipe", env: nodeEnv() })
    writeFileSync(join(app.dir, ".env.local"), "AUTH_GITHUB_ID=readme-app\nAUTH_GITHUB_SECRET=readme-app-secret\n", { flag: "a" })

    const start = blocks.find((block) => block.language === "sh")?.code.trim() ?? ""
    startCommand = start.split(/\s+/)
    expect(startCommand[0]).toBe("node")
    const port = await freePort()
    // AUTH_URL as a deployment's variable; the secret only from the file the command names.
    running = await startExampleApp(app, {
      command: () => startCommand.slice(1),
      env: { AUTH_URL: `http://localhost:${port}` },
      port,
      unset: ["AUTH_SECRET", "AUTH_TRUST_HOST", "AUTH_GITHUB_ID", "AUTH_GITHUB_SECRET"],
    })
    browser = await launchChromium()
    context = await browser.newContext()
    page = await context.newPage()
  }, 600_000)

  afterAll(async () => {
    await browser?.close()
    await running?.stop()
  })

  /** The sign-in page, once hydrated: its createSession() asks for the session on mount, which runs after hydration. */
  async function signInPage(): Promise<void> {
    await Promise.all([page.waitForResponse((answer) => new URL(answer.url()).pathname === "/api/auth/session"), page.goto(`${running!.url}/signin`)])
  }

  async function submitPassword(password: string): Promise<void> {
    await signInPage()
    await page.getByPlaceholder("Email").fill("ada@example.com")
    await page.getByPlaceholder("Password").fill(password)
    await page.getByRole("button", { name: "Sign in", exact: true }).click()
  }

  it("places every code block: each ts/tsx block names its file, and the one shell block starts the built server with .env.local", () => {
    const code = blocks.filter((block) => block.language === "ts" || block.language === "tsx")
    expect(code.map((block) => fileOf(block.code))).toEqual([
      "src/lib/auth.ts",
      "src/routes/api/auth/[...auth].ts",
      "src/lib/session.ts",
      "src/routes/account.tsx",
      "src/middleware.ts",
      "vite.config.ts",
      "src/routes/signin.tsx",
    ])
    expect(blocks.filter((block) => !code.includes(block)).map((block) => block.language)).toEqual(["sh"])
    for (const block of code) {
      const path = fileOf(block.code)!
      if (!version.except.includes(path)) expect(readFileSync(join(app.dir, path), "utf8"), path).toBe(block.code)
    }
    expect(startCommand).toEqual(["node", "--env-file=.env.local", ".output/server/index.mjs"])
    expect(readFileSync(join(app.dir, "node_modules", "@solidjs", "start", "package.json"), "utf8")).toMatch(version.start)
    expect(execFileSync(node(), ["--version"], { encoding: "utf8" })).toMatch(new RegExp(`^v${version.nodeMajor}\\.`))
  })

  it("type-checks with tsc (the scaffold's tsconfig, strict) against the packed package's types", () => {
    expect(typeChecked).toBe("")
  })

  it("has the secret from .env.local: the session route answers signed out", async () => {
    const answer = await fetch(`${running!.url}/api/auth/session`)
    expect(answer.status, running!.output()).toBe(200)
    expect(await answer.json()).toBeNull()
  })

  it("takes the secret from .env.local only through the command: started without --env-file, the auth routes fail with MissingSecret", async () => {
    const port = await freePort()
    const bare = await startExampleApp(app, {
      command: () => [".output/server/index.mjs"],
      env: { AUTH_URL: `http://localhost:${port}` },
      port,
      unset: ["AUTH_SECRET", "AUTH_TRUST_HOST", "AUTH_GITHUB_ID", "AUTH_GITHUB_SECRET"],
    })
    try {
      expect((await fetch(`${bare.url}/api/auth/session`)).status).toBe(500)
      await expect.poll(() => bare.output(), { timeout: 5_000 }).toMatch(/MissingSecret/)
    } finally {
      await bare.stop()
    }
  })

  it("sends a signed-out full load of /account to the sign-in page, and a client-side navigation there from the page's query", async () => {
    const answer = await page.request.get(`${running!.url}/account`, { maxRedirects: 0 })
    expect(answer.status()).toBe(302)
    expect(answer.headers().location).toBe("/signin")
    await signInPage()
    // A link the router follows without a document load: only the page's query (a server function) can refuse it.
    const documentLoads: string[] = []
    page.on("request", (request) => void (request.isNavigationRequest() && documentLoads.push(request.url())))
    await page.evaluate(() => document.body.append(Object.assign(document.createElement("a"), { href: "/account", textContent: "Account" })))
    await page.getByRole("link", { name: "Account" }).click()
    await expect.poll(() => page.url()).toBe(`${running!.url}/signin`)
    expect(documentLoads).toEqual([])
    expect(await page.getByText(/^Signed in as/).count()).toBe(0)
  })

  it("answers a signed-out /account spelt otherwise (an escaped letter, capitals) from the middleware too, not only from the page's query", async () => {
    // SolidStart 1's router takes /ACCOUNT for /account; SolidStart 2's H3 decodes /%61ccount to it.
    for (const path of ["/%61ccount", "/ACCOUNT", "/Acc%6Funt/"]) {
      const answer = await page.request.get(`${running!.url}${path}`, { maxRedirects: 0 })
      expect(answer.status(), path).toBe(302)
      expect(answer.headers().location, path).toBe("/signin")
      // The middleware's answer has no body; the query's redirect comes with the page it was rendering.
      expect(await answer.text(), path).toBe("")
    }
    await page.goto(`${running!.url}/%61ccount`)
    expect(page.url()).toBe(`${running!.url}/signin`)
  })

  it("brings a wrong password back to the app's own sign-in page with the error, not signed in", async () => {
    await submitPassword("wrong")
    await page.waitForURL(/\/signin\?error=CredentialsSignin/)
    expect(await page.getByRole("alert").textContent()).toBe("Sign-in failed (CredentialsSignin).")
    expect((await context.cookies()).some((cookie) => cookie.name === SESSION)).toBe(false)
  })

  it("signs in with the password onto /account (HttpOnly session cookie; the middleware lets it through), then signs out", async () => {
    await submitPassword("correct horse battery staple")
    await page.waitForURL(`${running!.url}/account`)
    await expect.poll(() => page.getByText(/^Signed in as/).textContent()).toBe("Signed in as ada@example.com")
    expect((await context.cookies()).find((cookie) => cookie.name === SESSION)).toMatchObject({ httpOnly: true, sameSite: "Lax" })
    const full = await page.request.get(`${running!.url}/account`, { maxRedirects: 0 })
    expect(full.status()).toBe(200)
    expect(await full.text()).toContain("ada@example.com")
    if (version.nativeSession) expect(await (await page.request.get(`${running!.url}/api/native-session`)).json()).toMatchObject({ user: { email: "ada@example.com" } })

    await signInPage()
    await Promise.all([page.waitForURL(`${running!.url}/`), page.getByRole("button", { name: "Sign out" }).click()])
    await expect.poll(async () => (await context.cookies()).some((cookie) => cookie.name === SESSION)).toBe(false)
    expect((await page.request.get(`${running!.url}/account`, { maxRedirects: 0 })).status()).toBe(302)
  })
})

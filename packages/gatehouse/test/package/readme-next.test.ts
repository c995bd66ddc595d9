/**
 * The README's Next.js section, pasted into a new app as a new user would, in both of Next 16's
 * modes: the files `create-next-app` writes (written here, without the network: package.json,
 * tsconfig.json, next.config.ts, a lockfile), once with the scaffolder's default config (**Cache
 * Components on**: `cacheComponents` and `partialPrefetching`) and once with `cacheComponents:
 * false`, each in its own folder so each keeps its build between runs; every code block of the
 * section written to the file its first line names, the section's `npx gatehouse-auth secret` run
 * as written, and the one file the README leaves to the user (`lib/users.ts`, the password check).
 * Their node_modules are examples/next's (the same Next, React and TypeScript, the packed package),
 * linked in. Then, for each, `next build` with its type check, `next start` with `AUTH_URL` as
 * production needs, and the same checks in Chromium: the proxy's redirect to the app's own sign-in
 * page, a wrong password shown there, a sign-in, the session in a server component, a route
 * handler and the client's `useSession`, and sign-out.
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchChromium } from "../support/chromium.js"
import { borrowExampleModules, buildExampleApp, freePort, startExampleApp, type ExampleApp, type RunningApp } from "../support/example-app.js"
import { codeBlocks, commands, fileOf } from "../support/readme-section.js"

const root = fileURLToPath(new URL("../../../../", import.meta.url))
const exampleNext = { dir: join(root, "examples/next") }

/** What create-next-app 16.4 writes that the README does not replace, but next.config.ts (per mode, below). */
const scaffold: Record<string, string> = {
  "package.json": JSON.stringify(
    {
      name: "readme-next",
      version: "0.1.0",
      private: true,
      scripts: { dev: "next dev", build: "next build", start: "next start" },
      // The versions examples/next installs, whose node_modules this app borrows.
      dependencies: { next: "16.4.6", react: "19.3.1", "react-dom": "19.3.1", "gatehouse-auth": "*" },
      devDependencies: { typescript: "~5.9", "@types/node": "^20", "@types/react": "^19" },
    },
    null,
    2,
  ),
  "tsconfig.json": JSON.stringify(
    {
      compilerOptions: {
        target: "ES2017",
        lib: ["dom", "dom.iterable", "esnext"],
        allowJs: true,
        skipLibCheck: true,
        strict: true,
        noEmit: true,
        esModuleInterop: true,
        module: "esnext",
        moduleResolution: "bundler",
        resolveJsonModule: true,
        isolatedModules: true,
        jsx: "react-jsx",
        incremental: true,
        plugins: [{ name: "next" }],
        paths: { "@/*": ["./*"] },
      },
      include: ["next-env.d.ts", "**/*.ts", "**/*.tsx", ".next/types/**/*.ts", ".next/dev/types/**/*.ts", "**/*.mts"],
      exclude: ["node_modules"],
    },
    null,
    2,
  ),
  // The user's own code the README's auth.ts imports: one account, its password hashed as the README's Passwords section says.
  "lib/users.ts": `import { hashPassword, verifyPassword } from "gatehouse-auth/password"

const ada = { id: "ada", name: "Ada Lovelace", email: "ada@example.com" }
const hash = hashPassword("correct horse battery staple")

export async function checkPassword(email: string, password: string) {
  return email === ada.email && (await verifyPassword(password, await hash)) ? ada : null
}
`,
}

/** The two ways a Next 16 app renders, each with the next.config.ts that turns it on. */
const modes = [
  {
    mode: "Cache Components on",
    folder: "gatehouse-readme-next-on",
    // What create-next-app 16.4 writes.
    config: `import type { NextConfig } from "next"

const nextConfig: NextConfig = {
  cacheComponents: true,
  partialPrefetching: true,
}

export default nextConfig
`,
    // The home page's static shell (everything outside its Suspense boundaries) is prerendered at build.
    prerenderedShell: true,
  },
  {
    mode: "Cache Components off",
    folder: "gatehouse-readme-next-off",
    config: `import type { NextConfig } from "next"

const nextConfig: NextConfig = {
  cacheComponents: false,
}

export default nextConfig
`,
    // The session read makes the home page render per request, whole.
    prerenderedShell: false,
  },
]

let browser: Browser

beforeAll(async () => {
  browser = await launchChromium()
}, 120_000)

afterAll(() => browser?.close())

/**
 * A new app in `folder` with `config` as its next.config.ts and the README's blocks pasted in,
 * built and started; returns the server and the files the blocks went to.
 */
async function pasteBuildAndStart(folder: string, config: string): Promise<{ appDir: string; running: RunningApp; written: string[] }> {
  const blocks = codeBlocks("Next.js")
  const shell = blocks.filter((block) => block.language === "sh")
  expect(shell).toHaveLength(1)
  const files = blocks.filter((block) => block.language !== "sh")

  const appDir = join(tmpdir(), folder)
  const app: ExampleApp = {
    dir: appDir,
    build: ["node_modules/next/dist/bin/next", "build"],
    sources: ["app", "lib", "auth.ts", "proxy.ts", "next.config.ts", "package.json", "tsconfig.json"],
    built: ".next/BUILD_ID",
  }
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(appDir, path)), { recursive: true })
    writeFileSync(join(appDir, path), text)
  }

  // A fresh app each run, but its node_modules and last build kept (rebuilt only when a file changed).
  mkdirSync(appDir, { recursive: true })
  for (const name of readdirSync(appDir)) if (name !== "node_modules" && name !== ".next") rmSync(join(appDir, name), { recursive: true, force: true })
  // The scaffolder's npm install leaves a lockfile; without one Next would look for the workspace root above.
  writeFileSync(join(appDir, "package-lock.json"), readFileSync(join(exampleNext.dir, "package-lock.json")))
  for (const [path, text] of Object.entries({ ...scaffold, "next.config.ts": config })) write(path, text)
  const written = files.map(({ language, code }) => {
    const path = fileOf(code)
    if (!path || !["ts", "tsx"].includes(language)) throw new Error(`a README Next.js block names no file on its first line:\n${code}`)
    write(path, code)
    return path
  })

  for (const command of commands(shell[0]!.code)) {
    // `npm install gatehouse-auth`: examples/next's node_modules (the packed package in them) instead of the registry.
    if (/^npm install gatehouse-auth$/.test(command)) borrowExampleModules(exampleNext, app)
    else execFileSync("sh", ["-c", command], { cwd: appDir, stdio: "pipe" })
  }
  expect(readFileSync(join(appDir, ".env.local"), "utf8")).toMatch(/^AUTH_SECRET=\S{40,}/m)

  buildExampleApp(app)
  const port = await freePort()
  const running = await startExampleApp(app, {
    port,
    command: (listen) => ["node_modules/next/dist/bin/next", "start", "-p", String(listen), "-H", "localhost"],
    // AUTH_SECRET from .env.local, which `next start` loads; production needs the app's address.
    env: { AUTH_URL: `http://localhost:${port}`, AUTH_GITHUB_ID: "readme-client", AUTH_GITHUB_SECRET: "readme-secret" },
    unset: ["AUTH_SECRET", "AUTH_TRUST_HOST"],
    readyPath: "/api/auth/providers",
  })
  return { appDir, running, written }
}

/** Inside <main>: React streams a Suspense boundary's content into a hidden element first, then moves it there. */
const shown = (page: Page) => page.locator("main")

async function signIn(page: Page, password: string): Promise<void> {
  await shown(page).getByLabel("Email").fill("ada@example.com")
  await shown(page).getByLabel("Password").fill(password)
  await shown(page).getByRole("button", { name: "Sign in", exact: true }).click()
}

// The same checks in each mode, one mode after the other (a file's describes run in order): one `next build` and one server at a time.
for (const { mode, folder, config, prerenderedShell } of modes) describe(`the README's Next.js section pasted into a new app (${mode})`, () => {
  let appDir: string
  let running: RunningApp
  let written: string[]
  let context: BrowserContext
  let page: Page

  beforeAll(async () => {
    ;({ appDir, running, written } = await pasteBuildAndStart(folder, config))
    context = await browser.newContext()
    page = await context.newPage()
  }, 600_000)
  afterAll(async () => {
    await context?.close()
    await running?.stop()
  })

  it("pastes every block into a file and builds with the type check on, in this mode", () => {
    expect(written).toEqual(expect.arrayContaining(["auth.ts", "proxy.ts", "app/api/auth/[...nextauth]/route.ts", "app/layout.tsx", "app/page.tsx", "app/signin/page.tsx"]))
    expect(existsSync(join(appDir, ".next/BUILD_ID"))).toBe(true)
    // Next's type check ran (not skipped): it leaves the incremental build info tsconfig asks for there.
    expect(existsSync(join(appDir, ".next/cache/.tsbuildinfo"))).toBe(true)
    // The mode took: with Cache Components the home page's shell (outside its Suspense boundary) was prerendered.
    expect(existsSync(join(appDir, ".next/server/app/index.html"))).toBe(prerenderedShell)
  })

  it("sends a signed-out visit of /account through the proxy to the app's own sign-in page", async () => {
    await page.goto(`${running.url}/`)
    await expect.poll(() => page.getByText("In the browser: unauthenticated").count()).toBe(1)
    await page.goto(`${running.url}/account`)
    await page.waitForURL(/\/signin\?callbackUrl=/)
    expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe(`${running.url}/account`)
  })

  it("shows a wrong password's error on the app's own sign-in page, not the built-in one", async () => {
    await signIn(page, "wrong")
    await page.waitForURL((url) => url.pathname === "/signin" && url.searchParams.get("error") === "credentials")
    expect(await shown(page).getByRole("alert").textContent()).toBe("Sign-in failed (credentials). Check your email and password.")
    expect((await context.cookies()).some((cookie) => cookie.name === "authjs.session-token")).toBe(false)
  })

  it("signs in with the password and returns to /account; the server components, the session route and useSession see the session", async () => {
    await signIn(page, "correct horse battery staple")
    await page.waitForURL(`${running.url}/account`)
    await expect.poll(() => page.getByText("Account of ada@example.com").count()).toBe(1)
    await page.goto(`${running.url}/`)
    await expect.poll(() => shown(page).getByText("Signed in as Ada Lovelace").count()).toBe(1)
    await expect.poll(() => page.getByText("In the browser: ada@example.com").count()).toBe(1)
    expect(await (await page.request.get(`${running.url}/api/auth/session`)).json()).toMatchObject({ user: { email: "ada@example.com" } })
  })

  it("signs out through the server action", async () => {
    await page.goto(`${running.url}/`)
    await shown(page).getByRole("button", { name: "Sign out" }).click()
    await expect.poll(async () => (await context.cookies()).some((cookie) => cookie.name === "authjs.session-token"), { timeout: 10_000 }).toBe(false)
    await page.goto(`${running.url}/`)
    await expect.poll(() => shown(page).getByRole("link", { name: "Sign in" }).count()).toBe(1)
    const guarded = await fetch(`${running.url}/account`, { redirect: "manual" })
    expect(guarded.status).toBe(307)
  })
})

/**
 * The README's SvelteKit section, pasted into a new app as a user pastes it: an app laid out as
 * `sv create` makes it today (SvelteKit 2.70, TypeScript, adapter-node; its package.json and
 * lockfile from ../support/sveltekit-scaffold.ts, its other files written here), every code block of the section
 * written to the file its first line names, the packed package as its `gatehouse-auth`
 * dependency. Then as the user runs it: `svelte-check` (the scaffold's `npm run check`), `vite
 * build`, `node --env-file=.env build`, and Chromium with JavaScript on and off, including a
 * failed password sign-in that must come back to the app's own sign-in page with its error.
 * (examples/sveltekit covers SvelteKit 3; this app stays on what `sv create` gives, Node 20.)
 */
import { execFileSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchChromium } from "../support/chromium.js"
import { buildExampleApp, freePort, installExampleApp, startExampleApp, type ExampleApp, type RunningApp } from "../support/example-app.js"
import { sveltekitScaffold, SVELTEKIT_SCAFFOLD_DIR } from "../support/sveltekit-scaffold.js"
import { codeBlocks, fileOf } from "../support/readme-section.js"

const PASSWORD = "correct horse battery staple"

/**
 * What `sv create` writes for a minimal TypeScript app (adapter-node chosen), and the two files
 * of the app's own the README leaves to it: its user store and the dashboard page's markup.
 */
const SCAFFOLD_FILES: Record<string, string> = {
  "svelte.config.js": `import adapter from "@sveltejs/adapter-node"
import { vitePreprocess } from "@sveltejs/vite-plugin-svelte"

/** @type {import('@sveltejs/kit').Config} */
const config = {
  preprocess: vitePreprocess(),
  kit: { adapter: adapter() },
}

export default config
`,
  "vite.config.ts": `import { sveltekit } from "@sveltejs/kit/vite"
import { defineConfig } from "vite"

export default defineConfig({
  plugins: [sveltekit()],
})
`,
  "tsconfig.json": `{
  "extends": "./.svelte-kit/tsconfig.json",
  "compilerOptions": {
    "allowJs": true,
    "checkJs": true,
    "esModuleInterop": true,
    "forceConsistentCasingInFileNames": true,
    "resolveJsonModule": true,
    "skipLibCheck": true,
    "sourceMap": true,
    "strict": true,
    "moduleResolution": "bundler"
  }
}
`,
  "src/app.d.ts": `// See https://svelte.dev/docs/kit/types#app.d.ts
// for information about these interfaces
declare global {
  namespace App {
    // interface Error {}
    // interface Locals {}
    // interface PageData {}
    // interface PageState {}
    // interface Platform {}
  }
}

export {}
`,
  "src/app.html": `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    %sveltekit.head%
  </head>
  <body data-sveltekit-preload-data="hover">
    <div style="display: contents">%sveltekit.body%</div>
  </body>
</html>
`,
  "src/lib/index.ts": "// place files you want to import through the $lib alias in this folder.\n",
  "src/lib/server/users.ts": `import type { User } from "gatehouse-auth"

/** The app's one account. */
export async function checkPassword(email: unknown, password: unknown): Promise<User | null> {
  return email === "ada@example.com" && password === ${JSON.stringify(PASSWORD)} ? { id: "ada", email, name: "Ada Lovelace" } : null
}
`,
  "src/routes/dashboard/+page.svelte": `<script lang="ts">
  import type { PageProps } from "./$types"

  let { data }: PageProps = $props()
</script>

<p id="dashboard">Dashboard of {data.session.user?.email}</p>
`,
}

/** Kept between runs, so a run whose README, scaffold and package did not change neither installs nor builds. */
const dir = SVELTEKIT_SCAFFOLD_DIR

const app: ExampleApp = {
  dir,
  build: ["node_modules/vite/bin/vite.js", "build"],
  sources: ["src", "svelte.config.js", "vite.config.ts", "package.json", "tsconfig.json"],
  built: "build/index.js",
}

/** The scaffold written afresh (sources only: node_modules and the build stay), the README's blocks pasted in. */
function writeApp(): string[] {
  sveltekitScaffold()
  rmSync(join(dir, "src"), { recursive: true, force: true })
  for (const [file, content] of Object.entries(SCAFFOLD_FILES)) write(file, content)
  const pasted: string[] = []
  for (const { language, code } of codeBlocks("SvelteKit")) {
    const file = fileOf(code)
    if (!file) throw new Error(`a ${language} block of the README's SvelteKit section does not say which file it is:\n${code}`)
    write(file, code)
    pasted.push(file)
  }
  return pasted
}

function write(file: string, content: string): void {
  mkdirSync(dirname(join(dir, file)), { recursive: true })
  writeFileSync(join(dir, file), content)
}

describe("the README's SvelteKit section pasted into a new SvelteKit 2.70 app", () => {
  let pasted: string[]
  let running: RunningApp
  let browser: Browser
  const contexts: BrowserContext[] = []

  beforeAll(async () => {
    pasted = writeApp()
    installExampleApp(app)
    buildExampleApp(app)
    const port = await freePort()
    // As the README says: the secret in .env, which `node build` reads only through --env-file.
    writeFileSync(join(dir, ".env"), `AUTH_SECRET=${randomBytes(32).toString("base64")}\nAUTH_TRUST_HOST=true\nAUTH_GITHUB_ID=unused\nAUTH_GITHUB_SECRET=unused\n`)
    running = await startExampleApp(app, {
      port,
      command: () => ["--env-file=.env", "build"],
      env: { HOST: "127.0.0.1", ORIGIN: `http://localhost:${port}` },
      unset: ["AUTH_SECRET", "AUTH_URL", "AUTH_TRUST_HOST"],
    })
    browser = await launchChromium()
  }, 600_000)

  afterAll(async () => {
    for (const context of contexts) await context.close()
    await browser?.close()
    await running?.stop()
  })

  async function page(javaScript: "on" | "off"): Promise<Page> {
    const context = await browser.newContext({ javaScriptEnabled: javaScript === "on" })
    contexts.push(context)
    return context.newPage()
  }

  const signedIn = async (page: Page) => (await page.context().cookies()).some((cookie) => cookie.name === "authjs.session-token")

  it("pastes every block of the section into the file it names", () => {
    expect(pasted).toEqual([
      "src/lib/server/auth.ts",
      "src/hooks.server.ts",
      "src/routes/+layout.server.ts",
      "src/routes/dashboard/+page.server.ts",
      "src/routes/signin/+page.server.ts",
      "src/routes/signout/+page.server.ts",
      "src/routes/signin/+page.svelte",
      "src/routes/+page.svelte",
    ])
  })

  it("type-checks with svelte-check, as the scaffold's `npm run check` does: no errors, no warnings", () => {
    const run = (args: string[]) => {
      try {
        return execFileSync(process.execPath, args, { cwd: dir, encoding: "utf8", stdio: "pipe" })
      } catch (failure) {
        const { stdout, stderr } = failure as { stdout?: string; stderr?: string }
        throw new Error(`${args[0]} failed:\n${stdout ?? ""}${stderr ?? ""}`)
      }
    }
    run(["node_modules/@sveltejs/kit/svelte-kit.js", "sync"])
    const output = run(["node_modules/svelte-check/bin/svelte-check", "--tsconfig", "./tsconfig.json", "--output", "machine"])
    expect(output).toMatch(/COMPLETED \d+ FILES 0 ERRORS 0 WARNINGS/)
  }, 120_000)

  describe.each(["on", "off"] as const)("with JavaScript %s", (javaScript) => {
    it("brings a wrong password back to the app's own sign-in page with its error, signed out", async () => {
      const tab = await page(javaScript)
      await tab.goto(`${running.url}/signin?callbackUrl=%2Fdashboard`)
      await tab.getByLabel("Email").fill("ada@example.com")
      await tab.getByLabel("Password").fill("wrong")
      await tab.getByRole("button", { name: "Sign in", exact: true }).click()
      await tab.waitForURL(/\/signin\?.*error=CredentialsSignin/)
      const url = new URL(tab.url())
      expect(url.pathname).toBe("/signin")
      expect(url.searchParams.get("callbackUrl")).toBe("/dashboard")
      expect(await tab.getByRole("alert").textContent()).toBe("Sign-in failed (CredentialsSignin).")
      expect(await signedIn(tab)).toBe(false)
    })

    it("sends a signed-out visit of the dashboard to the sign-in page, and there after a password sign-in; signs out from the home page", async () => {
      const tab = await page(javaScript)
      await tab.goto(`${running.url}/dashboard`)
      await tab.waitForURL(`${running.url}/signin?callbackUrl=%2Fdashboard`)
      await tab.getByLabel("Email").fill("ada@example.com")
      await tab.getByLabel("Password").fill(PASSWORD)
      await tab.getByRole("button", { name: "Sign in", exact: true }).click()
      await tab.waitForURL(`${running.url}/dashboard`)
      expect(await tab.locator("#dashboard").textContent()).toBe("Dashboard of ada@example.com")
      await tab.goto(`${running.url}/`)
      expect(await tab.getByText("Signed in as").textContent()).toBe("Signed in as ada@example.com")
      await tab.getByRole("button", { name: "Sign out" }).click()
      await expect.poll(() => signedIn(tab), { timeout: 10_000 }).toBe(false)
      await tab.goto(`${running.url}/`)
      expect(await tab.getByRole("link", { name: "Sign in" }).count()).toBe(1)
    })
  })

  it("guards /account in the hook chained after handle (303), offers GitHub, and serves the auth routes under /auth", async () => {
    const account = await fetch(`${running.url}/account/settings`, { redirect: "manual" })
    expect(account.status).toBe(303)
    expect(account.headers.get("location")).toBe("/signin?callbackUrl=%2Faccount%2Fsettings")
    const tab = await page("on")
    await tab.goto(`${running.url}/signin`)
    // @auth/sveltekit's default button text: the provider's id.
    expect(await tab.locator("form.signInButton button[type=submit]").first().textContent()).toBe("Sign in with github")
    expect(await (await fetch(`${running.url}/auth/session`)).json()).toBeNull()
    const providers = (await (await fetch(`${running.url}/auth/providers`)).json()) as Record<string, unknown>
    expect(Object.keys(providers).sort()).toEqual(["credentials", "github"])
  })
})

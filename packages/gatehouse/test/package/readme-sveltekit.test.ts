/**
 * The README's SvelteKit section, pasted into a new app as a user pastes it: an app laid out as
 * `sv create` makes it today (SvelteKit 2.70, TypeScript, adapter-node; its package.json and
 * lockfile from ../support/sveltekit-scaffold.ts, its other files written here), every code block of the section
 * written to the file its first line names, the packed package as its `gatehouse-auth`
 * dependency. Then as the user runs it: `svelte-check` (the scaffold's `npm run check`), `vite
 * build`, `node --env-file=.env build`, and Chromium with JavaScript on and off, including a
 * failed password sign-in that must come back to the app's own sign-in page with its error.
 *
 * Then the same on SvelteKit 3.2 under Node 24: the same app with the changes the README's
 * "SvelteKit 3" bullet lists, each taken from the bullet's own text and applied mechanically
 * (`$lib` imports to `#lib/….ts` with package.json `imports`, the `Handle` type from
 * `@sveltejs/kit/hooks`, tsconfig.json on `$app/tsconfig`, the configuration in `vite.config.js`
 * with `paths.origin`), plus the
 * `src/env.ts` it says Kit 3 reads; so a bullet that misses a change fails here. Its node_modules
 * are examples/sveltekit's (Kit 3.2, installed under Node 24), borrowed rather than installed.
 */
import { execFileSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchChromium } from "../support/chromium.js"
import { borrowExampleModules, buildExampleApp, freePort, startExampleApp, withBuildLock, type ExampleApp, type RunningApp } from "../support/example-app.js"
import { nodeRelease, type NodeRelease } from "../support/node-release.js"
import { bullet, codeBlocks, fileOf } from "../support/readme-section.js"
import { sveltekitScaffold, SVELTEKIT_SCAFFOLD_DIR } from "../support/sveltekit-scaffold.js"

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

/** The section's blocks, each with the file its first line names. */
function pastedBlocks(): { file: string; code: string }[] {
  return codeBlocks("SvelteKit").map(({ language, code }) => {
    const file = fileOf(code)
    if (!file) throw new Error(`a ${language} block of the README's SvelteKit section does not say which file it is:\n${code}`)
    return { file, code }
  })
}

function write(dir: string, file: string, content: string): void {
  mkdirSync(dirname(join(dir, file)), { recursive: true })
  writeFileSync(join(dir, file), content)
}

/** `files` written into `dir`, its `src` written afresh (node_modules and the build stay); returns the pasted files. */
function writeSources(dir: string, files: Record<string, string>, pasted: { file: string; code: string }[]): string[] {
  rmSync(join(dir, "src"), { recursive: true, force: true })
  for (const [file, content] of Object.entries(files)) write(dir, file, content)
  for (const { file, code } of pasted) write(dir, file, code)
  return pasted.map(({ file }) => file)
}

/** One SvelteKit the section is pasted into, ready to run. */
interface KitApp {
  app: ExampleApp
  /** The files the README's blocks were pasted into. */
  pasted: string[]
  /** The port it must listen on, when its build fixed its address. */
  port?: number
  /** What `node build` is given besides the .env file. */
  env(port: number): Record<string, string>
}

/** SvelteKit 2.70 as `sv create` lays it out, on the Node running the tests. */
function kit2(): KitApp {
  /** Kept between runs, so a run whose README, scaffold and package did not change neither installs nor builds. */
  const app: ExampleApp = {
    dir: SVELTEKIT_SCAFFOLD_DIR,
    build: ["node_modules/vite/bin/vite.js", "build"],
    sources: ["src", "svelte.config.js", "vite.config.ts", "package.json", "tsconfig.json"],
    built: "build/index.js",
  }
  let pasted: string[] = []
  // Written and built in one hold of the lock: the folder is shared by every checkout's tests.
  withBuildLock(() => {
    sveltekitScaffold()
    pasted = writeSources(app.dir, SCAFFOLD_FILES, pastedBlocks())
    buildExampleApp(app)
  })
  return { app, pasted, env: (port) => ({ HOST: "127.0.0.1", ORIGIN: `http://localhost:${port}` }) }
}

/**
 * Kit 3's build fixes the app's address (`paths.origin`), so it listens on this port; below
 * Linux's ephemeral range, and not examples/sveltekit's (31217).
 */
const KIT3_PORT = 31_218

/** The variables the test's .env holds, declared as the README says Kit 3 wants them declared. */
const KIT3_ENV = `import { defineEnvVars } from "@sveltejs/kit/env"

const optional = { schema: (value: string | undefined) => value }

export const variables = defineEnvVars({
  AUTH_SECRET: optional,
  AUTH_TRUST_HOST: optional,
  AUTH_GITHUB_ID: optional,
  AUTH_GITHUB_SECRET: optional,
})
`

/**
 * The Kit 2 app moved to Kit 3.2 by what the README's "SvelteKit 3" bullet says, read from the
 * bullet (a change it stops saying, or says differently, changes the app), on Node 24, with
 * examples/sveltekit's node_modules.
 */
function kit3(): KitApp {
  const says = bullet("SvelteKit", "SvelteKit 3")
  const found = (pattern: RegExp, what: string): RegExpExecArray => {
    const match = pattern.exec(says)
    if (!match) throw new Error(`the README's "SvelteKit 3" bullet no longer says ${what}: ${says}`)
    return match
  }
  // `$lib` is gone (`import … from "#lib/server/auth.ts"`, with "imports": { … } in package.json)
  const [, libPrefix, libExtension] = found(/`\$lib` is gone \(`import … from "(#[\w-]+\/)server\/auth(\.\w+)?"`/, "how `$lib` imports change")
  const imports = JSON.parse(found(/`"imports": (\{[^`]*\})`/, "the package.json `imports`")[1]!) as Record<string, string>
  // the `Handle` type comes from `<module>`
  const handleFrom = found(/the `Handle` type comes from `([^`]+)`/, "where the `Handle` type comes from")[1]!
  // `tsconfig.json` extends `"<config>"` (not …) with `"include": […], "exclude": […]`
  const [, tsconfigBase, tsconfigFiles] = found(/`tsconfig\.json` extends `"([^"]+)"` \([^)]*\) with `("include": [^`]*)`/, "what tsconfig.json extends")
  const tsconfig = { ...(JSON.parse(SCAFFOLD_FILES["tsconfig.json"]!) as object), extends: tsconfigBase, ...(JSON.parse(`{${tsconfigFiles}}`) as object) }
  // the configuration moves into `<file>`: `sveltekit({ … })`
  const [, configFile, pluginCall] = found(/the configuration moves into `([\w.]+)`: `(sveltekit\(.*?\))`/, "where the configuration moves")
  if (!/paths: \{ origin: "[^"]+" \}/.test(pluginCall!)) throw new Error(`the README's Kit 3 configuration sets no paths.origin: ${pluginCall}`)
  found(/your `src\/env\.ts` declares/, "that Kit 3 reads the variables src/env.ts declares")

  const moved = pastedBlocks().map(({ file, code }) => ({
    file,
    code: code
      .replace(/from "\$lib\/([^"]+)"/g, (_, path: string) => `from "${libPrefix}${path}${libExtension ?? ""}"`)
      .replace(/^import \{([^}]*)\} from "@sveltejs\/kit"$/m, (line, names: string) => {
        if (!/\btype Handle\b/.test(names)) return line
        const kept = names.split(",").map((name) => name.trim()).filter((name) => name && name !== "type Handle")
        return kept.length ? `import { ${kept.join(", ")} } from "@sveltejs/kit"` : ""
      })
      .replace(new RegExp(`^import \\{([^}]*)\\} from "${handleFrom.replace(/[/.]/g, "\\$&")}"$`, "m"), (line, names: string) =>
        code.includes("type Handle") ? `import {${names.trimEnd()}, type Handle } from "${handleFrom}"` : line,
      ),
  }))
  const hooks = moved.find(({ file }) => file === "src/hooks.server.ts")!
  if (!hooks.code.includes(`type Handle } from "${handleFrom}"`)) throw new Error(`the Handle import was not moved:\n${hooks.code}`)

  const node: NodeRelease = nodeRelease(24)
  const example: Pick<ExampleApp, "dir" | "node"> = { dir: fileURLToPath(new URL("../../../../examples/sveltekit/", import.meta.url)), node }
  const exampleManifest = JSON.parse(readFileSync(join(example.dir, "package.json"), "utf8")) as { devDependencies: Record<string, string> }
  const { version } = JSON.parse(readFileSync(fileURLToPath(new URL("../../package.json", import.meta.url)), "utf8")) as { version: string }
  const app: ExampleApp = {
    dir: join(tmpdir(), "gatehouse-readme-apps", "sveltekit-3"),
    build: ["node_modules/vite/bin/vite.js", "build"],
    sources: ["src", configFile!, "package.json", "tsconfig.json"],
    built: "build/index.js",
    node,
  }
  const { "svelte.config.js": _config, "vite.config.ts": _vite, ...kept } = SCAFFOLD_FILES
  const files: Record<string, string> = {
    ...kept,
    // The scaffold's package.json, on examples/sveltekit's Kit 3 versions, with gatehouse-auth as `npm install gatehouse-auth` adds it.
    "package.json": `${JSON.stringify(
      {
        name: "readme-sveltekit-3",
        version: "0.0.1",
        private: true,
        type: "module",
        imports,
        scripts: { dev: "vite dev", build: "vite build", preview: "vite preview", check: "svelte-kit sync && svelte-check --tsconfig ./tsconfig.json" },
        devDependencies: exampleManifest.devDependencies,
        dependencies: { "gatehouse-auth": `^${version}` },
      },
      null,
      2,
    )}\n`,
    [configFile!]: `import adapter from "@sveltejs/adapter-node"
import { sveltekit } from "@sveltejs/kit/vite"
import { defineConfig } from "vite"

export default defineConfig({
  plugins: [${pluginCall!.replace(/origin: "[^"]+"/, `origin: "http://localhost:${KIT3_PORT}"`)}],
})
`,
    "tsconfig.json": `${JSON.stringify(tsconfig, null, 2)}\n`,
    "src/env.ts": KIT3_ENV,
  }
  let pasted: string[] = []
  withBuildLock(() => {
    mkdirSync(app.dir, { recursive: true })
    pasted = writeSources(app.dir, files, moved)
    borrowExampleModules(example, app)
    buildExampleApp(app)
  })
  // No ORIGIN: adapter-node 6 takes the address from the build's paths.origin.
  return { app, pasted, port: KIT3_PORT, env: () => ({ HOST: "127.0.0.1" }) }
}

describe.each([
  ["2.70", kit2],
  ["3.2", kit3],
] as const)("the README's SvelteKit section pasted into a new SvelteKit %s app", (kit, prepare) => {
  let ready: KitApp
  let running: RunningApp
  let browser: Browser
  const contexts: BrowserContext[] = []

  beforeAll(async () => {
    ready = prepare()
    const { app } = ready
    const port = ready.port ?? (await freePort())
    // As the README says: the secret in .env, which `node build` reads only through --env-file.
    writeFileSync(join(app.dir, ".env"), `AUTH_SECRET=${randomBytes(32).toString("base64")}\nAUTH_TRUST_HOST=true\nAUTH_GITHUB_ID=unused\nAUTH_GITHUB_SECRET=unused\n`)
    const env = ready.env(port)
    running = await startExampleApp(app, {
      port,
      command: () => ["--env-file=.env", "build"],
      env,
      // ORIGIN kept only where the app is given it (adapter-node 5): Kit 3's comes from its build.
      unset: ["AUTH_SECRET", "AUTH_URL", "AUTH_TRUST_HOST", ...("ORIGIN" in env ? [] : ["ORIGIN"])],
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

  it("pastes every block of the section into the file it names, in an app on that SvelteKit", () => {
    expect(ready.pasted).toEqual([
      "src/lib/server/auth.ts",
      "src/hooks.server.ts",
      "src/routes/+layout.server.ts",
      "src/routes/dashboard/+page.server.ts",
      "src/routes/signin/+page.server.ts",
      "src/routes/signout/+page.server.ts",
      "src/routes/signin/+page.svelte",
      "src/routes/+page.svelte",
    ])
    const installed = JSON.parse(readFileSync(join(ready.app.dir, "node_modules/@sveltejs/kit/package.json"), "utf8")) as { version: string }
    expect(installed.version.startsWith(`${kit}.`)).toBe(true)
  })

  it("type-checks with svelte-check, as the scaffold's `npm run check` does: no errors, no warnings", () => {
    const { app } = ready
    const run = (args: string[]) => {
      try {
        return execFileSync(app.node?.node ?? process.execPath, args, { cwd: app.dir, encoding: "utf8", stdio: "pipe", env: app.node?.env() ?? process.env })
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

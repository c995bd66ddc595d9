/**
 * gatehouse-auth/sveltekit/components against @auth/sveltekit's components (1.11.3, installed from
 * the registry): the same pages, written both ways a Svelte 5 app writes them (`slot="…"` elements
 * as @auth/sveltekit's docs show, and snippets), rendered on the server with the app's own Svelte
 * compiler, give the same markup and class names, and forms whose fields mean the same to the
 * signIn and signOut actions. Gatehouse's components are the ones in the packed package.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { beforeAll, describe, expect, it } from "vitest"
import { readPostedForm } from "../../../packages/gatehouse/src/sveltekit/posted-form.js"
import { installExampleApp } from "../../../packages/gatehouse/test/support/example-app.js"
import { nodeRelease } from "../../../packages/gatehouse/test/support/node-release.js"
import { installPackageVersion } from "../../../packages/gatehouse/test/support/npm-package.js"

const appDir = fileURLToPath(new URL("..", import.meta.url))
/** Inside the app's node_modules, so the compiled modules find its `svelte`; rewritten each run. */
const out = join(appDir, "node_modules", ".gatehouse-components-test")

type Library = "gatehouse" | "authjs"

/** Pages that use the components, as apps write them; `$lib` stands for the library under test. */
const PAGES: Record<string, { syntax: "slots" | "snippets"; source: string }> = {
  "OAuth provider, custom button content, className and a redirect (slots)": {
    syntax: "slots",
    source: `<SignIn provider="github" className="primary wide" options={{ redirectTo: "/dashboard" }} authorizationParams={{ prompt: "login" }}>
  <span slot="submitButton" class="buttonPrimary">Sign in with GitHub</span>
</SignIn>`,
  },
  "OAuth provider, custom button content, className and a redirect (snippets)": {
    syntax: "snippets",
    source: `<SignIn provider="github" className="primary wide" options={{ redirectTo: "/dashboard" }} authorizationParams={{ prompt: "login" }}>
  {#snippet submitButton()}<span class="buttonPrimary">Sign in with GitHub</span>{/snippet}
</SignIn>`,
  },
  "credentials fields, a class attribute and another sign-in page (slots)": {
    syntax: "slots",
    source: `<SignIn provider="credentials" class="login-form" signInPage="login" id="password-form">
  <div slot="credentials" class="fields"><input name="email" type="email" /><input name="password" type="password" /></div>
  <svelte:fragment slot="submitButton">Sign in with password</svelte:fragment>
</SignIn>`,
  },
  "credentials fields, a class attribute and another sign-in page (snippets)": {
    syntax: "snippets",
    source: `<SignIn provider="credentials" class="login-form" signInPage="login" id="password-form">
  {#snippet credentials()}<div class="fields"><input name="email" type="email" /><input name="password" type="password" /></div>{/snippet}
  {#snippet submitButton()}Sign in with password{/snippet}
</SignIn>`,
  },
  "an email provider's own address field (slots)": {
    syntax: "slots",
    source: `<SignIn provider="resend"><span slot="submitButton">Email me a link</span></SignIn>
<SignIn provider="sendgrid"><svelte:fragment slot="email"><input name="email" class="address" /></svelte:fragment><span slot="submitButton">Send</span></SignIn>`,
  },
  "an email provider's own address field (snippets)": {
    syntax: "snippets",
    source: `<SignIn provider="resend">{#snippet submitButton()}<span>Email me a link</span>{/snippet}</SignIn>
<SignIn provider="sendgrid">{#snippet email()}<input name="email" class="address" />{/snippet}{#snippet submitButton()}Send{/snippet}</SignIn>`,
  },
  "sign-out with custom button content (slots)": {
    syntax: "slots",
    source: `<SignOut className="nav" options={{ redirectTo: "/" }}><div slot="submitButton" class="buttonPrimary">Sign out</div></SignOut>
<SignOut signOutPage="logout" class="plain"><span slot="submitButton">Leave</span></SignOut>`,
  },
  "sign-out with custom button content (snippets)": {
    syntax: "snippets",
    source: `<SignOut className="nav" options={{ redirectTo: "/" }}>{#snippet submitButton()}<div class="buttonPrimary">Sign out</div>{/snippet}</SignOut>
<SignOut signOutPage="logout" class="plain">{#snippet submitButton()}<span>Leave</span>{/snippet}</SignOut>`,
  },
}

let compile: (source: string, options: object) => { js: { code: string } }
let render: (component: unknown) => { body: string }

beforeAll(async () => {
  // Under the Node the app's other test builds and runs it with (24), so the two share one install.
  installExampleApp({ dir: appDir, node: nodeRelease(24) })
  const authjs = installPackageVersion("@auth/sveltekit", "1.11.3")
  const fromApp = createRequire(join(appDir, "package.json"))
  ;({ compile } = (await import(pathToFileURL(fromApp.resolve("svelte/compiler")).href)) as { compile: typeof compile })
  ;({ render } = (await import(pathToFileURL(fromApp.resolve("svelte/server")).href)) as { render: typeof render })

  rmSync(out, { recursive: true, force: true })
  const sources: Record<Library, string> = { gatehouse: join(appDir, "node_modules/gatehouse-auth/dist/sveltekit/components"), authjs: join(authjs, "dist/components") }
  for (const library of ["gatehouse", "authjs"] as const) {
    mkdirSync(join(out, library), { recursive: true })
    // Kit's enhance only runs in the browser; the server render needs its name.
    writeFileSync(join(out, library, "forms.js"), "export function enhance() {}\n")
    writeFileSync(join(out, library, "index.js"), 'export { default as SignIn } from "./SignIn.js"\nexport { default as SignOut } from "./SignOut.js"\n')
    for (const component of ["SignIn", "SignOut"]) {
      compileTo(join(out, library, `${component}.js`), readFileSync(join(sources[library], `${component}.svelte`), "utf8"), `${component}.svelte`)
    }
  }
}, 300_000)

/** Compiles a component for the server into `file`, its `$app/forms` and `.svelte` imports pointed at the files beside it. */
function compileTo(file: string, source: string, filename: string): void {
  const { js } = compile(source, { generate: "server", filename })
  writeFileSync(
    file,
    js.code.replace(/(["'])\$app\/forms\1/g, '"./forms.js"').replace(/from (["'])\.\/(\w+)\.svelte\1/g, 'from "./$2.js"'),
  )
}

/** The server render of `page` written against `library`'s components. */
async function rendered(library: Library, name: string, page: (typeof PAGES)[string]): Promise<string> {
  const file = join(out, library, `page-${Object.keys(PAGES).indexOf(name)}.js`)
  // A page with slot="…" elements is a Svelte 4-style (legacy) component; one with snippets is in runes mode.
  const script = `<script>\n  import { SignIn, SignOut } from "./index.js"\n${page.syntax === "snippets" ? "  let mode = $state('runes')\n" : ""}</script>\n`
  compileTo(file, script + page.source, "Page.svelte")
  const module = (await import(`${pathToFileURL(file).href}?${Date.now()}`)) as { default: unknown }
  // Svelte's hydration markers and the whitespace between tags are not markup anyone styles.
  return render(module.default)
    .body.replace(/<!--[^>]*-->/g, "")
    .replace(/>\s+</g, "><")
    .trim()
}

/** The markup without hidden inputs, and what the hidden inputs of each form mean to the actions. */
function split(html: string) {
  const forms = [...html.matchAll(/<form[^>]*>.*?<\/form>/gs)].map(([form]) => {
    const fields = new FormData()
    for (const [input] of form.matchAll(/<input type="hidden"[^>]*>/g)) {
      fields.append(/name="([^"]*)"/.exec(input)![1]!, /value="([^"]*)"/.exec(input)?.[1] ?? "")
    }
    const { providerId, redirectTo, authorizationParams } = readPostedForm(fields)
    return { providerId, redirectTo, authorizationParams: [...authorizationParams] }
  })
  return { visible: html.replace(/<input type="hidden"[^>]*>/g, ""), forms }
}

/**
 * The one difference on purpose: @auth/sveltekit's default address label names
 * `input-email-for-<provider>-provider` while its input is `input-email-for-email-provider`, so
 * only the `email` provider's label labels its field; Gatehouse's label names the input there is.
 */
const withLabelFixed = (html: string) => html.replace(/for="input-email-for-[^"]*-provider"/g, 'for="input-email-for-email-provider"')

describe.each(Object.entries(PAGES))("%s", (name, page) => {
  it("renders @auth/sveltekit's markup and classes, and posts what its form means", async () => {
    const gatehouse = split(await rendered("gatehouse", name, page))
    const authjs = split(withLabelFixed(await rendered("authjs", name, page)))
    expect(gatehouse.visible).toBe(authjs.visible)
    expect(gatehouse.forms).toEqual(authjs.forms)
    // Not vacuous: the page's own content and the library's class names are there.
    expect(gatehouse.visible).toMatch(/<form [^>]*class="(sign(In|Out)Button|login-form|plain)/)
    expect(gatehouse.visible).toMatch(/<button type="submit">.+<\/button>/)
  })
})

it("renders the pieces the comparison rests on, in Gatehouse's words", async () => {
  const html = await rendered("gatehouse", "an email provider's own address field (slots)", PAGES["an email provider's own address field (slots)"]!)
  expect(html).toContain('<label class="section-header" for="input-email-for-email-provider">Email</label>')
  expect(html).toContain('<input id="input-email-for-email-provider" type="email" name="email" placeholder="email@example.com" required=""/>')
  expect(html).toContain('<input name="email" class="address"/>')
  const oauth = await rendered("gatehouse", Object.keys(PAGES)[0]!, Object.values(PAGES)[0]!)
  expect(oauth).toContain('class="signInButton primary wide"')
  expect(oauth).toContain('<button type="submit"><span slot="submitButton" class="buttonPrimary">Sign in with GitHub</span></button>')
  expect(split(oauth).forms).toEqual([{ providerId: "github", redirectTo: "/dashboard", authorizationParams: [["prompt", "login"]] }])
})

/**
 * The codemod's rewrite of one source file: every way a module is named, in every kind of file it
 * reads, rewritten; comments, unrelated strings, templates, regular expressions, JSX text and
 * Svelte markup left alone; Auth.js imports it cannot map reported with their line.
 */
import { describe, expect, it } from "vitest"
import { migrateSource } from "../../src/cli/migrate.js"

/** The providers the tests pretend Gatehouse has. */
const hasProvider = (name: string) => ["github", "credentials"].includes(name)

/** Specifiers by role: Auth.js's, and what each becomes. */
const AUTHJS = { next: "next-auth", react: "next-auth/react", jwt: "next-auth/jwt", github: "next-auth/providers/github", core: "@auth/core", types: "@auth/core/types", express: "@auth/express", kit: "@auth/sveltekit", components: "@auth/sveltekit/components" }
const GATEHOUSE: typeof AUTHJS = { next: "gatehouse-auth/next", react: "gatehouse-auth/react", jwt: "gatehouse-auth/jwt", github: "gatehouse-auth/providers/github", core: "gatehouse-auth", types: "gatehouse-auth/types", express: "gatehouse-auth/express", kit: "gatehouse-auth/sveltekit", components: "gatehouse-auth/sveltekit/components" }
type Specifiers = typeof AUTHJS

/** Each form, written with the given specifiers; `ts` marks TypeScript-only syntax. */
const FORMS: { name: string; ts?: boolean; kind: string; code: (s: Specifiers) => string }[] = [
  { name: "reference types", kind: "reference types", code: (s) => `/// <reference types="${s.next}" />\n` },
  { name: "default import", kind: "import", code: (s) => `import NextAuth from "${s.next}"\n` },
  { name: "type import", ts: true, kind: "import", code: (s) => `import type { Session } from '${s.types}'\n` },
  { name: "inline type import", ts: true, kind: "import", code: (s) => `import { type JWT, getToken } from "${s.jwt}"\n` },
  { name: "named import over lines", kind: "import", code: (s) => `import {\n  signIn,\n  // signOut,\n  useSession as session,\n} from "${s.react}"\n` },
  { name: "namespace import", kind: "import", code: (s) => `import * as Auth from "${s.core}"\n` },
  { name: "default and named import", kind: "import", code: (s) => `import GitHub, { profile } from "${s.github}"\n` },
  { name: "side-effect import", kind: "import", code: (s) => `import "${s.react}"\n` },
  { name: "import with attributes", kind: "import", code: (s) => `import data from "${s.core}" with { type: "json" }\n` },
  { name: "export from", kind: "export", code: (s) => `export { auth as default, signIn } from "${s.core}"\n` },
  { name: "export star", kind: "export", code: (s) => `export * from "${s.express}"\n` },
  { name: "export star as", kind: "export", code: (s) => `export * as jwt from "${s.jwt}"\n` },
  { name: "export type from", ts: true, kind: "export", code: (s) => `export type { Session } from "${s.types}"\n` },
  { name: "dynamic import", kind: "dynamic import", code: (s) => `const client = await import("${s.react}")\n` },
  { name: "dynamic import of a template", kind: "dynamic import", code: (s) => `const later = () => import(\`${s.react}\`)\n` },
  { name: "type of an import", ts: true, kind: "dynamic import", code: (s) => `type Config = import("${s.next}").NextAuthConfig\n` },
  { name: "require", kind: "require", code: (s) => `const { ExpressAuth } = require("${s.express}")\n` },
  { name: "require.resolve", kind: "require", code: (s) => `const where = require.resolve("${s.express}")\n` },
  { name: "import = require", ts: true, kind: "import =", code: (s) => `import jwt = require("${s.jwt}")\n` },
  { name: "declare module", ts: true, kind: "declare module", code: (s) => `declare module "${s.next}" {\n  interface Session { role: string }\n}\n` },
  { name: "declare module of a subpath", ts: true, kind: "declare module", code: (s) => `declare module '${s.jwt}' {\n  interface JWT { role?: string }\n}\n` },
  { name: "a test's module mock", kind: "mock", code: (s) => `vi.mock("${s.react}", () => ({ useSession: () => null }))\n` },
]

/** A file of every form its kind allows, with the given specifiers. */
function fileOf(specifiers: Specifiers, typescript: boolean): string {
  return FORMS.filter((form) => typescript || !form.ts)
    .map((form) => form.code(specifiers))
    .join("")
}

describe("every form in every kind of file", () => {
  const kinds = [
    { extension: ".ts", typescript: true },
    { extension: ".tsx", typescript: true },
    { extension: ".d.ts", typescript: true },
    { extension: ".mts", typescript: true },
    { extension: ".cts", typescript: true },
    { extension: ".js", typescript: false },
    { extension: ".jsx", typescript: false },
    { extension: ".mjs", typescript: false },
    { extension: ".cjs", typescript: false },
  ]

  it.each(kinds)("rewrites every module specifier of a $extension file, and nothing else", ({ extension, typescript }) => {
    const before = fileOf(AUTHJS, typescript)
    const { text, file } = migrateSource(before, `src/auth${extension}`, hasProvider)
    expect(text).toBe(fileOf(GATEHOUSE, typescript))
    const forms = FORMS.filter((form) => typescript || !form.ts)
    expect(file.changes.map((change) => change.kind)).toEqual(forms.map((form) => form.kind))
    expect(file.problems).toEqual([])
  })

  it("names each change's line, kind, old and new specifier", () => {
    const { file } = migrateSource(`import NextAuth from "next-auth"\n\nexport { handlers } from "@auth/core"\n`, "auth.ts", hasProvider)
    expect(file.changes).toEqual([
      { line: 1, kind: "import", from: '"next-auth"', to: '"gatehouse-auth/next"' },
      { line: 3, kind: "export", from: '"@auth/core"', to: '"gatehouse-auth"' },
    ])
  })

  it("sends the passkey signIn of next-auth/webauthn and @auth/sveltekit/webauthn to gatehouse-auth/webauthn, the client's signIn staying in the React or base client", () => {
    const source = (react: string, webauthn: string, kit: string) =>
      `import { signIn } from "${react}"\nimport { signIn as passkeySignIn } from "${webauthn}"\nimport { signIn as kitPasskey } from "${kit}"\n`
    const { text, file } = migrateSource(source("next-auth/react", "next-auth/webauthn", "@auth/sveltekit/webauthn"), "app/signin/buttons.tsx", hasProvider)
    expect(text).toBe(source("gatehouse-auth/react", "gatehouse-auth/webauthn", "gatehouse-auth/webauthn"))
    expect(file.problems).toEqual([])
  })

  it.each([
    ['<script lang="ts">', "a TypeScript instance script"],
    ["<script>", "a JavaScript instance script"],
    ['<script context="module" lang="ts">', "a Svelte 4 module script"],
    ["<script module>", "a Svelte 5 module script"],
    ["<SCRIPT type='text/typescript'>", "an upper-case tag with a type"],
  ])("rewrites the imports of %s in a .svelte file (%s)", (open) => {
    const body = (s: Specifiers) => `\n  import { SignIn, SignOut } from "${s.components}"\n  import type { Session } from "${s.kit}"\n  const load = () => import("${s.kit}")\n`
    const page = (s: Specifiers) => `${open}${body(s)}</script>\n\n<SignIn provider="github" />\n`
    const { text, file } = migrateSource(page(AUTHJS), "src/routes/+page.svelte", hasProvider)
    expect(text).toBe(page(GATEHOUSE))
    expect(file.changes.map((change) => change.line)).toEqual([2, 3, 4])
  })

  it("rewrites both script blocks of a component, with lines counted in the whole file", () => {
    const component = (s: Specifiers) =>
      `<script module lang="ts">\n  export type { Session } from "${s.kit}"\n</script>\n\n<script lang="ts">\n  import { SignOut } from "${s.components}"\n</script>\n\n<SignOut />\n`
    const { text, file } = migrateSource(component(AUTHJS), "Header.svelte", hasProvider)
    expect(text).toBe(component(GATEHOUSE))
    expect(file.changes.map((change) => [change.line, change.kind])).toEqual([
      [2, "export"],
      [6, "import"],
    ])
  })
})

describe("what is not a module reference", () => {
  it.each([
    ["a line comment", `// import NextAuth from "next-auth"\n`],
    ["a block comment", `/* import NextAuth from "next-auth"\n   require("next-auth") */\n`],
    ["a JSDoc comment's prose", `/** Like import "next-auth" does, or 'next-auth/react'. */\nexport {}\n`],
    ["a template with a substitution", "const name = `next-auth/providers/${id}`\nimport(`next-auth/${kind}`)\n"],
    ["a template's text", "const message = `import NextAuth from \"next-auth\"`\n"],
    ["a regular expression", `const pattern = /import "next-auth"/\nconst other = x.replace(/require\\("next-auth"\\)/g, "")\n`],
    ["a property named import or require", `loader.import("next-auth")\nmodule.require("next-auth")\n`],
    ["object keys named import and require", `const table = { import: 1, require: 2 }\nconst name = table.import\n`],
    ["a directive after the first statement", `export const x = 1\n/// <reference types="next-auth" />\n`],
    ["a reference to a path", `/// <reference path="next-auth" />\nexport {}\n`],
  ])("leaves %s alone", (_name, source) => {
    const { text, file } = migrateSource(source, "file.ts", hasProvider)
    expect(text).toBe(source)
    expect(file.changes).toEqual([])
  })

  it.each([
    ["text that reads like an import", `const doc = <p>import NextAuth from "next-auth"</p>\nimport { auth } from "next-auth"\n`],
    ["text holding a comment's opening", `const help = <p>Every file in app/* is a page</p>\nimport { auth } from "next-auth"\nconst note = "*/"\n`],
    ["text with quotes and slashes", `const page = <p>Don't "import" it: import x from "next-auth" // or http://next-auth</p>\nimport { auth } from "next-auth"\n`],
    ["an attribute", `const link = <a href="next-auth" title='import "next-auth"'>x</a>\nimport { auth } from "next-auth"\n`],
    ["nested elements and expressions", `const page = (\n  <div className={\`a \${b}\`}>\n    {/* import "next-auth" */}\n    {items.map((item) => <li key={item}>it's {item > 1 ? "more" : "one"}</li>)}\n    <>import "next-auth"</>\n  </div>\n)\nimport { auth } from "next-auth"\n`],
    ["a self-closing element with a spread", `const el = <Button {...props} label="next-auth" disabled />\nimport { auth } from "next-auth"\n`],
  ])("leaves JSX %s alone, and still finds the import after it", (_name, source) => {
    const { text, file } = migrateSource(source, "page.tsx", hasProvider)
    expect(text).toBe(source.replace('import { auth } from "next-auth"', 'import { auth } from "gatehouse-auth/next"'))
    expect(file.changes).toHaveLength(1)
  })

  it("reads TypeScript generics in a .tsx file as generics, not as JSX", () => {
    const source = `const id = <T,>(value: T) => value\nconst keep = <T extends object>(value: T) => "it's"\nconst sized = useState<string>("don't")\nimport { auth } from "next-auth"\n`
    const { text } = migrateSource(source, "hooks.tsx", hasProvider)
    expect(text).toContain('from "gatehouse-auth/next"')
  })

  it("reads a .ts file's type assertion as no JSX", () => {
    const source = `const value = <string>input\nconst other = <Session>(<unknown>raw)\nimport { auth } from "next-auth"\n`
    const { text } = migrateSource(source, "cast.ts", hasProvider)
    expect(text).toContain('from "gatehouse-auth/next"')
  })

  it("tells division from a regular expression", () => {
    const source = `const half = total / 2 / count\nconst ratio = (a + b) / 'x'.length\nif (ok) /"/.test(s)\nimport { auth } from "next-auth"\n`
    const { text, file } = migrateSource(source, "math.ts", hasProvider)
    expect(file.changes).toHaveLength(1)
    expect(text).toContain('from "gatehouse-auth/next"')
  })

  it("leaves a Svelte component's markup, style and commented-out scripts alone", () => {
    const source = `<!-- <script>import "next-auth"</script> -->\n<script lang="ts">\n  import { SignIn } from "@auth/sveltekit/components"\n</script>\n\n<p>import "@auth/sveltekit"</p>\n<style>\n  p::after { content: 'import "@auth/sveltekit"'; }\n</style>\n`
    const { text, file } = migrateSource(source, "Page.svelte", hasProvider)
    expect(text).toBe(source.replace('"@auth/sveltekit/components"', '"gatehouse-auth/sveltekit/components"'))
    expect(file.changes).toHaveLength(1)
    expect(file.problems).toEqual([])
  })

  it("finds a Svelte component's scripts after text whose lower case is longer (İ), in any tag case", () => {
    const source = `<p>İstanbul İzmir İİİİ</p>\n<SCRIPT lang="ts">\n  import { signIn } from "@auth/sveltekit/client" // İ\n</Script>\n<p>İ</p>\n<script module>import "next-auth"</SCRIPT>\n`
    const { text, file } = migrateSource(source, "Page.svelte", hasProvider)
    expect(text).toBe(source.replace('"@auth/sveltekit/client"', '"gatehouse-auth/client"').replace('"next-auth"', '"gatehouse-auth/next"'))
    expect(file.changes).toHaveLength(2)
  })

  it("leaves other packages, adapters and relative paths alone", () => {
    const source = `import { PrismaAdapter } from "@auth/prisma-adapter"\nimport NextLink from "next/link"\nimport x from "./next-auth"\nimport y from "next-auth-extra"\nimport z from "@authjs/other"\n`
    const { text, file } = migrateSource(source, "auth.ts", hasProvider)
    expect(text).toBe(source)
    expect(file).toEqual({ path: "auth.ts", changes: [], problems: [] })
  })

  it("writes an escaped specifier anew in its own quotes", () => {
    const { text } = migrateSource(`import a from "next\\u002Dauth"\nimport b from 'next-auth\\/react'\n`, "auth.ts", hasProvider)
    expect(text).toBe(`import a from "gatehouse-auth/next"\nimport b from 'gatehouse-auth/react'\n`)
  })

  it("keeps CRLF line ends, a byte order mark and every other byte", () => {
    const source = `\ufeff// auth\r\nimport NextAuth from "next-auth"\r\nexport const { auth } = NextAuth({ providers: [] })\r\n`
    const { text, file } = migrateSource(source, "auth.ts", hasProvider)
    expect(text).toBe(source.replace('"next-auth"', '"gatehouse-auth/next"'))
    expect(file.changes[0]!.line).toBe(2)
  })
})

describe("what cannot be mapped", () => {
  it("reports next-auth v4's modules with their line and what to do instead, and leaves them", () => {
    const source = `import { withAuth } from "next-auth/middleware"\n\nimport { getServerSession } from "next-auth/next"\n`
    const { text, file } = migrateSource(source, "middleware.ts", hasProvider)
    expect(text).toBe(source)
    expect(file.problems).toEqual([
      { line: 1, subject: "next-auth/middleware", reason: expect.stringMatching(/v4's middleware.*export `auth`/) },
      { line: 3, subject: "next-auth/next", reason: expect.stringMatching(/getServerSession.*`auth\(\)`/) },
    ])
  })

  it("reports a provider Gatehouse does not have, and a subpath Auth.js never had", () => {
    const { file } = migrateSource(`import Foo from "@auth/core/providers/foo"\nimport { x } from "@auth/core/lib/utils"\n`, "auth.ts", hasProvider)
    expect(file.problems.map((problem) => [problem.line, problem.subject, problem.reason])).toEqual([
      [1, "@auth/core/providers/foo", 'Gatehouse has no provider module "foo"'],
      [2, "@auth/core/lib/utils", expect.stringContaining('@auth/core has no "lib/utils"')],
    ])
  })

  it("reports an Auth.js integration Gatehouse does not have", () => {
    const { file } = migrateSource(`import { QwikAuth$ } from "@auth/qwik"\n`, "auth.ts", hasProvider)
    expect(file.problems).toEqual([{ line: 1, subject: "@auth/qwik", reason: expect.stringContaining("no Gatehouse integration") }])
  })

  it("reports a string or a JSDoc type naming an Auth.js module, without changing it", () => {
    const source = `export default { transpilePackages: ["next-auth"] }\n/** @param {import("@auth/express").Session} session */\nfunction f(session) {}\n/** @import { Session } from "next-auth" */\n`
    const { text, file } = migrateSource(source, "next.config.js", hasProvider)
    expect(text).toBe(source)
    expect(file.problems.map((problem) => [problem.line, problem.subject, problem.reason])).toEqual([
      [1, "next-auth", "named in a string that is not an import; left as it is"],
      [2, "@auth/express", "named in a JSDoc comment; left as it is"],
      [4, "next-auth", "named in a JSDoc comment; left as it is"],
    ])
  })
})

describe("a second run", () => {
  it.each([".ts", ".tsx", ".js", ".cjs"])("changes nothing in a %s file it already rewrote", (extension) => {
    const first = migrateSource(fileOf(AUTHJS, extension.startsWith(".t")), `auth${extension}`, hasProvider)
    const second = migrateSource(first.text, `auth${extension}`, hasProvider)
    expect(second.text).toBe(first.text)
    expect(second.file.changes).toEqual([])
    expect(second.file.problems).toEqual([])
  })
})

/**
 * Scenario 6: what each library adds to a bundle. esbuild bundles a one-line entry (bundle,
 * minify, ESM) and the output is gzipped at level 9.
 *
 * Platform "browser" for every case: it is the one both bundle under. It selects each package's
 * Web build (the "browser" export condition), which is also what an edge/Worker deployment ships;
 * "neutral" cannot bundle @auth/core, whose @panva/hkdf then resolves to its Node build and
 * imports "crypto". Gatehouse's output is the same under browser, neutral or node.
 */
import { build } from "esbuild"
import { join, relative } from "node:path"
import { gzipSync } from "node:zlib"
import { benchModules, repoRoot } from "../paths.js"
import type { Scenario, ScenarioContext } from "../scenario.js"

interface Case {
  label: string
  gatehouse: string
  authjs: string
  /** Left out of both bundles. */
  external?: string[]
}

const cases: Case[] = [
  {
    label: "(a) Auth + GitHub provider: gatehouse vs @auth/core",
    gatehouse: `export { Auth } from "gatehouse-auth"; export { default as GitHub } from "gatehouse-auth/providers/github"`,
    authjs: `export { Auth } from "@auth/core"; export { default as GitHub } from "@auth/core/providers/github"`,
  },
  {
    label: "(b) getToken only: gatehouse-auth/jwt vs @auth/core/jwt",
    gatehouse: `export { getToken } from "gatehouse-auth/jwt"`,
    authjs: `export { getToken } from "@auth/core/jwt"`,
  },
  {
    // Everything each exports: next-auth/react also has the React pieces (SessionProvider,
    // useSession), which gatehouse-auth/client does not offer; react itself is in neither.
    label: "(c) browser client, all exports: gatehouse-auth/client vs next-auth/react (react external)",
    gatehouse: `export * from "gatehouse-auth/client"`,
    authjs: `export * from "next-auth/react"`,
    external: ["react", "react/*", "react-dom", "react-dom/*"],
  },
  {
    // What a sign-in page without passkeys loads: Gatehouse's ceremony is in gatehouse-auth/webauthn,
    // next-auth's in next-auth/webauthn; next-auth/react's signIn brings its React pieces' module.
    label: "(c') browser client as a sign-in page loads it, signIn + signOut: gatehouse-auth/client vs next-auth/react (react external)",
    gatehouse: `export { signIn, signOut } from "gatehouse-auth/client"`,
    authjs: `export { signIn, signOut } from "next-auth/react"`,
    external: ["react", "react/*", "react-dom", "react-dom/*"],
  },
  {
    // The passkey ceremony's entry, alone: next-auth's runs @simplewebauthn/browser's helpers, Gatehouse's the browser's own JSON ones.
    label: "(e) passkeys, signIn: gatehouse-auth/webauthn vs next-auth/webauthn (react external)",
    gatehouse: `export { signIn } from "gatehouse-auth/webauthn"`,
    authjs: `export { signIn } from "next-auth/webauthn"`,
    external: ["react", "react/*", "react-dom", "react-dom/*"],
  },
  {
    // Like for like: both offer SessionProvider, useSession and the client functions.
    label: "(d) React bindings, all exports: gatehouse-auth/react vs next-auth/react (react external)",
    gatehouse: `export * from "gatehouse-auth/react"`,
    authjs: `export * from "next-auth/react"`,
    external: ["react", "react/*", "react-dom", "react-dom/*"],
  },
]

/**
 * The bundle of `entry`, minified and gzipped. With `splitting`, what a code-splitting bundler
 * (Next, Vite, Nitro) loads at start: the entry chunk and the chunks it imports statically, not
 * those only reached by `import()` (Gatehouse loads its pages, OAuth, email links and passkeys so).
 */
async function bundleSize(entry: string, external: string[] = [], splitting = false): Promise<Sizes> {
  const result = await build({
    stdin: { contents: entry, resolveDir: repoRoot, loader: "js" },
    ...(splitting && { splitting: true, outdir: join(repoRoot, "bench", ".build", "split"), metafile: true }),
    // next-auth (and the Next it brings) is installed for the benchmarks alone, under bench/.
    nodePaths: [benchModules],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    external,
    write: false,
    // next-auth/react's "use client" directive draws a warning that says nothing about size.
    logLevel: "silent",
  })
  if (!splitting) {
    const bytes = result.outputFiles[0]!.contents
    return { minified: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length }
  }
  // The entry chunk, then every chunk reachable from it by static imports.
  const outputs = result.metafile!.outputs
  // The bundle's own entry: esbuild names every import() target an entry point too.
  const entryPath = Object.keys(outputs).find((path) => outputs[path]!.entryPoint === "<stdin>")!
  const loaded = new Set<string>()
  const visit = (path: string): void => {
    if (loaded.has(path)) return
    loaded.add(path)
    for (const imported of outputs[path]!.imports) if (imported.kind === "import-statement") visit(imported.path)
  }
  visit(entryPath)
  let minified = 0
  let gzip = 0
  for (const file of result.outputFiles) {
    if (!loaded.has(relative(process.cwd(), file.path))) continue
    minified += file.contents.length
    gzip += gzipSync(file.contents, { level: 9 }).length
  }
  return { minified, gzip }
}

type Sizes = { minified: number; gzip: number }

function reportSizes(report: ScenarioContext["report"], label: string, gatehouse: Sizes, authjs: Sizes): void {
  report.figure(label, {
    unit: "bytes",
    better: "lower",
    quantity: "size",
    gatehouse: { value: gatehouse.gzip, aside: `(minified ${gatehouse.minified.toLocaleString("en-US")} B)`, detail: gatehouse },
    authjs: { value: authjs.gzip, aside: `(minified ${authjs.minified.toLocaleString("en-US")} B)`, detail: authjs },
  })
}

export const size: Scenario = {
  name: "size",
  title: "6. Bundle size: esbuild --bundle --minify --format=esm --platform=browser, then gzip -9",
  async run({ report }) {
    report.note("platform browser: the one both libraries bundle under (each package's Web build); gzip level 9")
    for (const c of cases) {
      reportSizes(report, `${c.label}, gzipped`, await bundleSize(c.gatehouse, c.external), await bundleSize(c.authjs, c.external))
    }
    // (a) again, as a code-splitting bundler loads it: what a session check needs, at start.
    const [first] = cases
    reportSizes(report, "(a') Auth + GitHub provider, code-split: the chunks loaded at start, gzipped", await bundleSize(first!.gatehouse, [], true), await bundleSize(first!.authjs, [], true))
  },
}

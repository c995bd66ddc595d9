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
import { gzipSync } from "node:zlib"
import { benchModules, repoRoot } from "../paths.js"
import type { Scenario } from "../scenario.js"

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
    // Like for like: both offer SessionProvider, useSession and the client functions.
    label: "(d) React bindings, all exports: gatehouse-auth/react vs next-auth/react (react external)",
    gatehouse: `export * from "gatehouse-auth/react"`,
    authjs: `export * from "next-auth/react"`,
    external: ["react", "react/*", "react-dom", "react-dom/*"],
  },
]

async function bundleSize(entry: string, external: string[] = []): Promise<{ minified: number; gzip: number }> {
  const result = await build({
    stdin: { contents: entry, resolveDir: repoRoot, loader: "js" },
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
  const bytes = result.outputFiles[0]!.contents
  return { minified: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length }
}

export const size: Scenario = {
  name: "size",
  title: "6. Bundle size: esbuild --bundle --minify --format=esm --platform=browser, then gzip -9",
  async run({ report }) {
    report.note("platform browser: the one both libraries bundle under (each package's Web build); gzip level 9")
    for (const c of cases) {
      const gatehouse = await bundleSize(c.gatehouse, c.external)
      const authjs = await bundleSize(c.authjs, c.external)
      report.figure(`${c.label}, gzipped`, {
        unit: "bytes",
        better: "lower",
        quantity: "size",
        gatehouse: { value: gatehouse.gzip, aside: `(minified ${gatehouse.minified.toLocaleString("en-US")} B)`, detail: gatehouse },
        authjs: { value: authjs.gzip, aside: `(minified ${authjs.minified.toLocaleString("en-US")} B)`, detail: authjs },
      })
    }
  },
}

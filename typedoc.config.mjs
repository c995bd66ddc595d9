// TypeDoc configuration for `npm run docs` (HTML into docs/api/) and `npm run docs:check` (the same
// run with every warning an error). A JavaScript file rather than typedoc.json so that the entry
// points come from the package's `exports` map: a new subpath, or a new provider behind the
// `./providers/*` pattern, is documented (and checked) without anyone remembering to list it.
import { existsSync, readdirSync, readFileSync } from "node:fs"

const pkg = "packages/gatehouse"
const manifest = JSON.parse(readFileSync(`${pkg}/package.json`, "utf8"))

// Files a pattern export reaches that are not modules of their own in the reference, and why.
const notEntryPoints = new Set([
  "providers/types", //            re-exported in full by gatehouse-auth/types
])

/**
 * The source file of each export's `types` target: `./dist/jwt/index.d.ts` → `src/jwt/index.ts`,
 * or the hand-written declaration file itself where there is no TypeScript source (the Svelte components').
 */
function sourceOf(typesPath) {
  const source = typesPath.replace(/^\.\/dist\//, "src/").replace(/\.d\.ts$/, ".ts")
  return source.includes("*") || existsSync(`${pkg}/${source}`) ? source : typesPath.replace(/^\.\/dist\//, "src/")
}

const entryPoints = []
for (const target of Object.values(manifest.exports)) {
  if (typeof target === "string") continue // ./package.json
  const source = sourceOf(target.types)
  if (!source.includes("*")) {
    entryPoints.push(`${pkg}/${source}`)
    continue
  }
  const [dir, suffix] = source.split("*")
  for (const file of readdirSync(`${pkg}/${dir}`).sort()) {
    const stem = file.slice(0, -suffix.length)
    if (!file.endsWith(suffix) || file.endsWith(".d.ts") || notEntryPoints.has(`${dir}${stem}`.replace(/^src\//, ""))) continue
    entryPoints.push(`${pkg}/${dir}${file}`)
  }
}

// Each module is named by its import path through the `@module` tag of its entry file; a file
// without the right name would appear under its file path, so say which one rather than let it.
for (const file of entryPoints) {
  const subpath = file.slice(`${pkg}/src/`.length).replace(/(\.d)?\.ts$/, "").replace(/(^|\/)index$/, "")
  const name = subpath ? `${manifest.name}/${subpath}` : manifest.name
  if (!new RegExp(`@module ${name}\\s`).test(readFileSync(file, "utf8"))) {
    throw new Error(`${file} needs "@module ${name}" in its first doc comment`)
  }
}

/** @type {Partial<import("typedoc").TypeDocOptions>} */
const config = {
  name: manifest.name,
  entryPoints,
  // Node types included: the Express integration and the conformance suite need them.
  tsconfig: `${pkg}/tsconfig.build.json`,
  out: "docs/api",
  readme: "none",
  // The repository has no hosted remote to link source lines to; a reference with links that
  // point nowhere is worse than one without.
  disableSources: true,
  // Inherited members of Node's request and response (ExpressRequest extends IncomingMessage) are
  // Node's to document; keeping them out keeps the page about what Express and Gatehouse add.
  excludeExternals: true,
  validation: { notExported: true, invalidLink: true, invalidPath: true, rewrittenLink: true, notDocumented: true },
  // `Headers | Record<string, unknown>`, spelled out where getToken's `req.headers` is documented;
  // the type alias is an internal name, not something callers import.
  // `NextRequest` is Next's own (NextRequestLike names it; the app's `next` declares it), seen
  // here only through the workspace's stand-in, src/next/next-modules.d.ts.
  intentionallyNotExported: ["HeaderSource", '"next/server.js".NextRequest'],
}

export default config

import adapter from "@sveltejs/adapter-node"

/** @type {import("@sveltejs/kit").Config} */
export default {
  kit: {
    // `node build`: ORIGIN (or PROTOCOL_HEADER/HOST_HEADER) tells it the public URL, which Kit's
    // own Origin check of form posts and the auth routes' links both depend on.
    adapter: adapter(),
    // Only the pages that say `prerender = true` are prerendered; the links on them lead to pages
    // that depend on who asks, which are rendered per request.
    prerender: { crawl: false },
    typescript: {
      // test/ drives the built app from the repository's test suite and is type-checked with it
      // (test/tsconfig.json), not with the app.
      config: (config) => ({ ...config, include: config.include.filter((path) => !path.startsWith("../test/")) }),
    },
  },
}

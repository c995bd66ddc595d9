import adapter from "@sveltejs/adapter-node"
import { sveltekit } from "@sveltejs/kit/vite"
import { defineConfig } from "vite"

export default defineConfig({
  plugins: [
    // Kit 3 takes its configuration here (svelte.config.js is refused).
    sveltekit({
      adapter: adapter(),
      // The address the app is served at, fixed at build time: adapter-node 6 no longer reads
      // ORIGIN when it starts, and without an origin takes the scheme to be https, so Kit's own
      // Origin check would refuse every form posted over plain http. The tests build with ORIGIN set.
      paths: { origin: process.env.ORIGIN },
      // Only the pages that say `prerender = true` are prerendered; the links on them lead to pages
      // that depend on who asks, which are rendered per request.
      prerender: { crawl: false },
    }),
  ],
  // Only because the tests install gatehouse-auth from the packed build with `--no-save`, so it is
  // missing from package.json, where vite-plugin-svelte looks for packages shipping `.svelte`
  // files to compile. An app that lists gatehouse-auth in its dependencies needs none of this.
  ssr: { noExternal: ["gatehouse-auth"] },
})

import { sveltekit } from "@sveltejs/kit/vite"
import { defineConfig } from "vite"

export default defineConfig({
  plugins: [sveltekit()],
  // Only because the tests install gatehouse-auth from the packed build with `--no-save`, so it is
  // missing from package.json, where vite-plugin-svelte looks for packages shipping `.svelte`
  // files to compile. An app that lists gatehouse-auth in its dependencies needs none of this.
  ssr: { noExternal: ["gatehouse-auth"] },
})

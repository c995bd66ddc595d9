// Rendered once, at build time, to a static file: Kit runs the hooks and the root layout's load
// then too, with no visitor (so no session) and no environment to read.
export const prerender = true

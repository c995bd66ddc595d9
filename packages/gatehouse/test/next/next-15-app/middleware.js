export { auth as middleware } from "./auth.js"

// Every page, as the README's proxy.ts matcher: public pages pass through it too.
export const config = { matcher: ["/((?!_next/|favicon.ico|api/auth/).*)"] }

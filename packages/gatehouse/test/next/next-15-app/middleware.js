export { auth as middleware } from "./auth.js"

export const config = { matcher: ["/protected/:path*"] }

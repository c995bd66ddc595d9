export { auth as proxy } from "@/auth"

// Pages only: not Next's own assets, and not the auth routes (the proxy never gates those anyway).
export const config = { matcher: ["/((?!_next/|favicon.ico|api/auth/).*)"] }

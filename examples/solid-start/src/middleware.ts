/**
 * Guards a list of paths before anything renders: a full page load of one of them without a
 * session is sent to the home page. Client-side navigations and server functions do not come
 * through here with the page's path, so pages also check in their own queries.
 */
import { createMiddleware } from "@solidjs/start/middleware"
import { getSession } from "gatehouse-auth/solid-start"
import { authConfig } from "./lib/auth"

const PROTECTED = ["/account"]

export default createMiddleware({
  onRequest: async (event) => {
    const { pathname } = new URL(event.request.url)
    if (!PROTECTED.some((path) => pathname === path || pathname.startsWith(`${path}/`))) return
    const session = await getSession(event, authConfig)
    if (!session?.user) return new Response(null, { status: 302, headers: { location: "/" } })
    event.locals.session = session
  },
})

import { redirect } from "@sveltejs/kit"
import { sequence, type Handle } from "@sveltejs/kit/hooks"
import { handle as authentication } from "#lib/server/auth.ts"

/**
 * Everything under /members needs a session: checked here, once, for every page and endpoint
 * below it (a layout's load would not guard the endpoints, nor run again on every navigation).
 * A page that shows private data checks again in its own load (routes/members/+page.server.ts),
 * so a mistake here (a path it does not match, a hook reordered) exposes nothing.
 */
const protect: Handle = async ({ event, resolve }) => {
  if (event.url.pathname === "/members" || event.url.pathname.startsWith("/members/")) {
    const session = await event.locals.auth()
    if (!session?.user) redirect(303, `/signin?${new URLSearchParams({ callbackUrl: event.url.pathname + event.url.search })}`)
  }
  return resolve(event)
}

export const handle = sequence(authentication, protect)

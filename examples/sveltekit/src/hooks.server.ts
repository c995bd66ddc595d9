import { redirect, type Handle } from "@sveltejs/kit"
import { sequence } from "@sveltejs/kit/hooks"
import { handle as authentication } from "$lib/server/auth"

/**
 * Everything under /members needs a session: checked here, once, for every page and endpoint
 * below it (a layout's load would not guard the endpoints, nor run again on every navigation).
 */
const protect: Handle = async ({ event, resolve }) => {
  if (event.url.pathname === "/members" || event.url.pathname.startsWith("/members/")) {
    const session = await event.locals.auth()
    if (!session?.user) redirect(303, `/signin?${new URLSearchParams({ callbackUrl: event.url.pathname + event.url.search })}`)
  }
  return resolve(event)
}

export const handle = sequence(authentication, protect)

import { createAsync, type RouteDefinition } from "@solidjs/router"
import { getProtectedUser } from "~/lib/session"

// Guarded twice: src/middleware.ts turns a signed-out full page load away before anything
// renders, and the page's own query redirects to / too, on client-side navigation (which the
// middleware does not see) and on any request the middleware let through.
export const route = { preload: () => getProtectedUser() } satisfies RouteDefinition

export default function Account() {
  const user = createAsync(() => getProtectedUser(), { deferStream: true })
  return (
    <main>
      <h1>Account</h1>
      <p id="account">Account of {user()?.email ?? user()?.name}.</p>
    </main>
  )
}

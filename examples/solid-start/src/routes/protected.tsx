import { createAsync, type RouteDefinition } from "@solidjs/router"
import { getProtectedUser } from "~/lib/session"

// The query redirects to / without a session, both in the server render and on client navigation.
export const route = { preload: () => getProtectedUser() } satisfies RouteDefinition

export default function Protected() {
  const user = createAsync(() => getProtectedUser(), { deferStream: true })
  return (
    <main>
      <h1>Protected</h1>
      <p id="protected">Only for {user()?.email ?? user()?.name}.</p>
    </main>
  )
}

import { createAsync, type RouteDefinition } from "@solidjs/router"
import { signOut } from "gatehouse-auth/solid-start/client"
import { Show } from "solid-js"
import { getSessionQuery } from "~/lib/session"

export const route = { preload: () => getSessionQuery() } satisfies RouteDefinition

/** The session read on the server (a query), rendered in the first HTML. */
export default function Home() {
  const session = createAsync(() => getSessionQuery(), { deferStream: true })
  return (
    <main>
      <h1>Gatehouse on SolidStart</h1>
      <Show
        when={session()?.user}
        fallback={
          <p id="status">
            You are signed out. <a href="/signin">Sign in</a>
          </p>
        }
      >
        {(user) => (
          <>
            <p id="status">
              Signed in as <strong id="name">{user().name ?? user().email}</strong>
              {user().email ? ` (${user().email})` : ""}.
            </p>
            <button type="button" onClick={() => signOut({ redirectTo: "/" })}>
              Sign out
            </button>
          </>
        )}
      </Show>
    </main>
  )
}

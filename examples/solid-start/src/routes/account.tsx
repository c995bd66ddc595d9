import { createAsync } from "@solidjs/router"
import { Show } from "solid-js"
import { getSessionQuery } from "~/lib/session"

/** Guarded by src/middleware.ts on full page loads; on client navigation, by what it shows. */
export default function Account() {
  const session = createAsync(() => getSessionQuery(), { deferStream: true })
  return (
    <main>
      <h1>Account</h1>
      <Show when={session()?.user} fallback={<p id="account">Sign in to see your account.</p>}>
        {(user) => <p id="account">Account of {user().email ?? user().name}.</p>}
      </Show>
    </main>
  )
}

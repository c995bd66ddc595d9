import { createSession, signOut } from "gatehouse-auth/solid-start/client"
import { createSignal, Show } from "solid-js"

/** The session in the browser: createSession() fetches it after mount, update() changes it. */
export default function ClientSession() {
  const session = createSession()
  const [name, setName] = createSignal("")
  const status = () => (session() === undefined ? "loading" : session() ? "authenticated" : "unauthenticated")
  return (
    <main>
      <h1>Client session</h1>
      <p id="client-status">{status()}</p>
      <Show when={session()?.user}>
        {(user) => (
          <>
            <p id="client-name">{user().name ?? ""}</p>
            <label for="new-name">New name</label>
            <input id="new-name" value={name()} onInput={(event) => setName(event.currentTarget.value)} />
            <button type="button" onClick={() => session.update({ name: name() })}>
              Update
            </button>
            <button type="button" onClick={() => signOut({ redirectTo: "/" })}>
              Sign out here
            </button>
          </>
        )}
      </Show>
    </main>
  )
}

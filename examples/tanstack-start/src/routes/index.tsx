import { Link, createFileRoute } from "@tanstack/react-router"
import { signOut } from "gatehouse-auth/react"
import { useState } from "react"
import { getSecret, getUser } from "~/lib/session"

export const Route = createFileRoute("/")({
  loader: () => getUser(),
  component: Home,
})

function Home() {
  const user = Route.useLoaderData()
  const [secret, setSecret] = useState("")
  const ask = async () => {
    try {
      setSecret(await getSecret())
    } catch (error) {
      setSecret(error instanceof Response ? `Refused: ${error.status}` : `Failed: ${String(error)}`)
    }
  }
  return (
    <main>
      <p id="status">{user ? `Signed in as ${user.email}` : "You are signed out"}</p>
      <p id="secret">{secret}</p>
      <button onClick={ask}>Ask the guarded server function</button>
      {user ? <button onClick={() => signOut({ redirectTo: "/" })}>Sign out</button> : <Link to="/signin">Sign in</Link>}
      <Link to="/account">Account</Link>
    </main>
  )
}

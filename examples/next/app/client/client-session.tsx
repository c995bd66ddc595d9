"use client"
import { useState } from "react"
import { signOut, useSession } from "gatehouse-auth/react"

export function ClientSession() {
  const { data: session, status, update } = useSession()
  const [name, setName] = useState("")
  return (
    <section>
      <p id="client-status">{status}</p>
      <p id="client-name">{session?.user ? String((session.user as { name?: string }).name ?? "") : ""}</p>
      <form
        onSubmit={async (event) => {
          event.preventDefault()
          await update({ name })
        }}
      >
        <label htmlFor="new-name">New name</label>
        <input id="new-name" value={name} onChange={(event) => setName(event.target.value)} />
        <button type="submit">Update</button>
      </form>
      <button type="button" id="client-sign-out" onClick={() => signOut({ redirectTo: "/signed-out" })}>
        Sign out here
      </button>
    </section>
  )
}

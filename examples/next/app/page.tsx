import Link from "next/link"
import { Suspense } from "react"
import { auth, signOut } from "@/auth"

/**
 * The heading and the links are the static shell; the session is read at request time, in a
 * component inside a Suspense boundary (what Cache Components asks of request data).
 */
export default function Home() {
  return (
    <main>
      <h1>Gatehouse on Next.js</h1>
      <Suspense fallback={<p>Loading…</p>}>
        <SessionStatus />
      </Suspense>
      <nav>
        <Link href="/protected">Protected page</Link> · <Link href="/client">Client component</Link> · <a href="/api/me">/api/me</a>
      </nav>
    </main>
  )
}

async function SessionStatus() {
  const session = await auth()
  if (!session?.user) {
    return (
      <p id="status">
        You are signed out. <Link href="/signin">Sign in</Link>
      </p>
    )
  }
  return (
    <>
      <p id="status">
        Signed in as <strong id="name">{session.user.name ?? session.user.email}</strong>
        {session.user.email ? ` (${session.user.email})` : ""}.
      </p>
      <form
        action={async () => {
          "use server"
          await signOut({ redirectTo: "/" })
        }}
      >
        <button type="submit">Sign out</button>
      </form>
    </>
  )
}

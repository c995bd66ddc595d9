import Link from "next/link"
import { auth, signOut } from "@/auth"

export default async function Home() {
  const session = await auth()
  return (
    <main>
      <h1>Gatehouse on Next.js</h1>
      {session?.user ? (
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
      ) : (
        <p id="status">
          You are signed out. <Link href="/signin">Sign in</Link>
        </p>
      )}
      <nav>
        <Link href="/protected">Protected page</Link> · <Link href="/client">Client component</Link> · <a href="/api/me">/api/me</a>
      </nav>
    </main>
  )
}

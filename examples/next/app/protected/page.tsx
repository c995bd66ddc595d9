import { auth } from "@/auth"

/** Guarded by the `authorized` callback in proxy.ts: signed out, the request never gets here. */
export default async function Protected() {
  const session = await auth()
  return (
    <main>
      <h1>Protected</h1>
      <p id="protected">Only for {session?.user?.email ?? session?.user?.name}.</p>
    </main>
  )
}

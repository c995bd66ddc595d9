import { redirect } from "next/navigation"
import { auth } from "@/auth"

/**
 * Guarded twice: by the `authorized` callback in proxy.ts, and here. The proxy alone would leave
 * the page to any request that gets past it (a matcher that misses a path, or a bypass of Next's
 * proxy such as CVE-2025-29927), so the page that shows private data checks the session itself.
 */
export default async function Protected() {
  const session = await auth()
  if (!session?.user) redirect(`/signin?${new URLSearchParams({ callbackUrl: "/protected" })}`)
  return (
    <main>
      <h1>Protected</h1>
      <p id="protected">Only for {session.user.email ?? session.user.name}.</p>
    </main>
  )
}

import { redirect } from "@sveltejs/kit"
import type { PageServerLoad } from "./$types"

// The `protect` hook in hooks.server.ts guards all of /members already; the page that shows a
// member's data checks again here, so it never renders for a request the hook let through by
// mistake (a path it does not match, a hook reordered or removed).
export const load: PageServerLoad = async ({ locals, url }) => {
  const session = await locals.auth()
  if (!session?.user) redirect(303, `/signin?${new URLSearchParams({ callbackUrl: url.pathname + url.search })}`)
  return { email: session.user.email ?? session.user.name ?? "" }
}

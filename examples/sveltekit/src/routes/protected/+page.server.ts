import { redirect } from "@sveltejs/kit"
import type { PageServerLoad } from "./$types"

// Guarded in its own load (not the layout's: a layout load does not run again for every request
// of a page below it). Signed out: 303 to the sign-in page, which returns here afterwards.
export const load: PageServerLoad = async ({ locals, url }) => {
  const session = await locals.auth()
  if (!session?.user) redirect(303, `/signin?${new URLSearchParams({ callbackUrl: url.pathname })}`)
  return { email: session.user.email ?? session.user.name ?? "" }
}

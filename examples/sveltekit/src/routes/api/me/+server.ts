import { json } from "@sveltejs/kit"
import type { RequestHandler } from "./$types"

/** The signed-in user as JSON, or 401: an API answers, it does not redirect. */
export const GET: RequestHandler = async ({ locals }) => {
  const session = await locals.auth()
  if (!session?.user) return json({ message: "Unauthorized" }, { status: 401 })
  return json({ user: session.user })
}

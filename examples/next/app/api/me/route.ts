import { auth } from "@/auth"

/** The signed-in user as JSON, or 401: an API answers, it does not redirect. */
export const GET = auth((request) => {
  if (!request.auth?.user) return Response.json({ message: "Unauthorized" }, { status: 401 })
  return Response.json({ user: request.auth.user })
})

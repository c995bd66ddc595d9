import type { APIEvent } from "@solidjs/start/server"
import { getSession } from "gatehouse-auth/solid-start"
import { authConfig } from "~/lib/auth"

/** An API route: the user as JSON, or 401. */
export async function GET(event: APIEvent) {
  const session = await getSession(event, authConfig)
  if (!session?.user) return Response.json({ message: "Unauthorized" }, { status: 401 })
  return Response.json({ user: session.user })
}

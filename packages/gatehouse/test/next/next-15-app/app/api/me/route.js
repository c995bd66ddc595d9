import { auth } from "../../../auth.js"

export async function GET() {
  const session = await auth()
  return session?.user ? Response.json({ user: session.user }) : Response.json({ message: "Unauthorized" }, { status: 401 })
}

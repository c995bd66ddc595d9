import NextAuth from "gatehouse-auth/next"
import GitHub from "gatehouse-auth/providers/github"

// The same configuration as the next-auth route beside this one; AUTH_SECRET comes from the environment.
const { auth } = NextAuth({ trustHost: true, providers: [GitHub({ clientId: "bench-github-client-id", clientSecret: "bench-github-client-secret" })] })

export const dynamic = "force-dynamic"

/** The session of the request, as JSON (null when there is none). */
export async function GET() {
  return Response.json(await auth())
}

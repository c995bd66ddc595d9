/**
 * The inputs both libraries get, so a difference in figures is a difference in libraries. Plain
 * data only: the cold-start child imports this too, and must not load either library before it
 * starts its clock.
 */

/** At least 32 characters, as both libraries want. */
export const secret = "bench-secret-0123456789abcdef0123456789abcdef"

/** An http origin, so the session cookie has no `__Secure-` prefix for either library. */
export const origin = "http://localhost:3000"
export const basePath = "/auth"
export const sessionCookieName = "authjs.session-token"

/** What a signed-in user's session token carries (the claims both libraries put there). */
export const claims = { name: "Ada Lovelace", email: "ada@example.com", picture: "https://example.com/ada.png", sub: "user-1" }

/** GitHub is only configured, never called: a session check does not reach the provider. */
export const githubOptions = { clientId: "bench-github-client-id", clientSecret: "bench-github-client-secret" }

/** The JWT-session configuration of scenario 1, for either library's GitHub provider factory. */
export function jwtSessionConfig<Provider>(GitHub: (options: typeof githubOptions) => Provider) {
  return { secret, basePath, trustHost: true, providers: [GitHub({ ...githubOptions })] }
}

/** A fresh `GET /auth/session` carrying the session cookie (a Request's body and headers are single-use). */
export function sessionRequest(cookieValue: string): Request {
  return new Request(`${origin}${basePath}/session`, { headers: { cookie: `${sessionCookieName}=${cookieValue}` } })
}

/**
 * Checks that a timed call got the answer it should. A benchmark that times an error page is
 * worthless, so every call is checked and the first wrong answer stops the run.
 */

/** The session endpoint answered 200 with a signed-in user's session. */
export async function expectSession(response: Response, library: string, email: string): Promise<void> {
  const text = await response.text()
  if (response.status !== 200) throw new Error(`${library}: GET /auth/session answered ${response.status}: ${text.slice(0, 300)}`)
  let body: { user?: { email?: unknown } } | null
  try {
    body = JSON.parse(text) as typeof body
  } catch {
    throw new Error(`${library}: GET /auth/session answered 200 with a body that is not JSON: ${text.slice(0, 300)}`)
  }
  if (body?.user?.email !== email) throw new Error(`${library}: GET /auth/session answered no session for ${email}: ${text.slice(0, 300)}`)
}

/** A credentials sign-in succeeded: 302 away from any error page, with a session cookie set. */
export function expectSignIn(response: Response, library: string, sessionCookieName: string): void {
  const location = response.headers.get("location") ?? ""
  const cookies = response.headers.getSetCookie()
  const session = cookies.find((line) => line.startsWith(`${sessionCookieName}=`) && !line.startsWith(`${sessionCookieName}=;`))
  if (response.status !== 302 || location.includes("error=") || !session) {
    throw new Error(`${library}: sign-in answered ${response.status}, location ${location || "(none)"}, cookies ${cookies.map((c) => c.split("=")[0]).join(", ") || "(none)"}`)
  }
}

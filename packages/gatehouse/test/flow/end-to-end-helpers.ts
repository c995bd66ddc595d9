/**
 * Shared by the end-to-end flow tests: an app that serves `Auth()` under `/auth` (and a plain page
 * everywhere else, so a sign-in can land on `/dashboard`), and the browser steps of a sign-in.
 */
import { expect } from "vitest"
import { Auth } from "../../src/core/handler.js"
import type { AuthConfig } from "../../src/types.js"
import type { Browser, Handler, Visit } from "../support/browser.js"

export const SESSION_COOKIE = "__Secure-authjs.session-token"

/** `Auth(request, config)` for `/auth/...`; any other path is an app page answering 200. */
export function authApp(config: AuthConfig): Handler {
  return async (request) => {
    const { pathname } = new URL(request.url)
    if (pathname === "/auth" || pathname.startsWith("/auth/")) return Auth(request, config as Omit<AuthConfig, "raw">)
    return new Response(`app page ${pathname}`, { headers: { "content-type": "text/plain" } })
  }
}

/** The CSRF token, as a sign-in button's page would fetch it (this also sets the CSRF cookie). */
export async function csrfToken(browser: Browser, origin = browser.appOrigin): Promise<string> {
  const visit = await browser.get(`${origin}/auth/csrf`)
  return (visit.last.json() as { csrfToken: string }).csrfToken
}

/**
 * Clicks "Sign in with <provider>": GET csrf, POST `signin/<id>`, and follows every redirect (the
 * provider's automated login and consent included) to wherever the sign-in ends.
 */
export async function signIn(browser: Browser, providerId: string, options: SignInOptions = {}): Promise<Visit> {
  const origin = options.origin ?? browser.appOrigin
  const token = await csrfToken(browser, origin)
  return browser.post(signInUrl(origin, providerId, options.query), { csrfToken: token, callbackUrl: options.callbackUrl ?? `${origin}/dashboard` })
}

export interface SignInOptions {
  /** Where to land afterwards. Default `<origin>/dashboard`. */
  callbackUrl?: string
  /** The app to sign in on. Default the browser's app origin. */
  origin?: string
  /** Query of the sign-in request, forwarded to the provider (e.g. `login_hint`). */
  query?: Record<string, string>
}

function signInUrl(origin: string, providerId: string, query: Record<string, string> | undefined): string {
  const search = query ? `?${new URLSearchParams(query)}` : ""
  return `${origin}/auth/signin/${providerId}${search}`
}

/**
 * Like {@link signIn}, but stops when the provider redirects back to the app's callback route and
 * returns that URL unvisited (so a test can alter it, replay it or visit it twice).
 */
export async function signInUntilCallback(browser: Browser, providerId: string, query?: Record<string, string>): Promise<string> {
  const callbackOrigin = browser.appOrigin
  const token = await csrfToken(browser)
  let visit = await browser.post(
    signInUrl(browser.appOrigin, providerId, query),
    { csrfToken: token, callbackUrl: `${browser.appOrigin}/dashboard` },
    { follow: false },
  )
  for (let steps = 0; steps < 20; steps++) {
    const { location, body, url } = visit.last
    if (location?.startsWith(`${callbackOrigin}/auth/callback/`)) return location
    if (location !== undefined) visit = await browser.follow(visit, { follow: false })
    // oidc-provider's logout-before-switching-account page submits itself.
    else if (body.includes("<form")) visit = await browser.submitForm(visit, { follow: false })
    else throw new Error(`the sign-in stopped at ${url} (${visit.last.status}) before reaching the callback:\n${body.slice(0, 300)}`)
  }
  throw new Error("the sign-in never reached the callback")
}

/** What `GET /auth/session` answers in this browser. */
export async function sessionOf(browser: Browser, origin = browser.appOrigin): Promise<unknown> {
  return (await browser.get(`${origin}/auth/session`)).last.json()
}

/** Asserts the visit ended on the app page the sign-in was asked to return to. */
export function expectLandedOn(visit: Visit, url: string): void {
  expect(visit.url, `hops:\n${visit.hops.map((hop) => `${hop.status} ${hop.method} ${hop.url}`).join("\n")}`).toBe(url)
  expect(visit.status).toBe(200)
}

/**
 * Session checks through each library's handler: `GET /auth/session` with a valid cookie, answer
 * checked. Scenario 1 times them and the memory scenario repeats them, on the same setup.
 */
import { Auth as authjsAuth } from "@auth/core"
import { encode as authjsEncode } from "@auth/core/jwt"
import authjsGitHub from "@auth/core/providers/github"
import { Auth as gatehouseAuth } from "gatehouse-auth"
import { getSession as kernelSession, prepareConfig } from "gatehouse-auth/framework"
import { encode as gatehouseEncode } from "gatehouse-auth/jwt"
import gatehouseGitHub from "gatehouse-auth/providers/github"
import { expectSession } from "./expect.js"
import { basePath, claims, jwtSessionConfig, secret, sessionCookieName, sessionRequest } from "./fixtures.js"

export type SessionCheck = () => Promise<void>

/**
 * One checked session request. `handler` closes over one config object, passed on every call:
 * whether a library caches per config object is its own business, and both get the same chance.
 */
export function sessionCheck(handler: (request: Request) => Promise<Response>, library: string, cookieValue: string, email: string): SessionCheck {
  return async () => expectSession(await handler(sessionRequest(cookieValue)), library, email)
}

/** What scenario 1 times: each library's session route, and Gatehouse's in-process read. */
export interface JwtSessionChecks {
  gatehouse: SessionCheck
  authjs: SessionCheck
  /** `getSession(request, config)` of gatehouse-auth/framework: what Next's auth(), Kit's locals.auth() and Express's getSession call. */
  inProcess: SessionCheck
  /** The cookie value Gatehouse's checks send, for the floors. */
  gatehouseCookie: string
}

/** JWT-session checks for both libraries, each with a cookie its own `encode` made. */
export async function jwtSessionChecks(): Promise<JwtSessionChecks> {
  const gatehouseConfig = jwtSessionConfig(gatehouseGitHub)
  const authjsConfig = jwtSessionConfig(authjsGitHub)
  const gatehouseCookie = await gatehouseEncode({ token: claims, secret, salt: sessionCookieName })
  const authjsCookie = await authjsEncode({ token: claims, secret, salt: sessionCookieName })
  const { config: prepared } = prepareConfig(gatehouseConfig, {}, { basePath })
  // An integration reads the session of a request the framework already built, and getSession
  // only reads its URL and headers (and caches nothing per request), so one request serves every call.
  const pageRequest = sessionRequest(gatehouseCookie)
  return {
    gatehouseCookie,
    inProcess: async () => {
      const { session } = await kernelSession(pageRequest, prepared)
      if (session?.user?.email !== claims.email) throw new Error(`gatehouse: getSession answered no session for ${claims.email}: ${JSON.stringify(session)}`)
    },
    gatehouse: sessionCheck((request) => gatehouseAuth(request, gatehouseConfig), "gatehouse", gatehouseCookie, claims.email),
    authjs: sessionCheck((request) => authjsAuth(request, authjsConfig), "auth.js", authjsCookie, claims.email),
  }
}

/**
 * `requireRecentAuth`: the server function that gates an application's own sensitive actions
 * (changing an email address, paying out) on a recent second factor, as Gatehouse's account and
 * two-factor routes are gated.
 * @module
 */
import type { AdapterUser } from "../../adapters/index.js"
import { InvalidConfig, SessionRequired } from "../../errors.js"
import type { AuthConfig, Session } from "../../types.js"
import type { SessionRequest } from "../request-session.js"
import type { RecentAuthOptions } from "./recent-auth.js"

export type { RecentAuthOptions }

/** What {@link requireRecentAuth} answers when the second factor is recent enough. */
export interface RecentAuth {
  /** The session as the session route answers it (`session.authentication` included). */
  session: Session
  /** The stored user the session belongs to. */
  user: AdapterUser
}

/**
 * The session and stored user of `request`, when the session checked a second factor recently
 * enough: within `maxAge` seconds (default `twoFactor.freshAge`). A user with no second factor
 * enabled passes, unless `aal: 2` is asked: then only a session that checked a second factor
 * does (and never one without `twoFactor` configured). On refusal, send the user through a
 * step-up (`POST {basePath}/two-factor` with their code, from the two-factor page) and try again.
 *
 * @throws {SessionRequired} when `request` carries no session.
 * @throws {RecentAuthRequired} when the session has no recent enough second-factor check.
 * @throws {InvalidConfig} for options that are not a `maxAge` of seconds and an `aal` of 1 or 2.
 * @example
 * ```ts
 * import { requireRecentAuth } from "gatehouse-auth"
 * import { RecentAuthRequired } from "gatehouse-auth/errors"
 *
 * export async function POST(request: Request) {
 *   try {
 *     const { user } = await requireRecentAuth(request, authConfig, { maxAge: 300 })
 *     await changeEmail(user.id, await request.formData())
 *     return new Response(null, { status: 204 })
 *   } catch (error) {
 *     if (error instanceof RecentAuthRequired) return Response.redirect(new URL("/auth/two-factor?callbackUrl=/settings", request.url), 303)
 *     throw error
 *   }
 * }
 * ```
 */
export async function requireRecentAuth(request: SessionRequest, config: AuthConfig, options: RecentAuthOptions = {}): Promise<RecentAuth> {
  const { maxAge, aal } = options ?? {}
  if (maxAge !== undefined && !(typeof maxAge === "number" && Number.isFinite(maxAge) && maxAge >= 0)) {
    throw new InvalidConfig("requireRecentAuth: maxAge must be a number of seconds")
  }
  if (aal !== undefined && aal !== 1 && aal !== 2) throw new InvalidConfig("requireRecentAuth: aal must be 1 or 2")
  const ctx = await (await import("../request-session.js")).sessionRequestContext(request, config)
  const sessions = await import("../sessions/index.js")
  const user = await sessions.currentUser(ctx)
  if (!user) throw new SessionRequired("requireRecentAuth needs a signed-in user")
  await (await import("./recent-auth.js")).assertRecentSecondFactor(ctx, user.id, { ...(maxAge !== undefined && { maxAge }), ...(aal !== undefined && { aal }) })
  const { session } = await sessions.readSession(ctx)
  // The session callback or the jwt callback may still end it on this read.
  if (!session) throw new SessionRequired("requireRecentAuth needs a signed-in user")
  return { session, user }
}

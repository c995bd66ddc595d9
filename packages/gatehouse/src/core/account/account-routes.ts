/**
 * The opt-in account routes (`account.routes`), for the signed-in user only:
 * `GET|POST {basePath}/sessions`, `GET|POST {basePath}/accounts`, `POST {basePath}/link/<provider>`.
 * Reads answer JSON; changes need the CSRF token and answer the new list as JSON, or redirect to
 * the posted `callbackUrl` (through the redirect callback) for plain HTML forms. Refusals are JSON
 * with the error's type and a 4xx status, never a redirect to the error page.
 * @module
 */
import {
  ImpersonationRefused,
  InvalidProvider,
  InvalidRequest,
  LastSignInMethod,
  MissingCSRF,
  RecentAuthRequired,
  SessionRequired,
  UnknownAccount,
  UnknownSession,
} from "../../errors.js"
import type { Cookie } from "../../cookies/defaults.js"
import { jsonResponse, type ResponseInternal } from "../internal-response.js"
import type { RequestContext } from "../request-context.js"
import { postedCallbackUrl } from "../request-shape.js"
import { currentUser } from "../sessions/index.js"
import { requireProvider } from "../actions/signin.js"
import { listActiveSessions, revokeActiveSession, revokeOtherSessions } from "./active-sessions.js"
import { listLinkedAccounts, unlinkLinkedAccount } from "./linked-accounts.js"
import { assertRecentForAccountChange } from "./recent-second-factor.js"
import { answeringJson, type RefusalStatuses } from "../json-refusal.js"

/** `GET sessions`: the user's sessions. */
export function sessionsList(ctx: RequestContext): Promise<ResponseInternal> {
  return answering(ctx, async () => jsonResponse({ sessions: await listActiveSessions(ctx) }, { noCache: true }))
}

/** `POST sessions` with `revoke=<id>` or `revokeOthers=true`. */
export function sessionsChange(ctx: RequestContext): Promise<ResponseInternal> {
  return answering(ctx, async () => {
    requireCsrf(ctx)
    const { revoke, revokeOthers } = ctx.request.body ?? {}
    let cookies: Cookie[] = []
    // A JWT session lists only itself, and the request's cookie is stale once the others are revoked.
    const jwtListing = ctx.config.session.strategy === "jwt" ? await listActiveSessions(ctx) : undefined
    if (typeof revoke === "string" && revoke !== "") await revokeActiveSession(ctx, revoke)
    else if (revokeOthers === "true" || revokeOthers === true) cookies = (await revokeOtherSessions(ctx)).cookies
    else throw new InvalidRequest("POST sessions needs revoke=<session id> or revokeOthers=true")
    const back = postedCallbackUrl(ctx)
    if (back !== undefined) return { redirect: back, cookies }
    return jsonResponse({ sessions: jwtListing ?? (await listActiveSessions(ctx)) }, { noCache: true, cookies })
  })
}

/** `GET accounts`: the user's linked accounts. */
export function accountsList(ctx: RequestContext): Promise<ResponseInternal> {
  return answering(ctx, async () => jsonResponse({ accounts: await listLinkedAccounts(ctx) }, { noCache: true }))
}

/** `POST accounts` with `unlink=<provider>` and `providerAccountId`. */
export function accountsChange(ctx: RequestContext): Promise<ResponseInternal> {
  return answering(ctx, async () => {
    requireCsrf(ctx)
    const { unlink, providerAccountId } = ctx.request.body ?? {}
    if (typeof unlink !== "string" || unlink === "" || typeof providerAccountId !== "string" || providerAccountId === "") {
      throw new InvalidRequest("POST accounts needs unlink=<provider> and providerAccountId")
    }
    await unlinkLinkedAccount(ctx, { provider: unlink, providerAccountId })
    const back = postedCallbackUrl(ctx)
    if (back !== undefined) return { redirect: back }
    return jsonResponse({ accounts: await listLinkedAccounts(ctx) }, { noCache: true })
  })
}

/**
 * `POST link/<provider>`: starts an OAuth/OIDC sign-in that links the provider's account to the
 * signed-in user, then returns to `callbackUrl`. A signed-out request is refused rather than
 * signed in, an account another user owns is refused at the callback (`OAuthAccountNotLinked`),
 * and so is a callback where someone else (or nobody) is signed in (`InvalidCheck`). A user with a
 * second factor must have checked it within `twoFactor.freshAge` (`RecentAuthRequired`, 403).
 */
export async function linkAccount(ctx: RequestContext): Promise<ResponseInternal> {
  if (!ctx.csrfVerified) throw new MissingCSRF("CSRF token was missing during an action link")
  const provider = requireProvider(ctx)
  if (provider.type !== "oauth" && provider.type !== "oidc") throw new InvalidProvider(`Only OAuth and OIDC providers can be linked, not ${JSON.stringify(provider.id)}`)
  const user = await currentUser(ctx)
  if (!user) throw new SessionRequired("Linking an account needs a signed-in user")
  // Checked before the provider is even asked: the link would add a way into the account.
  await assertRecentForAccountChange(ctx, user.id)
  // The user just read goes into the state, so that only they can finish the flow.
  return (await import("../oauth/authorization-url.js")).authorizationRedirect(ctx, provider, user)
}

function requireCsrf(ctx: RequestContext): void {
  if (!ctx.csrfVerified) throw new MissingCSRF(`CSRF token was missing during an action ${ctx.request.action}`)
}

const STATUS: RefusalStatuses = [
  [SessionRequired, 401],
  [MissingCSRF, 403],
  [RecentAuthRequired, 403],
  [ImpersonationRefused, 403],
  [UnknownSession, 404],
  [UnknownAccount, 404],
  [LastSignInMethod, 409],
  [InvalidRequest, 400],
]

/** The route's answer, or the JSON refusal (with its message, which the account client shows) for the errors a client can cause. */
function answering(ctx: RequestContext, run: () => Promise<ResponseInternal>): Promise<ResponseInternal> {
  return answeringJson(ctx, STATUS, run, { message: true })
}

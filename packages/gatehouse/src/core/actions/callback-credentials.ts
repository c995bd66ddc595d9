/**
 * `POST {basePath}/callback/<credentials provider>`: checks the posted fields with the
 * provider's `authorize` and signs the returned user in.
 * @module
 */
import { CallbackRouteError, CredentialsSignin, InvalidProvider, MissingCSRF, PasswordHashError, RateLimited, ServerBusy } from "../../errors.js"
import type { CredentialsConfig } from "../../providers/types.js"
import type { Account, User } from "../../types.js"
import type { ResponseInternal } from "../internal-response.js"
import type { RequestContext } from "../request-context.js"
import { throttleCredentialsAttempt } from "../credentials/rate-limit.js"
import { jsonRequest } from "../json-request.js"
import { logError } from "../logger.js"
import { sessionUserFor } from "../sessions/index.js"
import { startSignedInSession } from "../sign-in-session.js"
import { runSignInCallback } from "../sign-in-callback.js"

/**
 * Signs in the user `authorize` returns, once the attempt has passed the provider's `rateLimit`.
 * `null` is a failed sign-in ({@link CredentialsSignin}, which carries only its `code` to the
 * sign-in page); a {@link RateLimited} or {@link ServerBusy} thrown by `authorize` is answered as such,
 * a `busy` {@link PasswordHashError} as {@link ServerBusy}; any other throw is the application's
 * bug ({@link CallbackRouteError}, logged in full, shown as `Configuration`).
 */
export async function credentialsCallback(ctx: RequestContext, provider: CredentialsConfig): Promise<ResponseInternal> {
  if (ctx.request.method !== "POST") {
    throw new InvalidProvider(`Credentials provider ${JSON.stringify(provider.id)} accepts only POST on its callback`)
  }
  if (!ctx.csrfVerified) throw new MissingCSRF("CSRF token was missing during an action callback")

  const credentials: Record<string, unknown> = { ...ctx.request.body }
  // Before authorize: a refused attempt must cost no password hash.
  await throttleCredentialsAttempt(ctx, provider, credentials)
  let authorized: unknown
  try {
    authorized = await provider.authorize(credentials, jsonRequest(ctx, credentials))
  } catch (error) {
    if (error instanceof CredentialsSignin || error instanceof RateLimited || error instanceof ServerBusy) throw error
    // gatehouse-auth/password refused to queue another hash: the server is busy, the password unknown.
    if (error instanceof PasswordHashError && error.reason === "busy") throw new ServerBusy("Too many password checks waiting", { cause: { provider: provider.id, err: error } })
    throw new CallbackRouteError(error instanceof Error ? error : new Error(String(error)), { cause: { provider: provider.id } })
  }
  if (!authorized) throw new CredentialsSignin("The authorize function returned no user")
  if (typeof authorized !== "object") {
    throw new CallbackRouteError(`authorize of provider ${JSON.stringify(provider.id)} must return a user object or null`)
  }

  const user = withStringId(authorized as User)
  const account: Account = { providerAccountId: user.id!, type: "credentials", provider: provider.id }
  // Under database sessions the session row points at a stored user; Auth.js issues a JWT here
  // that its own session route cannot read.
  const sessionUser = await sessionUserFor(ctx, user)
  if (!sessionUser) {
    logError(
      ctx.logger,
      new CallbackRouteError(
        `authorize of provider ${JSON.stringify(provider.id)} returned user ${JSON.stringify(user.id)}, which the adapter does not know; database sessions need a stored user`,
      ),
    )
    throw new CredentialsSignin("The authorized user is not in the adapter")
  }
  const redirect = await runSignInCallback(ctx, { user, account, credentials })
  if (redirect) return { redirect }

  return startSignedInSession(ctx, {
    user: sessionUser,
    account,
    isNewUser: false,
    firstFactor: { amr: ["pwd"] },
    event: { user, account },
    next: ctx.callbackUrl,
  })
}

/**
 * `user` with its `id` as a string (a new UUID when it has none). The object itself is kept, as
 * the specification hands the raw result to the events, and a copy would lose fields an ORM
 * row exposes as getters; only a frozen or read-only one is copied.
 */
function withStringId(user: User): User {
  const id = user.id != null ? String(user.id) : crypto.randomUUID()
  if (user.id === id) return user
  try {
    user.id = id
    if (user.id === id) return user
  } catch {
    // Frozen, or `id` is a getter without a setter.
  }
  return { ...user, name: user.name, email: user.email, image: user.image, id }
}

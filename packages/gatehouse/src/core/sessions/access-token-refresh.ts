/**
 * Access-token refresh as part of reading a session, for providers with `refreshAccessToken`:
 * the JWT strategy keeps the tokens in the session token, the database strategy in the account
 * rows. A refusal marks the session with `error: "RefreshAccessTokenError"`.
 * @module
 */
import type { AdapterAccount } from "../../adapters/index.js"
import type { JWT } from "../../jwt/index.js"
import type { OAuthConfig } from "../../providers/types.js"
import type { Account } from "../../types.js"
import { callAdapter } from "../adapter-call.js"
import { isExpiring, refreshingProvider } from "../oauth/refresh-due.js"
import { withoutUndefined } from "../defined-fields.js"
import type { RequestContext } from "../request-context.js"

/** The mark a session carries when its access token could not be refreshed. */
export const REFRESH_ERROR = "RefreshAccessTokenError"

/** What a new session token carries of `account` so it can be refreshed later; `{}` when not needed. */
export function refreshableTokenFields(ctx: RequestContext, account: Account | null | undefined): Partial<JWT> {
  if (!account || !refreshingProvider(ctx.config.providers, account.provider)) return {}
  const { provider, access_token, refresh_token, expires_at } = account
  return withoutUndefined({ provider, access_token, refresh_token, expires_at })
}

/**
 * `token` with a fresh access token when its own is expiring, or marked with
 * {@link REFRESH_ERROR} when the provider refuses. A marked token is not tried again; an outage
 * leaves the token as it was for the next read to retry.
 */
export function refreshedToken(ctx: RequestContext, token: JWT): JWT | Promise<JWT> {
  const provider = refreshingProvider(ctx.config.providers, token.provider)
  // Answered without a promise when nothing is due: every session read asks.
  if (!provider || token.error === REFRESH_ERROR || !isExpiring(token.expires_at)) return token
  return refreshNow(ctx, provider, token)
}

async function refreshNow(ctx: RequestContext, provider: OAuthConfig, token: JWT): Promise<JWT> {
  const refreshToken = typeof token.refresh_token === "string" ? token.refresh_token : ""
  // The refresh (and the OAuth client) is imported only once one is due, not by every read.
  const outcome = await (await import("../oauth/token-refresh.js")).refreshAccessToken({ provider, refreshToken, logger: ctx.logger, shared: ctx.config })
  if (outcome.status === "refused") return { ...token, error: REFRESH_ERROR }
  if (outcome.status === "failed") return token
  const { access_token, refresh_token, expires_at } = outcome.fields
  // Without a new expiry the token is taken to last; the old, past one would refresh on every read.
  const { expires_at: _old, ...rest } = token
  return { ...rest, ...withoutUndefined({ access_token, expires_at }), refresh_token: refresh_token ?? refreshToken }
}

/**
 * Refreshes the expiring access tokens of `userId`'s accounts with providers that ask for it,
 * updating the rows. Returns whether any provider refused (the session is then marked).
 */
export async function refreshStoredTokens(ctx: RequestContext, userId: string): Promise<boolean> {
  const { providers, adapter } = ctx.config
  if (!providers.some((provider) => refreshingProvider(providers, provider.id))) return false
  let refused = false
  for (const account of await callAdapter(adapter, "listAccountsByUserId", userId)) {
    const provider = refreshingProvider(providers, account.provider)
    if (provider && isExpiring(account.expires_at) && !(await refreshAccount(ctx, provider, account))) refused = true
  }
  return refused
}

/** Refreshes one stored account; `false` when the provider refused. */
async function refreshAccount(ctx: RequestContext, provider: OAuthConfig, account: AdapterAccount): Promise<boolean> {
  const { adapter } = ctx.config
  const key = { provider: account.provider, providerAccountId: account.providerAccountId }
  const outcome = await (await import("../oauth/token-refresh.js")).refreshAccessToken({
    provider,
    refreshToken: account.refresh_token ?? "",
    logger: ctx.logger,
    shared: ctx.config,
    persist: async (fields) => {
      // `null`, not absence, clears a column: without a new expiry the token is taken to last.
      await callAdapter(adapter, "updateAccount", { expires_at: null, ...fields, ...key } as Partial<AdapterAccount> & typeof key)
    },
  })
  if (outcome.status !== "refused") return true
  // Another server may have rotated the refresh token first; the row then holds its result.
  const current = await callAdapter(adapter, "getAccount", account.providerAccountId, account.provider)
  return Boolean(current && current.refresh_token !== account.refresh_token && !isExpiring(current.expires_at))
}

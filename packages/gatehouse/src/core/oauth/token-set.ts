/**
 * What a token endpoint's answer becomes: the token set hooks see (with an absolute `expires_at`),
 * and the fields an account keeps of it.
 * @module
 */
import type * as o from "oauth4webapi"
import type { OAuthConfig } from "../../providers/types.js"
import type { Account, TokenSet } from "../../types.js"
import { withoutUndefined } from "../defined-fields.js"

/** The processed token response, with `expires_at` (seconds since the epoch) from `expires_in`. */
export function tokenSetOf(tokens: o.TokenEndpointResponse): TokenSet {
  return {
    ...tokens,
    ...(tokens.expires_in !== undefined && { expires_at: Math.floor(Date.now() / 1000) + Number(tokens.expires_in) }),
  }
}

/** The account fields `tokens` give, by the provider's `account` hook or Auth.js's default. */
export function accountFields(provider: OAuthConfig, tokens: TokenSet): Partial<Account> {
  return (provider.account ?? defaultAccount)(tokens) ?? {}
}

function defaultAccount(tokens: TokenSet): Partial<Account> {
  const { access_token, id_token, refresh_token, expires_at, scope, token_type, session_state } = tokens
  return withoutUndefined({ access_token, id_token, refresh_token, expires_at, scope, token_type, session_state }) as Partial<Account>
}

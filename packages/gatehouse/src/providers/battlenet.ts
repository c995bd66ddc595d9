/**
 * Sign-in with Battle.net (Blizzard), in any of its regions.
 * @module gatehouse-auth/providers/battlenet
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The claims of a Battle.net ID token. Battle.net shares no email address or picture. */
export interface BattleNetProfile {
  [claim: string]: unknown
  /** The account id; the user's `id`. */
  sub: string
  /** The BattleTag, e.g. `Ada#1815`; the user's `name`. */
  battle_tag: string
}

/** The issuers of Battle.net's regions: the global one, China's, and the older regional ones. */
export type BattleNetIssuer =
  | "https://oauth.battle.net"
  | "https://oauth.battlenet.com.cn"
  | "https://www.battlenet.com.cn/oauth"
  | `https://${"us" | "eu" | "kr" | "tw"}.battle.net/oauth`

/** Options of {@link BattleNet}. */
export type BattleNetOptions = OAuthUserConfig<BattleNetProfile> & {
  /**
   * The region's issuer, from this option or `AUTH_BATTLENET_ISSUER`. Default
   * `https://oauth.battle.net`. Any string is accepted, as the environment holds one.
   */
  issuer?: BattleNetIssuer | (string & Record<never, never>)
}

/**
 * Battle.net through OpenID Connect discovery at the region's issuer. Each region's ID tokens
 * name that region's issuer, so the issuer must be the region the client signs users in from.
 * Battle.net refuses an authorization request without `state`, which Gatehouse always sends,
 * with PKCE as in Auth.js.
 *
 * @example
 * ```ts
 * BattleNet({ clientId: env.AUTH_BATTLENET_ID, clientSecret: env.AUTH_BATTLENET_SECRET, issuer: "https://eu.battle.net/oauth" })
 * ```
 */
export function BattleNet(options?: BattleNetOptions): OAuthConfig {
  return oauthProvider<BattleNetProfile>(
    {
      id: "battlenet",
      name: "Battle.net",
      type: "oidc",
      issuer: "https://oauth.battle.net",
      profile: (profile) => ({ id: profile.sub, name: profile.battle_tag ?? null, email: null, image: null }),
      style: { bg: "#148eff", text: "#fff" },
    },
    options,
  )
}

export default BattleNet

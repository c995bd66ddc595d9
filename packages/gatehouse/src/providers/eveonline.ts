/**
 * Sign-in with EVE Online (EVE SSO).
 * @module gatehouse-auth/providers/eveonline
 */
import { decodeBase64urlLenient } from "../encoding/base64.js"
import type { OAuthConfig } from "./types.js"
import { endpointUrl, fetchJson, oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The signed-in character, in the shape EVE SSO's `/oauth/verify` answers with. */
export interface EVEOnlineProfile {
  [field: string]: unknown
  /** The character's id; the user's `id` (as a string). */
  CharacterID: number
  /** The character's name; the user's `name`. */
  CharacterName: string
  /** Changes when the character moves to another account: store it to notice a sale. */
  CharacterOwnerHash: string
  /** When the access token expires, ISO 8601. */
  ExpiresOn: string
  /** The scopes granted, space-separated. */
  Scopes: string
  /** `Character`. */
  TokenType: string
  /** `EVE`. */
  IntellectualProperty: string
}

const VERIFY = "https://login.eveonline.com/oauth/verify"

/**
 * An EVE SSO application ("Authentication Only" connection type, `publicData` scope). EVE SSO
 * takes `state` but no PKCE for a confidential client.
 *
 * The character comes from the access token: EVE SSO v2 issues it as a JWT naming the
 * character (`sub: "CHARACTER:EVE:<id>"`, `name`, `owner`), and EVE deprecated the `/oauth/verify`
 * call Auth.js makes for it. The token is read without checking its signature: it comes
 * straight from EVE's token endpoint over TLS, in answer to this client's own code exchange,
 * as an ID token may be (OpenID Connect Core 3.1.3.7). The profile has `/oauth/verify`'s shape,
 * so a `profile()` written for Auth.js keeps working; a token that is not such a JWT is still
 * sent to `/oauth/verify`.
 *
 * @example
 * ```ts
 * EVEOnline({ clientId: env.AUTH_EVEONLINE_ID, clientSecret: env.AUTH_EVEONLINE_SECRET })
 * ```
 */
export function EVEOnline(options?: OAuthUserConfig<EVEOnlineProfile>): OAuthConfig {
  return oauthProvider<EVEOnlineProfile>(
    {
      id: "eveonline",
      name: "EVE Online",
      type: "oauth",
      checks: ["state"],
      authorization: { url: "https://login.eveonline.com/v2/oauth/authorize", params: { scope: "publicData" } },
      token: "https://login.eveonline.com/v2/oauth/token",
      userinfo: {
        url: VERIFY,
        async request(context) {
          const fromToken = characterOf(context.tokens.access_token)
          return fromToken ?? (await fetchJson(context, endpointUrl(context.provider.userinfo, VERIFY)))
        },
      },
      profile: (profile) => ({
        id: String(profile.CharacterID),
        name: profile.CharacterName ?? null,
        email: null,
        image: `https://images.evetech.net/characters/${encodeURIComponent(String(profile.CharacterID))}/portrait?size=128`,
      }),
      style: { bg: "#000", text: "#fff" },
    },
    options,
  )
}

/** The character an EVE SSO v2 access token names, or `undefined` when it is not one. */
function characterOf(accessToken: string | undefined): EVEOnlineProfile | undefined {
  const payload = accessToken?.split(".")[1]
  const bytes = payload === undefined ? undefined : decodeBase64urlLenient(payload)
  if (!bytes) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes))
  } catch {
    return undefined
  }
  if (parsed === null || typeof parsed !== "object") return undefined
  const claims = parsed as Record<string, unknown>
  const id = typeof claims.sub === "string" ? /^CHARACTER:EVE:(\d+)$/.exec(claims.sub)?.[1] : undefined
  if (id === undefined) return undefined
  const scopes = Array.isArray(claims.scp) ? claims.scp.join(" ") : typeof claims.scp === "string" ? claims.scp : ""
  return {
    CharacterID: Number(id),
    CharacterName: typeof claims.name === "string" ? claims.name : "",
    CharacterOwnerHash: typeof claims.owner === "string" ? claims.owner : "",
    ExpiresOn: typeof claims.exp === "number" ? new Date(claims.exp * 1000).toISOString() : "",
    Scopes: scopes,
    TokenType: "Character",
    IntellectualProperty: "EVE",
  }
}

export default EVEOnline

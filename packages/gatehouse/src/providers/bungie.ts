/**
 * Sign-in with Bungie.net (Destiny).
 * @module gatehouse-auth/providers/bungie
 */
import { InvalidConfig } from "../errors.js"
import type { OAuthConfig } from "./types.js"
import { endpointUrl, fetchJson, oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** A Bungie.net account, as `bungieNetUser` holds it. */
export interface BungieNetUser {
  [field: string]: unknown
  /** The Bungie.net membership id; the user's `id`. */
  membershipId: string
  /** The display name; the user's `name`. */
  displayName: string
  /** The Bungie Name with its code, e.g. `Ada#1815`. */
  uniqueName?: string
  /** The avatar's path on www.bungie.net; the user's `image` (as a URL). */
  profilePicturePath?: string
}

/** The answer of `GET /Platform/User/GetMembershipsForCurrentUser/`: Bungie's envelope around the memberships. */
export interface BungieProfile {
  [field: string]: unknown
  /** The memberships: the Bungie.net account and its Destiny accounts. */
  Response: {
    [field: string]: unknown
    /** The Bungie.net account. */
    bungieNetUser: BungieNetUser
    /** The Destiny accounts on each platform. */
    destinyMemberships?: Record<string, unknown>[]
  }
  /** `1` on success. */
  ErrorCode: number
  /** `Success`, or the name of the error. */
  ErrorStatus: string
}

/** Options of {@link Bungie}. */
export type BungieOptions = OAuthUserConfig<BungieProfile> & {
  /** The application's API key, sent as `X-API-Key` on Bungie API calls. Default: `AUTH_BUNGIE_KEY`. */
  apiKey?: string
  /** Headers sent on Bungie API calls, Auth.js's way of giving the key: `{ "X-API-Key": key }`. */
  headers?: Record<string, string>
}

const MEMBERSHIPS = "https://www.bungie.net/Platform/User/GetMembershipsForCurrentUser/"

/**
 * A Bungie.net confidential OAuth client. Every Bungie API call needs the application's API key
 * besides the access token: give `apiKey` (or `headers: { "X-API-Key": key }`, as Auth.js's
 * documentation does), or list the factory itself (`providers: [Bungie]`) so that it is called
 * with `AUTH_BUNGIE_KEY`. The profile is the signed-in user's memberships
 * (`GetMembershipsForCurrentUser`), whose `Response.bungieNetUser` is the account. Bungie
 * wraps failures in an HTTP 200 answer; those fail the sign-in too.
 *
 * @example
 * ```ts
 * Bungie({ clientId: env.AUTH_BUNGIE_ID, clientSecret: env.AUTH_BUNGIE_SECRET, apiKey: env.AUTH_BUNGIE_KEY })
 * ```
 */
export function Bungie(options: BungieOptions = {}): OAuthConfig {
  const { apiKey, headers = {}, ...rest } = options
  const hasKeyHeader = Object.keys(headers).some((name) => name.toLowerCase() === "x-api-key")
  return oauthProvider<BungieProfile>(
    {
      id: "bungie",
      name: "Bungie",
      type: "oauth",
      authorization: "https://www.bungie.net/en/OAuth/Authorize?reauth=true",
      token: "https://www.bungie.net/platform/app/oauth/token/",
      userinfo: {
        url: MEMBERSHIPS,
        async request(context) {
          if (!apiKey && !hasKeyHeader) {
            throw new InvalidConfig(`Provider "${context.provider.id}" (Bungie) needs the application's API key: set \`apiKey\` or AUTH_BUNGIE_KEY`)
          }
          const body = (await fetchJson(context, endpointUrl(context.provider.userinfo, MEMBERSHIPS), {
            headers: { ...headers, ...(apiKey && { "x-api-key": apiKey }) },
          })) as Partial<BungieProfile>
          if (body.ErrorCode !== 1 || !body.Response?.bungieNetUser) {
            throw new Error(`bungie: the memberships call answered ${String(body.ErrorStatus ?? body.ErrorCode)}`)
          }
          return body
        },
      },
      profile: ({ Response: { bungieNetUser: user } }) => ({
        id: String(user.membershipId),
        name: user.displayName ?? null,
        email: null,
        image: user.profilePicturePath
          ? `https://www.bungie.net${user.profilePicturePath.startsWith("/") ? "" : "/"}${user.profilePicturePath}`
          : null,
      }),
      style: { bg: "#000", text: "#fff" },
    },
    rest,
  )
}

export default Bungie

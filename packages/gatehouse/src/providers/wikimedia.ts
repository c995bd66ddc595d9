/**
 * Sign-in with a Wikimedia account (Wikipedia and its sister projects).
 * @module gatehouse-auth/providers/wikimedia
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** A user group on Wikimedia wikis (`sysop`, `bot`, …); any other group name may appear too. */
export type WikimediaGroup =
  | "*"
  | "user"
  | "autoconfirmed"
  | "extendedconfirmed"
  | "bot"
  | "sysop"
  | "bureaucrat"
  | "steward"
  | "accountcreator"
  | "import"
  | "transwiki"
  | "ipblock-exempt"
  | "oversight"
  | "rollbacker"
  | "propertycreator"
  | "wikidata-staff"
  | "flood"
  | "translationadmin"
  | "confirmed"
  | "flow-bot"
  | "checkuser"
  | (string & {})

/** A grant an OAuth consumer can be given (`basic`, `editpage`, …). */
export type WikimediaGrant =
  | "basic"
  | "blockusers"
  | "checkuser"
  | "createaccount"
  | "delete"
  | "editinterface"
  | "editmycssjs"
  | "editmyoptions"
  | "editmywatchlist"
  | "editpage"
  | "editprotected"
  | "editsiteconfig"
  | "globalblock"
  | "highvolume"
  | "import"
  | "mergehistory"
  | "oath"
  | "oversight"
  | "patrol"
  | "privateinfo"
  | "protect"
  | "rollback"
  | "sendemail"
  | "shortenurls"
  | "uploadfile"
  | "viewdeleted"
  | "viewmywatchlist"
  | (string & {})

/** A user right on Wikimedia wikis (`edit`, `block`, …); any other right name may appear too. */
export type WikimediaRight = "read" | "edit" | "createpage" | "move" | "upload" | "delete" | "block" | "protect" | "rollback" | "patrol" | (string & {})

/** The user as the OAuth 2 `resource/profile` endpoint returns it. */
export interface WikimediaProfile {
  [field: string]: unknown
  /** The central (global) user id; the user's `id`. */
  sub: string
  /** The username; the user's `name`. */
  username: string
  /** How many edits the user made. */
  editcount: number
  /** Whether the user confirmed their email address with Wikimedia. */
  confirmed_email: boolean
  /** Whether the user is blocked. */
  blocked: boolean
  /** When the account was made (`YYYYMMDDhhmmss`). */
  registered: string
  /** The user's groups. */
  groups: WikimediaGroup[]
  /** The user's rights. */
  rights: WikimediaRight[]
  /** The grants the user gave this consumer. */
  grants: WikimediaGrant[]
  /** The real name, if the user gave one and the consumer may see it. */
  realname?: string
  /** The email address, when the consumer may see it (the "User identity verification" grant with email). */
  email?: string
}

/**
 * A Wikimedia OAuth 2 consumer, registered on Meta-Wiki. The grants are the consumer's, so the
 * authorization request sends an empty `scope`. The email address is only there for consumers
 * allowed to see it.
 *
 * @example
 * ```ts
 * Wikimedia({ clientId: env.AUTH_WIKIMEDIA_ID, clientSecret: env.AUTH_WIKIMEDIA_SECRET })
 * ```
 */
export function Wikimedia(options?: OAuthUserConfig<WikimediaProfile>): OAuthConfig {
  return oauthProvider<WikimediaProfile>(
    {
      id: "wikimedia",
      name: "Wikimedia",
      type: "oauth",
      authorization: { url: "https://meta.wikimedia.org/w/rest.php/oauth2/authorize", params: { scope: "" } },
      token: "https://meta.wikimedia.org/w/rest.php/oauth2/access_token",
      userinfo: "https://meta.wikimedia.org/w/rest.php/oauth2/resource/profile",
      profile: (profile) => ({
        id: String(profile.sub),
        name: profile.username ?? null,
        email: profile.email ?? null,
        image: null,
      }),
      style: { bg: "#000", text: "#fff" },
    },
    options,
  )
}

export default Wikimedia

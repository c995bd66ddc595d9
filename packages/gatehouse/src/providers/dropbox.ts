/**
 * Sign-in with Dropbox.
 * @module gatehouse-auth/providers/dropbox
 */
import type { OAuthConfig } from "./types.js"
import { endpointUrl, fetchJson, oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

const CURRENT_ACCOUNT = "https://api.dropboxapi.com/2/users/get_current_account"

/** The account as `POST /2/users/get_current_account` returns it. */
export interface DropboxProfile {
  [field: string]: unknown
  /** `dbid:…` */
  account_id: string
  /** The user's name, in the forms Dropbox shows it. */
  name: {
    /** Given name. */
    given_name: string
    /** Family name. */
    surname: string
    /** A locale-dependent familiar name, usually the given name. */
    familiar_name: string
    /** The full name, as displayed; the user's `name`. */
    display_name: string
    /** Initials. */
    abbreviated_name: string
  }
  /** The email address. */
  email: string
  /** Whether the user verified the address with Dropbox. */
  email_verified: boolean
  /** The photo's URL; the user's `image`. */
  profile_photo_url?: string
  /** Whether the account has been disabled. */
  disabled: boolean
}

/**
 * A Dropbox app with the `account_info.read` scope. Asks for offline access, so Dropbox returns a
 * refresh token (its access tokens are short-lived).
 *
 * @example
 * ```ts
 * Dropbox({ clientId: env.AUTH_DROPBOX_ID, clientSecret: env.AUTH_DROPBOX_SECRET })
 * ```
 */
export function Dropbox(options?: OAuthUserConfig<DropboxProfile>): OAuthConfig {
  return oauthProvider<DropboxProfile>(
    {
      id: "dropbox",
      name: "Dropbox",
      type: "oauth",
      authorization: {
        url: "https://www.dropbox.com/oauth2/authorize",
        params: { scope: "account_info.read", token_access_type: "offline" },
      },
      token: "https://api.dropboxapi.com/oauth2/token",
      userinfo: {
        url: CURRENT_ACCOUNT,
        // An RPC endpoint: POST, and no body at all (an empty JSON body is refused).
        request: (context) => fetchJson(context, endpointUrl(context.provider.userinfo, CURRENT_ACCOUNT), { method: "POST" }),
      },
      profile: (profile) => ({
        id: String(profile.account_id),
        name: profile.name?.display_name ?? null,
        email: profile.email ?? null,
        image: profile.profile_photo_url ?? null,
      }),
      style: { bg: "#0061FE", text: "#fff" },
    },
    options,
  )
}

export default Dropbox

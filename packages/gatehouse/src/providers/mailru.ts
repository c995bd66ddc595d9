/**
 * Sign-in with Mail.ru.
 * @module gatehouse-auth/providers/mailru
 */
import type { EndpointRequestContext, OAuthConfig } from "./types.js"
import { endpointUrl, fetchJson, oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The user as `GET https://oauth.mail.ru/userinfo` returns it. */
export interface MailruProfile {
  [field: string]: unknown
  /** The user's id; the user's `id`. */
  id: string
  /** The app's client id. */
  client_id?: string
  /** Full name; the user's `name`. */
  name?: string
  /** The nickname, used as the name when there is none. */
  nickname?: string
  /** Given name. */
  first_name?: string
  /** Family name. */
  last_name?: string
  /** The email address; the user's `email`. */
  email?: string
  /** The avatar's URL. */
  image?: string
  /** `m` or `f`. */
  gender?: string
  /** The birthday, `DD.MM.YYYY`. */
  birthday?: string
  /** The user's locale, e.g. `ru_RU`. */
  locale?: string
}

const USERINFO = "https://oauth.mail.ru/userinfo"

/**
 * A Mail.ru OAuth app with the `userinfo` scope. Mail.ru's userinfo endpoint takes the access
 * token as the `access_token` query parameter, not as a bearer header. The profile is mapped as
 * Auth.js's default mapping does: the id, the name (or nickname), the email.
 *
 * @example
 * ```ts
 * Mailru({ clientId: env.AUTH_MAILRU_ID, clientSecret: env.AUTH_MAILRU_SECRET })
 * ```
 */
export function Mailru(options?: OAuthUserConfig<MailruProfile>): OAuthConfig {
  return oauthProvider<MailruProfile>(
    {
      id: "mailru",
      name: "Mail.ru",
      type: "oauth",
      authorization: { url: "https://oauth.mail.ru/login", params: { scope: "userinfo" } },
      token: "https://oauth.mail.ru/token",
      userinfo: { url: USERINFO, request: userinfoWithTokenInQuery },
      profile: (profile) => ({
        id: String(profile.id),
        name: profile.name ?? profile.nickname ?? null,
        email: profile.email ?? null,
        image: null,
      }),
      style: { bg: "#005FF9", text: "#fff" },
    },
    options,
  )
}

/** `GET <userinfo URL>?access_token=…`; Mail.ru reports failures as an `error` in the body. */
async function userinfoWithTokenInQuery(context: EndpointRequestContext): Promise<unknown> {
  const url = endpointUrl(context.provider.userinfo, USERINFO)
  const body = await fetchJson(context, url, { tokenInQuery: "access_token" })
  if (body !== null && typeof body === "object" && "error" in body) {
    throw new Error(`${context.provider.id}: ${new URL(url).pathname} answered with error ${JSON.stringify((body as { error: unknown }).error)}`)
  }
  return body
}

export default Mailru

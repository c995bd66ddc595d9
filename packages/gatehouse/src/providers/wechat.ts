/**
 * Sign-in with WeChat (Weixin).
 * @module gatehouse-auth/providers/wechat
 */
import type { OAuthConfig } from "./types.js"
import { endpointUrl, fetchJson, oauthProvider, type OAuthUserConfig, withBearerTokenType } from "./oauth-user-config.js"

/** The user as `GET /sns/userinfo` returns it. */
export interface WeChatProfile {
  [field: string]: unknown
  /** The user's id for this app. */
  openid: string
  /** The nickname; the user's `name`. */
  nickname: string
  /** `1` male, `2` female, `0` unknown (WeChat no longer fills it in). */
  sex: number
  /** Province (no longer filled in). */
  province: string
  /** City (no longer filled in). */
  city: string
  /** Country (no longer filled in). */
  country: string
  /** The avatar's URL; the user's `image`. */
  headimgurl: string
  /** Privileges, e.g. WeChat Pay card holder. */
  privilege: string[]
  /**
   * The user's id across the apps of one WeChat Open Platform account, the user's `id`; only
   * there when the app is bound to one (else the user's `id` is `openid`).
   */
  unionid?: string
}

/** Options of {@link WeChat}. */
export type WeChatOptions = OAuthUserConfig<WeChatProfile> & {
  /**
   * `OfficialAccount` (default): an Official Account's web page, opened inside WeChat, asks the
   * user to agree (`snsapi_userinfo`). `WebsiteApp`: a website shows a QR code the user scans with
   * the WeChat app (`snsapi_login`, a Website App on the WeChat Open Platform).
   */
  platformType?: "OfficialAccount" | "WebsiteApp"
}

const USERINFO = "https://api.weixin.qq.com/sns/userinfo"

/**
 * WeChat's OAuth 2, which names things its own way: the client id is `appid` and the secret
 * `secret`, both sent as query parameters (give `clientId` and `clientSecret` to the factory, or
 * let them come from `AUTH_WECHAT_ID` and `AUTH_WECHAT_SECRET`); the token response names the
 * user (`openid`) and has no `token_type`; the profile is read with the token and `openid` in the
 * query; and errors come as `errcode` with HTTP 200. WeChat takes no PKCE and gives no email.
 *
 * @example
 * ```ts
 * WeChat({ clientId: env.AUTH_WECHAT_ID, clientSecret: env.AUTH_WECHAT_SECRET, platformType: "WebsiteApp" })
 * ```
 */
export function WeChat(options: WeChatOptions = {}): OAuthConfig {
  const { platformType = "OfficialAccount", ...rest } = options
  const officialAccount = platformType === "OfficialAccount"
  return oauthProvider<WeChatProfile>(
    {
      id: "wechat",
      name: "WeChat",
      type: "oauth",
      checks: ["state"],
      authorization: {
        // WeChat's documentation asks for the #wechat_redirect fragment on these pages.
        url: officialAccount
          ? "https://open.weixin.qq.com/connect/oauth2/authorize#wechat_redirect"
          : "https://open.weixin.qq.com/connect/qrconnect#wechat_redirect",
        params: { ...defined({ appid: rest.clientId }), scope: officialAccount ? "snsapi_userinfo" : "snsapi_login" },
      },
      token: {
        url: "https://api.weixin.qq.com/sns/oauth2/access_token",
        params: defined({ appid: rest.clientId, secret: rest.clientSecret }),
        conform: conformTokenResponse,
      },
      userinfo: {
        url: USERINFO,
        async request(context) {
          const { openid } = context.tokens
          if (typeof openid !== "string" || openid === "") throw new Error("wechat: the token response names no openid")
          const url = new URL(endpointUrl(context.provider.userinfo, USERINFO))
          url.searchParams.set("openid", openid)
          url.searchParams.set("lang", "zh_CN")
          // WeChat takes the token as the access_token parameter, not as a bearer token.
          const profile = (await fetchJson(context, url.href, { tokenInQuery: "access_token" })) as { errcode?: unknown }
          // Errors come with HTTP 200; the message names the path only, as the URL holds the token.
          if (typeof profile.errcode === "number" && profile.errcode !== 0) throw new Error(`wechat: ${url.pathname} answered errcode ${profile.errcode}`)
          return profile
        },
      },
      // Auth.js takes the unionid alone, which a user of an app bound to no Open Platform account lacks.
      profile: (profile) => ({
        id: profile.unionid || profile.openid,
        name: profile.nickname || null,
        email: null,
        image: profile.headimgurl || null,
      }),
      style: { bg: "#fff", text: "#000" },
    },
    rest,
  )
}

/** WeChat's codes for a code that is wrong, used or expired: the browser's doing, like `invalid_grant`. */
const REFUSED_CODE = new Set([40029, 40163, 42003])

/**
 * WeChat answers errors with HTTP 200 and `errcode`: made an OAuth error response (HTTP 400) here,
 * so a refused code reads as `invalid_grant`. Good answers get the `token_type` they lack.
 */
async function conformTokenResponse(response: Response): Promise<Response | undefined> {
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined)
  if (typeof body === "object" && body !== null && "errcode" in body && typeof body.errcode === "number" && body.errcode !== 0) {
    const errmsg = "errmsg" in body && typeof body.errmsg === "string" ? body.errmsg : ""
    return Response.json(
      { error: REFUSED_CODE.has(body.errcode) ? "invalid_grant" : `wechat_${body.errcode}`, error_description: `${body.errcode} ${errmsg}`.trim() },
      { status: 400 },
    )
  }
  return withBearerTokenType(response)
}

/** `values` without its undefined entries, so a client id not given yet sends no empty parameter. */
function defined(values: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== undefined))
}

export default WeChat

/**
 * Sign-in with NetSuite (OAuth 2.0 for an integration record).
 * @module gatehouse-auth/providers/netsuite
 */
import { InvalidConfig } from "../errors.js"
import type { EndpointConfig, EndpointRequestContext, OAuthConfig } from "./types.js"
import { endpointUrl, oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** NetSuite's own options, besides those of every OAuth provider. */
export interface OAuthNetSuiteOptions {
  /**
   * The account id, e.g. `1234567`, `TSTDRV1234567`, or `1234567_SB1` for a sandbox. Written as
   * NetSuite's account-specific domains write it (lower case, `_` as `-`); a value that is not
   * an account id is refused with `InvalidConfig`.
   */
  accountID?: string
  /** The `prompt` parameter: `none`, `login`, `consent`, or `login consent`. */
  prompt?: string
  /** The scopes. Default `restlets rest_webservices`. */
  scope?: string
  /** The external URL of the RESTlet (or Suitelet) that returns the signed-in user. Required. */
  userinfo?: EndpointConfig
}

/** Options of {@link NetSuite}: those of every OAuth provider, and NetSuite's own. */
export type NetSuiteOptions = OAuthUserConfig<NetSuiteProfile> & OAuthNetSuiteOptions

/** What a RESTlet returning `runtime.getCurrentUser()`'s basics gives (the shape this provider maps). */
export interface NetSuiteProfile {
  [field: string]: unknown
  /** The employee's internal id; the user's `id` (as a string). */
  id: number
  /** The user's name; the user's `name`. */
  name: string
  /** The email address; the user's `email`. */
  email: string
  /** The location's internal id. */
  location: number
  /** The role's internal id. */
  role: number
  /** The role's script id. */
  roleId?: string
  /** The role's center type. */
  roleCenter?: string
  /** The contact's internal id. */
  contact?: number
  /** The subsidiary's internal id. */
  subsidiary?: number
  /** The department's internal id. */
  department?: number
}

/**
 * A NetSuite integration record with OAuth 2.0 (authorization code grant). Its endpoints are on
 * the account's own domains (`<account>.app.netsuite.com`, `<account>.suitetalk.api.netsuite.com`),
 * so `accountID` is required. NetSuite has no userinfo endpoint: `userinfo` must be the external
 * URL of a RESTlet (or Suitelet) that returns the current user as JSON, which is called with the
 * `Content-Type: application/json` NetSuite needs to answer in JSON. As in Auth.js, the flow is
 * checked with state alone (no PKCE).
 *
 * @example
 * ```ts
 * NetSuite({
 *   clientId: env.AUTH_NETSUITE_ID,
 *   clientSecret: env.AUTH_NETSUITE_SECRET,
 *   accountID: "1234567",
 *   userinfo: "https://1234567.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=123&deploy=1",
 * })
 * ```
 */
export function NetSuite(options: NetSuiteOptions = {}): OAuthConfig {
  const { accountID, prompt, scope, userinfo, ...rest } = options
  const account = accountID === undefined ? undefined : accountDomainLabel(accountID)
  return oauthProvider<NetSuiteProfile>(
    {
      id: "netsuite",
      name: "NetSuite",
      type: "oauth",
      checks: ["state"],
      authorization: {
        ...(account ? { url: `https://${account}.app.netsuite.com/app/login/oauth2/authorize.nl` } : {}),
        params: { scope: scope ?? "restlets rest_webservices", ...(prompt ? { prompt } : {}) },
      },
      ...(account ? { token: `https://${account}.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token` } : {}),
      userinfo: { request: restletUser, ...userinfoObject(userinfo) },
      profile: (profile) => ({
        id: String(profile.id),
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: null,
      }),
      style: { bg: "#181A1B", text: "#FBFBFB" },
    },
    rest,
  )
}

/** `1234567_SB1` as its domains spell it, `1234567-sb1`; anything else but letters, digits and `-`/`_` is refused. */
function accountDomainLabel(accountID: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(accountID)) {
    throw new InvalidConfig(`NetSuite: accountID ${JSON.stringify(accountID)} is not a NetSuite account id (letters, digits, "_" or "-")`)
  }
  return accountID.toLowerCase().replace(/_/g, "-")
}

/** The user's `userinfo` (Auth.js takes the RESTlet's URL as a string) as an endpoint object, so the hook stays. */
function userinfoObject(userinfo: EndpointConfig | undefined): Exclude<EndpointConfig, string> {
  if (typeof userinfo === "string") return { url: userinfo }
  return userinfo ?? {}
}

/** `GET` the RESTlet with the access token, asking for JSON. */
async function restletUser(context: EndpointRequestContext): Promise<unknown> {
  const url = endpointUrl(context.provider.userinfo, "")
  if (url === "") throw new Error(`${context.provider.id}: set userinfo to the URL of a RESTlet that returns the current user`)
  const response = await context.fetch(url, {
    headers: { authorization: `Bearer ${context.tokens.access_token ?? ""}`, accept: "application/json", "content-type": "application/json" },
  })
  // NetSuite answers 206 when a RESTlet call lacks the content type; that is no profile either.
  if (response.status !== 200) throw new Error(`${context.provider.id}: the userinfo RESTlet answered HTTP ${response.status}`)
  let body: unknown = await response.json()
  // A RESTlet that returns JSON.stringify(user), as NetSuite's examples do, can arrive as a JSON string.
  if (typeof body === "string") body = JSON.parse(body) as unknown
  return body
}

export default NetSuite

/**
 * `POST {basePath}/signin/<oauth provider>`: the redirect to the provider's authorization
 * endpoint, with the checks' cookies.
 * @module
 */
import * as o from "oauth4webapi"
import type { AdapterUser } from "../../adapters/index.js"
import type { Cookie } from "../../cookies/defaults.js"
import type { OAuthConfig } from "../../providers/types.js"
import type { ResponseInternal } from "../internal-response.js"
import type { RequestContext } from "../request-context.js"
import { currentUser } from "../sessions/index.js"
import { authorizationServer, endpointUrl, usesFormPost } from "./authorization-server.js"
import { checkCookie, checksOf, encodeState } from "./checks.js"
import { ownCallbackUrl, proxyCallbackUrl, redirectUri } from "./redirect-proxy.js"

const DEFAULT_SCOPE = "openid profile email"
// Parameters of the sign-in request that are Gatehouse's own, not the provider's.
const OWN_PARAMS = new Set(["callbackUrl", "csrfToken"])

/**
 * Redirects to the provider, carrying `response_type`, client, redirect URI, scope and checks.
 *
 * @param signedIn - The signed-in user when the caller has read it already (a link); read here
 *   otherwise. The state names them, so that only they can finish the flow.
 */
export async function authorizationRedirect(ctx: RequestContext, provider: OAuthConfig, signedIn?: AdapterUser | null): Promise<ResponseInternal> {
  const as = await authorizationServer(provider)
  const url = endpointUrl(provider.authorization, as.authorization_endpoint)
  if (!url) throw new TypeError(`Provider ${JSON.stringify(provider.id)} has no authorization endpoint`)

  const params = new URLSearchParams({
    response_type: "code",
    client_id: provider.clientId ?? "",
    redirect_uri: redirectUri(ctx, provider),
  })
  // The endpoint's own parameters, then whatever the sign-in request asked for (prompt, login_hint…).
  for (const [key, value] of url.searchParams) params.set(key, value)
  for (const [key, value] of Object.entries(ctx.request.query)) if (!OWN_PARAMS.has(key)) params.set(key, value)
  if (!params.has("scope")) params.set("scope", DEFAULT_SCOPE)

  const cookies: Cookie[] = []
  const proxy = proxyCallbackUrl(ctx, provider)
  const checks = checksOf(provider, proxy)
  if (checks.has("state")) {
    // Without an adapter nobody is ever linked to, so there is no user to bind the flow to.
    const user = ctx.config.adapter ? (signedIn !== undefined ? signedIn : await currentUser(ctx)) : null
    const state = await encodeState(ctx, o.generateRandomState(), {
      ...(proxy && { origin: ownCallbackUrl(ctx, provider) }),
      ...(user && { startedBy: String(user.id) }),
    })
    params.set("state", state)
    cookies.push(await checkCookie(ctx, provider, "state", state))
  }
  if (checks.has("pkce")) {
    const verifier = o.generateRandomCodeVerifier()
    params.set("code_challenge", await o.calculatePKCECodeChallenge(verifier))
    params.set("code_challenge_method", "S256")
    cookies.push(await checkCookie(ctx, provider, "pkceCodeVerifier", verifier))
  }
  if (checks.has("nonce")) {
    const nonce = o.generateRandomNonce()
    params.set("nonce", nonce)
    cookies.push(await checkCookie(ctx, provider, "nonce", nonce))
  }

  if (usesFormPost(provider) && ctx.cookies.callbackUrl.options.secure) {
    // The cross-site POST back carries no SameSite=Lax cookie; without this one the user would
    // land on the origin instead of where they were going.
    const { callbackUrl } = ctx.cookies
    cookies.push({ name: callbackUrl.name, value: ctx.callbackUrl, options: { ...callbackUrl.options, sameSite: "none" } })
  }

  url.search = params.toString()
  return { redirect: url.href, cookies }
}

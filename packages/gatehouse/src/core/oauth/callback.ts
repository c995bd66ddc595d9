/**
 * `GET|POST {basePath}/callback/<oauth provider>`: the provider sends the user back with a code;
 * the checks are verified, the code exchanged for tokens, the profile read, and the person
 * signed in. Every protocol step is oauth4webapi's.
 * @module
 */
import * as o from "oauth4webapi"
import { AuthError, CallbackRouteError, InvalidCheck, OAuthCallbackError, OAuthProfileParseError } from "../../errors.js"
import type { OAuthConfig } from "../../providers/types.js"
import type { Account, Profile, TokenSet, User } from "../../types.js"
import { completeSignIn } from "../complete-sign-in.js"
import type { ResponseInternal } from "../internal-response.js"
import type { RequestContext } from "../request-context.js"
import { currentUser } from "../sessions/index.js"
import { authorizationServer, conformed, endpointUrl, idTokenIssuer, providerFetch, requestOptions } from "./authorization-server.js"
import { assertSameFlowUser, checksOf, decodeState, pendingChecks } from "./checks.js"
import { clientAuthentication, clientOf } from "./client-auth.js"
import { loggableError } from "./protocol-error.js"
import { proxyCallbackUrl, redirectUri } from "./redirect-proxy.js"
import { errorWithSuccessStatus } from "./token-error.js"
import { withoutUndefined } from "../defined-fields.js"
import { accountFields, tokenSetOf } from "./token-set.js"
import type { IdpSession } from "../sessions/idp-session.js"

/** Completes an OAuth or OIDC sign-in; anything unexpected becomes a {@link CallbackRouteError}. */
export async function oauthCallback(ctx: RequestContext, provider: OAuthConfig): Promise<ResponseInternal> {
  try {
    return await handleCallback(ctx, provider)
  } catch (error) {
    if (error instanceof AuthError) throw error
    throw new CallbackRouteError(loggableError(error), { cause: { provider: provider.id } })
  }
}

async function handleCallback(ctx: RequestContext, provider: OAuthConfig): Promise<ResponseInternal> {
  const params = callbackParams(ctx)

  const proxy = proxyCallbackUrl(ctx, provider)
  if (proxy && new URL(proxy).origin === ctx.origin) {
    const forward = await forwardedCallback(ctx, params)
    if (forward) return { redirect: forward }
  }

  // This callback ends the flow, however it ends: a failure must not leave the checks for another try.
  const pending = await pendingChecks(ctx, provider)
  ctx.cookiesAlways.push(...pending.deletions)

  const as = await authorizationServer(provider)
  const client = clientOf(provider)
  const checks = checksOf(provider, proxy)

  let expectedState: string | typeof o.skipStateCheck = o.skipStateCheck
  if (checks.has("state")) expectedState = pending.use("state")
  let validated: URLSearchParams
  try {
    validated = o.validateAuthResponse(as, client, params, expectedState)
  } catch (error) {
    if (error instanceof o.AuthorizationResponseError) {
      // The provider said no (the user cancelled, the app is not allowed): a sign-in page matter.
      // Its code goes into the message, the one part of a client-caused failure that is logged.
      throw new OAuthCallbackError(`OAuth Provider returned an error: ${error.error}`, { cause: { provider: provider.id, error: error.error } })
    }
    const message = `The authorization response failed validation: ${(error as Error).message}`
    // A wrong or missing `iss` is the provider's answer not matching its configuration (or a
    // mix-up), not a browser that lost its cookies: that stays a server-side error.
    if (/"iss"/.test((error as Error).message)) throw new CallbackRouteError(message, { cause: { provider: provider.id } })
    throw new InvalidCheck(message, { cause: loggableError(error) })
  }

  // Who is signed in now, read once: the flow must have been started by them (or, signed out, by
  // nobody), and a new account is linked to them. Without an adapter nobody is ever linked to.
  const signedInUser = ctx.config.adapter ? await currentUser(ctx) : null
  if (typeof expectedState === "string") await assertSameFlowUser(ctx, expectedState, signedInUser)

  let codeVerifier: string | typeof o.nopkce = o.nopkce
  if (checks.has("pkce")) codeVerifier = pending.use("pkceCodeVerifier")
  let expectedNonce: string | typeof o.expectNoNonce = o.expectNoNonce
  if (checks.has("nonce")) expectedNonce = pending.use("nonce")

  let response = await o.authorizationCodeGrantRequest(
    as,
    client,
    await clientAuthentication(provider),
    validated,
    redirectUri(ctx, provider),
    codeVerifier,
    requestOptions(provider),
  )
  response = await conformed(provider, response)
  const errorWith200 = await errorWithSuccessStatus(response)
  if (errorWith200 !== undefined) throw codeRefusal(provider, errorWith200, new TypeError(`The token endpoint answered 200 with error ${JSON.stringify(errorWith200)}`))

  const issuer = await idTokenIssuer(provider, response, as.issuer)
  let tokens: o.TokenEndpointResponse
  try {
    tokens = await o.processAuthorizationCodeResponse({ ...as, issuer }, client, response, {
      expectedNonce,
      requireIdToken: provider.type === "oidc",
    })
  } catch (error) {
    if (error instanceof o.ResponseBodyError) throw codeRefusal(provider, error.error, error)
    // A nonce that does not match is a failed check, like a bad state.
    if (error instanceof o.OperationProcessingError && /nonce/i.test(error.message)) {
      throw new InvalidCheck("The ID token's nonce does not match", { cause: loggableError(error) })
    }
    throw error
  }

  const tokenSet = tokenSetOf(tokens)
  let profile = await readProfile(provider, as, client, tokens, tokenSet)
  if (provider.profileFromCallback) profile = await provider.profileFromCallback(profile, params)

  let user: User
  try {
    user = await (provider.profile ?? defaultProfile)(profile, tokenSet)
  } catch (error) {
    throw new OAuthProfileParseError(error instanceof Error ? error : new Error(String(error)), { cause: { provider: provider.id } })
  }
  if (user === null || typeof user !== "object") {
    throw new OAuthProfileParseError(`profile() of provider ${JSON.stringify(provider.id)} must return a user object`)
  }
  const keys = {
    provider: provider.id,
    type: provider.type,
    providerAccountId: user.id != null && user.id !== "" ? String(user.id) : crypto.randomUUID(),
  }
  return completeSignIn(ctx, {
    // The provider's id for the person is the account's; the user gets their own.
    user: { ...user, id: crypto.randomUUID(), email: typeof user.email === "string" ? user.email.toLowerCase() : user.email },
    // Callbacks and events see the whole token response; the row keeps what `account()` picks.
    account: { ...tokenSet, ...keys } as Account,
    storedAccount: { ...accountFields(provider, tokenSet), ...keys },
    profile,
    ...(provider.allowDangerousEmailAccountLinking && { allowDangerousEmailAccountLinking: true }),
    ...(vouchesFor(profile, user.email) && { emailProven: true }),
    ...idpSessionOf(provider, tokens),
    ...(offersProviderLogout(provider, as) && { logoutProvider: provider.id }),
    ...amrOf(provider, tokens),
    signedInUser,
  })
}

/**
 * The ID token's `amr` (RFC 8176), as far as it is a short list of single tokens: what a session
 * records of how the provider authenticated the person. Anything else reads as `fed` (the default).
 * Its `mfa` is left out: whether two factors were counted is Gatehouse's verdict (aal), and `mfa`
 * appears in a session's amr only where Gatehouse itself counted two (aal 2).
 */
function amrOf(provider: OAuthConfig, tokens: o.TokenEndpointResponse): { amr?: string[] } {
  const amr = provider.type === "oidc" ? o.getValidatedIdTokenClaims(tokens)?.amr : undefined
  if (!Array.isArray(amr)) return {}
  const values = amr.filter((value): value is string => typeof value === "string" && value !== "mfa" && /^[\w.-]{1,32}$/.test(value)).slice(0, 10)
  return values.length > 0 ? { amr: values } : {}
}

/**
 * The token endpoint's errors that refuse this code (used or expired, or the PKCE verifier not
 * matching): a stale or replayed callback, the browser's doing. GitHub says
 * `bad_verification_code`. Any other (`invalid_client`, `unauthorized_client`, a redirect URI
 * mismatch) is the server's configuration.
 */
const REFUSED_CODE_ERRORS: ReadonlySet<string> = new Set(["invalid_grant", "bad_verification_code"])

/** The error for a token endpoint's OAuth error `oauthError`; `error` is what is logged. */
function codeRefusal(provider: OAuthConfig, oauthError: string, error: unknown): Error {
  if (!REFUSED_CODE_ERRORS.has(oauthError)) return error instanceof Error ? error : new Error(String(error))
  return new OAuthCallbackError(`The provider refused the code: ${oauthError}`, { cause: { provider: provider.id, err: loggableError(error) } })
}

/**
 * Whether the provider vouched that the person owns `email`: OIDC's `email_verified: true`, for
 * that very address (a `profile()` mapping may pick another one).
 */
function vouchesFor(profile: Profile, email: unknown): boolean {
  return (
    profile.email_verified === true &&
    typeof email === "string" &&
    typeof profile.email === "string" &&
    profile.email.toLowerCase() === email.toLowerCase()
  )
}

/**
 * The identity provider session the ID token names (`sid`, OIDC Front/Back-Channel Logout), kept
 * with the new session so that a logout token naming it ends it.
 */
function idpSessionOf(provider: OAuthConfig, tokens: o.TokenEndpointResponse): { idpSession?: IdpSession } {
  const sid = provider.type === "oidc" ? o.getValidatedIdTokenClaims(tokens)?.sid : undefined
  return typeof sid === "string" && sid !== "" && sid.length <= 255 ? { idpSession: { provider: provider.id, sid } } : {}
}

/**
 * Whether the session can later be ended at the provider too (RP-initiated logout): an OIDC
 * provider whose metadata names an `end_session_endpoint`. Only then does the session remember
 * which provider it came from.
 */
function offersProviderLogout(provider: OAuthConfig, as: o.AuthorizationServer): boolean {
  return provider.type === "oidc" && typeof as.end_session_endpoint === "string" && as.end_session_endpoint !== ""
}

/** The authorization response: the query, or the form body of a `form_post` response. */
function callbackParams(ctx: RequestContext): URLSearchParams {
  const params = new URLSearchParams()
  const source = ctx.request.method === "POST" ? (ctx.request.body ?? {}) : ctx.request.query
  for (const [key, value] of Object.entries(source)) if (typeof value === "string") params.set(key, value)
  return params
}

/**
 * On the proxy: where to forward a callback that belongs to another deployment (the origin the
 * state names), or `undefined` to handle it here.
 */
async function forwardedCallback(ctx: RequestContext, params: URLSearchParams): Promise<string | undefined> {
  const state = params.get("state")
  if (!state) return undefined
  const decoded = await decodeState(ctx, state)
  if (!decoded) throw new InvalidCheck("State could not be decoded")
  if (typeof decoded.origin !== "string") return undefined
  const target = new URL(decoded.origin)
  if (target.origin === ctx.origin) return undefined
  target.search = params.toString()
  return target.href
}

/** The profile: the ID token's claims for OIDC, else the userinfo endpoint's answer. */
async function readProfile(
  provider: OAuthConfig,
  as: o.AuthorizationServer,
  client: o.Client,
  tokens: o.TokenEndpointResponse,
  tokenSet: TokenSet,
): Promise<Profile> {
  const { userinfo } = provider
  if (typeof userinfo === "object" && userinfo.request) {
    return asProfile(await userinfo.request({ tokens: tokenSet, provider, fetch: providerFetch(provider) }))
  }
  const claims = provider.type === "oidc" ? o.getValidatedIdTokenClaims(tokens) : undefined
  if (claims && provider.idToken !== false) return claims as Profile
  const url = endpointUrl(userinfo)?.href ?? as.userinfo_endpoint
  if (!url) throw new TypeError(`Provider ${JSON.stringify(provider.id)} has no userinfo endpoint`)
  if (provider.type === "oidc") {
    const response = await o.userInfoRequest({ ...as, userinfo_endpoint: url }, client, tokens.access_token, requestOptions(provider))
    return (await o.processUserInfoResponse(as, client, claims?.sub ?? o.skipSubjectCheck, response)) as Profile
  }
  const response = await providerFetch(provider)(url, {
    headers: { authorization: `Bearer ${tokens.access_token}`, accept: "application/json", "user-agent": "gatehouse" },
  })
  if (!response.ok) throw new TypeError(`The userinfo endpoint of ${JSON.stringify(provider.id)} answered ${response.status}`)
  return asProfile(await response.json())
}

function asProfile(value: unknown): Profile {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new OAuthProfileParseError("The provider's profile is not an object")
  }
  return value as Profile
}

/** Auth.js's default mapping: `sub` or `id`, a name from the usual claims, email and picture. */
function defaultProfile(profile: Profile): User {
  return withoutUndefined({
    id: String(profile.sub ?? profile.id ?? crypto.randomUUID()),
    name: profile.name ?? profile.nickname ?? profile.preferred_username,
    email: profile.email,
    image: typeof profile.picture === "string" ? profile.picture : undefined,
  }) as User
}

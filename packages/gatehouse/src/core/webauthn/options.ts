/**
 * `GET {basePath}/webauthn-options/<provider>?action=&email=`: what the browser needs for a
 * passkey ceremony, `{ action, options }`, with the challenge kept in a cookie.
 * @module
 */
import { AuthError, InvalidProvider } from "../../errors.js"
import type { WebAuthnConfig, WebAuthnCredentialDescriptor, WebAuthnUserInfo } from "../../providers/types.js"
import { callAdapter } from "../adapter-call.js"
import { withoutUndefined } from "../defined-fields.js"
import { plainEmailAddress } from "../email/identifier.js"
import { jsonResponse, type ResponseInternal } from "../internal-response.js"
import type { RequestContext } from "../request-context.js"
import { currentUser } from "../sessions/index.js"
import { requireProvider } from "../actions/signin.js"
import { challengeCookie, type RegisterData } from "./challenge.js"
import { ceremonyFor } from "./ceremony-choice.js"
import { credentialIdForBrowser, transportsOf } from "./credential-encoding.js"
import { relyingPartyOf } from "./relying-party.js"
import { simpleWebAuthnOf } from "./simple-webauthn.js"

/** Bytes of the random user handle a new passkey gets (the browser's `user.id`). */
const USER_HANDLE_BYTES = 32

/**
 * The options of the ceremony the request calls for (see {@link ceremonyFor}). A signed-in user
 * counts as an existing user, so they can add a passkey to their account.
 *
 * Answers 400 `{"error":"Invalid action"}` for an `action` other than `register` or
 * `authenticate`, and 400 `{"error":"Invalid request"}` when the ceremony asked for does not fit
 * (registering an address that has an account while signed out, anything without `action` while
 * signed in).
 */
export async function webAuthnOptions(ctx: RequestContext): Promise<ResponseInternal> {
  const provider = requireProvider(ctx)
  if (provider.type !== "webauthn") throw new InvalidProvider(`Provider ${JSON.stringify(provider.id)} is not a WebAuthn provider`)
  const requested = ctx.request.query.action
  if (requested !== undefined && requested !== "register" && requested !== "authenticate") {
    return jsonResponse({ error: "Invalid action" }, { status: 400 })
  }

  const signedIn = await currentUser(ctx)
  const info: WebAuthnUserInfo | null = signedIn ? { user: signedIn, exists: true } : await userInfoOf(ctx, provider)
  const ceremony = ceremonyFor(requested, signedIn !== null, info)
  if (ceremony === undefined) return jsonResponse({ error: "Invalid request" }, { status: 400 })

  const rp = relyingPartyOf(provider, ctx.request.url)
  const webauthn = simpleWebAuthnOf(provider)
  const existing = info?.exists ? await descriptorsOf(ctx, info.user.id) : undefined

  if (ceremony === "authenticate") {
    const options = await webauthn.generateAuthenticationOptions({
      ...provider.authenticationOptions,
      rpID: rp.id,
      ...(existing && { allowCredentials: existing }),
    })
    const cookie = await challengeCookie(ctx, provider, { challenge: options.challenge })
    return jsonResponse({ action: ceremony, options }, { noCache: true, cookies: [cookie] })
  }

  // `ceremonyFor` chooses registration only with someone to register.
  const { user, exists } = info as WebAuthnUserInfo
  const userName = user.email || user.name || (exists ? user.id : undefined)
  if (!userName) return jsonResponse({ error: "Invalid request" }, { status: 400 })
  const options = await webauthn.generateRegistrationOptions({
    ...provider.registrationOptions,
    rpName: rp.name,
    rpID: rp.id,
    userName,
    userDisplayName: user.name || userName,
    userID: crypto.getRandomValues(new Uint8Array(USER_HANDLE_BYTES)),
    excludeCredentials: existing ?? [],
  })
  const registerData: RegisterData = exists ? { id: user.id } : withoutUndefined({ email: user.email, name: user.name })
  const cookie = await challengeCookie(ctx, provider, { challenge: options.challenge, registerData })
  return jsonResponse({ action: ceremony, options }, { noCache: true, cookies: [cookie] })
}

/** Who the request names: the provider's `getUserInfo`, else the user with the `email` in the query. */
async function userInfoOf(ctx: RequestContext, provider: WebAuthnConfig): Promise<WebAuthnUserInfo | null> {
  const { adapter } = ctx.config
  if (provider.getUserInfo) {
    const info: unknown = await provider.getUserInfo(new Request(ctx.request.url, { headers: ctx.request.headers }), adapter!)
    return checkedUserInfo(provider, info)
  }
  const email = ctx.request.query.email
  if (!email) return null
  const address = plainEmailAddress(email)
  // Users stored by OAuth (or by Auth.js) keep the address as the provider spelled it.
  const user =
    (await callAdapter(adapter, "getUserByEmail", address)) ??
    (email.trim() !== address ? await callAdapter(adapter, "getUserByEmail", email.trim()) : null)
  return user ? { user, exists: true } : { user: { email: address }, exists: false }
}

/** `info` when it has the shape `getUserInfo` promises. @throws {AuthError} otherwise. */
function checkedUserInfo(provider: WebAuthnConfig, info: unknown): WebAuthnUserInfo | null {
  if (info === null || info === undefined) return null
  const { user, exists } = info as { user?: { id?: unknown }; exists?: unknown }
  const valid =
    typeof user === "object" && user !== null && (exists === false || (exists === true && typeof user.id === "string" && user.id !== ""))
  if (!valid) {
    throw new AuthError(`getUserInfo of provider ${JSON.stringify(provider.id)} must return null or { user, exists } (an existing user with its id)`)
  }
  return info as WebAuthnUserInfo
}

/** The user's passkeys, as options list them (to sign in with one, or not to create a second on one authenticator). */
async function descriptorsOf(ctx: RequestContext, userId: string): Promise<WebAuthnCredentialDescriptor[]> {
  const authenticators = await callAdapter(ctx.config.adapter, "listAuthenticatorsByUserId", userId)
  return authenticators.map((authenticator) => {
    const transports = transportsOf(authenticator.transports)
    return { id: credentialIdForBrowser(authenticator.credentialID), ...(transports && { transports }) }
  })
}

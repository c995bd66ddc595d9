/**
 * `GET {basePath}/webauthn-options/<provider>?action=&email=`: what the browser needs for a
 * passkey ceremony, `{ action, options }`, with the challenge kept in a cookie.
 * @module
 */
import { InvalidProvider } from "../../errors.js"
import type { WebAuthnCredentialDescriptor } from "../../providers/types.js"
import { callAdapter } from "../adapter-call.js"
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
 * The options of the ceremony the request calls for (see {@link ceremonyFor}).
 *
 * Signed out, nothing about who the request names reaches the answer: a sign-in lists no
 * credentials (the browser offers the passkeys it holds for this site), and a registration is for
 * a new user whatever the address; nobody is looked up before the passkey exists. So the answer
 * has the same shape for every address, and never carries anyone's credential ids. Signed in, the
 * user's own passkeys are listed (to sign in with, or not to create twice on one authenticator).
 *
 * Answers 400 `{"error":"Invalid action"}` for an `action` other than `register` or
 * `authenticate`, and 400 `{"error":"Invalid request"}` for a request without `action` while
 * signed in, or a registration with nothing to label the passkey with.
 */
export async function webAuthnOptions(ctx: RequestContext): Promise<ResponseInternal> {
  const provider = requireProvider(ctx)
  if (provider.type !== "webauthn") throw new InvalidProvider(`Provider ${JSON.stringify(provider.id)} is not a WebAuthn provider`)
  const requested = ctx.request.query.action
  if (requested !== undefined && requested !== "register" && requested !== "authenticate") {
    return jsonResponse({ error: "Invalid action" }, { status: 400 })
  }

  const signedIn = await currentUser(ctx)
  const ceremony = ceremonyFor(requested, signedIn !== null)
  if (ceremony === undefined) return jsonResponse({ error: "Invalid request" }, { status: 400 })

  const rp = relyingPartyOf(provider, ctx.request.url)
  const webauthn = simpleWebAuthnOf(provider)
  const existing = signedIn ? await descriptorsOf(ctx, signedIn.id) : undefined

  if (ceremony === "authenticate") {
    const options = await webauthn.generateAuthenticationOptions({
      ...provider.authenticationOptions,
      rpID: rp.id,
      ...(existing && { allowCredentials: existing }),
    })
    const cookie = await challengeCookie(ctx, provider, { challenge: options.challenge })
    return jsonResponse({ action: ceremony, options }, { noCache: true, cookies: [cookie] })
  }

  // A passkey added while signed in is a new way into the account: a recent second factor first.
  if (signedIn && ctx.config.twoFactor) await (await import("../account/recent-second-factor.js")).assertRecentForAccountChange(ctx, signedIn.id)
  const newUser = signedIn ? null : newUserOf(ctx)
  const user = signedIn ?? newUser
  const userName = user?.email || user?.name || signedIn?.id
  if (!user || !userName) return jsonResponse({ error: "Invalid request" }, { status: 400 })
  const options = await webauthn.generateRegistrationOptions({
    ...provider.registrationOptions,
    rpName: rp.name,
    rpID: rp.id,
    userName,
    userDisplayName: user.name || userName,
    userID: crypto.getRandomValues(new Uint8Array(USER_HANDLE_BYTES)),
    excludeCredentials: existing ?? [],
  })
  // A new user gets the typed address, unproven, and the name only when one was typed (as in
  // Auth.js); whether the address is free is asked only once the passkey exists (./callback.ts).
  const registerData: RegisterData = signedIn ? { id: signedIn.id } : newUser!
  const cookie = await challengeCookie(ctx, provider, { challenge: options.challenge, registerData })
  return jsonResponse({ action: ceremony, options }, { noCache: true, cookies: [cookie] })
}

/**
 * What labels a new user's passkey: the `email` the form sent, else its `name` or `username`.
 * Nothing is looked up, not even through the provider's `getUserInfo` (which Auth.js asks who has
 * the address): a stored name coming back would tell anyone who has an account.
 */
function newUserOf(ctx: RequestContext): { email?: string; name?: string } | null {
  const { email, name, username } = ctx.request.query
  const label = (name ?? username)?.replace(/[\p{Cc}\p{Cf}]/gu, "").trim().slice(0, 64)
  if (email) return { email: plainEmailAddress(email), ...(label && { name: label }) }
  return label ? { name: label } : null
}

/** The user's passkeys, as options list them (to sign in with one, or not to create a second on one authenticator). */
async function descriptorsOf(ctx: RequestContext, userId: string): Promise<WebAuthnCredentialDescriptor[]> {
  const authenticators = await callAdapter(ctx.config.adapter, "listAuthenticatorsByUserId", userId)
  return authenticators.map((authenticator) => {
    const transports = transportsOf(authenticator.transports)
    return { id: credentialIdForBrowser(authenticator.credentialID), ...(transports && { transports }) }
  })
}

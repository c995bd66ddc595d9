/**
 * `POST {basePath}/callback/<provider>` for passkeys: the browser's answer to a ceremony
 * (`action` and `data`, the credential as JSON), verified against the challenge cookie, then a
 * sign-in as the passkey's owner or the creation of a new passkey (and, for a new address, a
 * new user).
 * @module
 */
import type { AdapterAuthenticator } from "../../adapters/index.js"
import { AuthError, InvalidProvider, WebAuthnVerificationError } from "../../errors.js"
import type {
  WebAuthnAuthenticationJSON,
  WebAuthnConfig,
  WebAuthnRegistrationJSON,
  WebAuthnResponseJSON,
  WebAuthnTransport,
} from "../../providers/types.js"
import type { Account } from "../../types.js"
import { callAdapter } from "../adapter-call.js"
import { completeSignIn } from "../complete-sign-in.js"
import type { ResponseInternal } from "../internal-response.js"
import type { RequestContext } from "../request-context.js"
import { currentUser } from "../sessions/index.js"
import { spendChallenge, takeChallenge, type ChallengeData } from "./challenge.js"
import { fromBase64, storedCredentialId, storedTransports, toBase64, transportsOf } from "./credential-encoding.js"
import { relyingPartyOf, type CeremonyParty } from "./relying-party.js"
import { simpleWebAuthnOf } from "./simple-webauthn.js"

/** Largest `data` field read, in characters: a credential with attestation is a few kilobytes. */
const MAX_DATA_LENGTH = 32 * 1024

/**
 * Completes a passkey ceremony. The challenge is spent only once the response verified, so a
 * replayed cookie and response fail even where the authenticator's counter stays at 0.
 *
 * @throws {WebAuthnVerificationError} for a missing or unknown `action`, unreadable `data`, a
 *   missing, expired or spent challenge, an unknown credential, or a response that does not
 *   verify (wrong challenge, origin or RP id, bad signature, a counter that went backwards).
 */
export async function webAuthnCallback(ctx: RequestContext, provider: WebAuthnConfig): Promise<ResponseInternal> {
  if (ctx.request.method !== "POST") {
    throw new InvalidProvider(`WebAuthn provider ${JSON.stringify(provider.id)} accepts only POST on its callback`)
  }
  // Taken first: however this answer ends, the ceremony is over and its cookie goes.
  const challenge = await takeChallenge(ctx, provider)
  const { action, data } = ctx.request.body ?? {}
  if (action !== "authenticate" && action !== "register") throw new WebAuthnVerificationError("Invalid action parameter")
  const credential = credentialJSON(data)
  if (!challenge) throw new WebAuthnVerificationError("The challenge cookie is missing, expired or not for this provider")
  const rp = relyingPartyOf(provider, ctx.request.url)
  return action === "authenticate"
    ? authenticate(ctx, provider, rp, challenge, credential as WebAuthnAuthenticationJSON)
    : register(ctx, provider, rp, challenge, credential as WebAuthnRegistrationJSON)
}

async function authenticate(
  ctx: RequestContext,
  provider: WebAuthnConfig,
  rp: CeremonyParty,
  { challenge }: ChallengeData,
  response: WebAuthnAuthenticationJSON,
): Promise<ResponseInternal> {
  requireFields(response.response, ["clientDataJSON", "authenticatorData", "signature"])
  const { adapter } = ctx.config
  const credentialID = storedCredentialId(response.id)
  if (!credentialID) throw new WebAuthnVerificationError("The credential id is not base64url")
  const authenticator = await callAdapter(adapter, "getAuthenticator", credentialID)
  if (!authenticator) throw new WebAuthnVerificationError("No passkey is registered with this credential id")
  const publicKey = fromBase64(authenticator.credentialPublicKey)
  if (!publicKey) throw new AuthError(`The stored public key of credential ${credentialID} is not base64`)

  const transports = transportsOf(authenticator.transports)
  const verification = await verified("authentication", () =>
    simpleWebAuthnOf(provider).verifyAuthenticationResponse({
      ...provider.verifyAuthenticationOptions,
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.ids,
      credential: { id: response.id, publicKey, counter: authenticator.counter, ...(transports && { transports }) },
    }),
  )
  await spendChallenge(ctx, challenge)
  await callAdapter(adapter, "updateAuthenticatorCounter", credentialID, verification.authenticationInfo.newCounter)

  const account = await callAdapter(adapter, "getAccount", authenticator.providerAccountId, provider.id)
  if (!account || account.userId !== authenticator.userId) {
    // Registered through another WebAuthn provider, or its account was unlinked.
    throw new WebAuthnVerificationError(`Passkey ${credentialID} has no account of provider ${JSON.stringify(provider.id)} belonging to its user`)
  }
  const user = await callAdapter(adapter, "getUser", account.userId)
  if (!user) throw new AuthError(`The user of passkey ${credentialID} does not exist`)
  return completeSignIn(ctx, { user, account: { ...account, type: "webauthn" }, amr: passkeyAmr(verification.authenticationInfo.userVerified === true), passkeyUv: verification.authenticationInfo.userVerified === true })
}

async function register(
  ctx: RequestContext,
  provider: WebAuthnConfig,
  rp: CeremonyParty,
  { challenge, registerData }: ChallengeData,
  response: WebAuthnRegistrationJSON,
): Promise<ResponseInternal> {
  requireFields(response.response, ["clientDataJSON", "attestationObject"])
  if (!registerData) throw new WebAuthnVerificationError("The challenge was issued for signing in, not for creating a passkey")
  // The options were made for the user signed in then (or for nobody); a session that changed in
  // between must not receive, or lose, the new passkey.
  const signedIn = await currentUser(ctx)
  if ((signedIn?.id ?? undefined) !== (registerData.id ?? undefined)) {
    throw new WebAuthnVerificationError("The session changed while the passkey was being created")
  }

  const verification = await verified("registration", () =>
    simpleWebAuthnOf(provider).verifyRegistrationResponse({
      ...provider.verifyRegistrationOptions,
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.ids,
    }),
  )
  const info = verification.registrationInfo
  if (!info) throw new WebAuthnVerificationError("The registration verified without credential details")
  await spendChallenge(ctx, challenge)

  const credentialID = storedCredentialId(info.credential.id)
  if (!credentialID) throw new WebAuthnVerificationError("The credential id is not base64url")
  // An authenticator reports whatever id it likes; one already registered is someone's passkey.
  if (await callAdapter(ctx.config.adapter, "getAuthenticator", credentialID)) {
    throw new WebAuthnVerificationError("A passkey with this credential id is already registered")
  }
  const transports = storedTransports(info.credential.transports ?? response.response.transports)
  const authenticator: Omit<AdapterAuthenticator, "userId"> = {
    providerAccountId: credentialID,
    credentialID,
    credentialPublicKey: toBase64(info.credential.publicKey),
    counter: info.credential.counter,
    credentialDeviceType: info.credentialDeviceType,
    credentialBackedUp: info.credentialBackedUp,
    ...(transports && { transports }),
  }
  const account: Account = { providerAccountId: credentialID, provider: provider.id, type: "webauthn" }
  // Signed out, the new user gets the address typed, unproven (emailVerified null): a later
  // sign-in that proves it claims the account and removes this passkey first (unproven-account.ts),
  // and an address another user has already is refused (AccountNotLinked), never joined.
  // The signIn callback sees `emailVerified: null` too, so a rule on the address can tell it was only typed.
  const user = signedIn ?? { email: registerData.email || null, emailVerified: null, ...(registerData.name && { name: registerData.name }) }
  return completeSignIn(ctx, {
    user,
    account,
    // The user the check above was made for is the one the passkey goes to: no second read.
    signedInUser: signedIn,
    amr: passkeyAmr(info.userVerified === true),
    passkeyUv: info.userVerified === true,
    attach: async (owner) => {
      await callAdapter(ctx.config.adapter, "createAuthenticator", { ...authenticator, userId: owner.id })
    },
  })
}

/** RFC 8176 values of a passkey: `hwk`, and `user` when the authenticator verified the user. */
function passkeyAmr(userVerified: boolean): string[] {
  return userVerified ? ["hwk", "user"] : ["hwk"]
}

/** The `data` field as a credential's JSON. @throws {WebAuthnVerificationError} when it is not one. */
function credentialJSON(data: unknown): WebAuthnResponseJSON<Record<string, unknown>> {
  if (typeof data !== "string" || data.length > MAX_DATA_LENGTH) throw new WebAuthnVerificationError("Missing or oversized credential data")
  let parsed: unknown
  try {
    parsed = JSON.parse(data)
  } catch (error) {
    throw new WebAuthnVerificationError("The credential data is not JSON", { cause: error })
  }
  const credential = parsed as Partial<WebAuthnResponseJSON<Record<string, unknown>>> | null
  if (
    typeof credential !== "object" ||
    credential === null ||
    typeof credential.id !== "string" ||
    typeof credential.rawId !== "string" ||
    credential.type !== "public-key" ||
    typeof credential.response !== "object" ||
    credential.response === null
  ) {
    throw new WebAuthnVerificationError("The credential data is not a public-key credential")
  }
  const clientExtensionResults =
    typeof credential.clientExtensionResults === "object" && credential.clientExtensionResults !== null ? credential.clientExtensionResults : {}
  const transports = credential.response.transports
  return {
    ...(credential as WebAuthnResponseJSON<Record<string, unknown>>),
    clientExtensionResults,
    response: {
      ...credential.response,
      ...(transports !== undefined && { transports: Array.isArray(transports) ? transports.filter((t): t is WebAuthnTransport => typeof t === "string") : [] }),
    },
  }
}

/** @throws {WebAuthnVerificationError} unless every one of `fields` is a string. */
function requireFields(response: Record<string, unknown>, fields: readonly string[]): void {
  const missing = fields.filter((field) => typeof response[field] !== "string")
  if (missing.length > 0) throw new WebAuthnVerificationError(`The credential response lacks ${missing.join(", ")}`)
}

/**
 * The result of a verification that succeeded.
 * @throws {WebAuthnVerificationError} when it threw or did not verify; what it said is the cause.
 */
async function verified<Result extends { verified: boolean }>(ceremony: string, verify: () => Promise<Result>): Promise<Result> {
  let result: Result
  try {
    result = await verify()
  } catch (error) {
    throw new WebAuthnVerificationError(`The passkey ${ceremony} did not verify`, { cause: error })
  }
  if (!result.verified) throw new WebAuthnVerificationError(`The passkey ${ceremony} did not verify`)
  return result
}

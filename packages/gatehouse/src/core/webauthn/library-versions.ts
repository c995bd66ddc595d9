/**
 * The `@simplewebauthn/server` versions passkeys work with: 10 to 14, called in one shape.
 * Gatehouse is written against 11 and later; 10 differs only in how the stored credential goes in
 * (`authenticator`: { credentialID, credentialPublicKey, counter } rather than `credential`:
 * { id, publicKey, counter }) and how a new one comes back (`credentialID`, `credentialPublicKey`,
 * `counter` rather than `credential`), and both are bridged here.
 *
 * 9, which Auth.js apps have (next-auth's peer range), is refused: it takes the user handle and
 * credential ids in other encodings, and its signature check refuses about one valid P-256
 * signature in 150 (an `r` or `s` shorter than 32 bytes), which 10 fixed; so about one passkey
 * sign-in in 150 would fail for no reason. A library is told apart by what its
 * `generateRegistrationOptions` makes of a user handle given as bytes (10 and later encode it as
 * base64url; 9 and earlier hand it back as it is), once per library, before the configuration
 * serves any request: the app refuses to start its auth routes with one line saying which versions
 * to install, and no browser is ever handed options it cannot complete.
 * @module
 */
import { encodeBase64url } from "../../encoding/base64.js"
import { InvalidConfig } from "../../errors.js"
import type { SimpleWebAuthnServer, VerifiedWebAuthnRegistration } from "../../providers/types.js"

/** The majors passkeys are proven with; the package's peer range says the same. */
export const SUPPORTED_SIMPLEWEBAUTHN = "@simplewebauthn/server 10 to 14 (npm install @simplewebauthn/server@^14)"

/** A user handle no real ceremony uses, to see what the library makes of it. */
const PROBE_HANDLE = new Uint8Array([0x67, 0x68])

// Per library function: the probe runs once however many providers and configurations share it.
const refusals = new WeakMap<object, Promise<InvalidConfig | undefined>>()
const adapted = new WeakMap<SimpleWebAuthnServer, SimpleWebAuthnServer>()

/**
 * Why `server`'s library cannot run passkey ceremonies, or `undefined` when it can: it is not 10
 * to 14 by the shape of its options. Asked once per library; the answer is kept.
 */
export function simpleWebAuthnRefusal(server: SimpleWebAuthnServer): Promise<InvalidConfig | undefined> {
  const generate = server.generateRegistrationOptions
  let refusal = refusals.get(generate)
  if (!refusal) refusals.set(generate, (refusal = probe(server)))
  return refusal
}

async function probe(server: SimpleWebAuthnServer): Promise<InvalidConfig | undefined> {
  let handle: unknown
  try {
    const options: unknown = await server.generateRegistrationOptions({ rpName: "probe", rpID: "localhost", userName: "probe", userID: PROBE_HANDLE })
    handle = (options as { user?: { id?: unknown } } | null)?.user?.id
  } catch (error) {
    return new InvalidConfig(`Passkeys need ${SUPPORTED_SIMPLEWEBAUTHN}; the installed one failed to make registration options`, { cause: error })
  }
  if (handle === encodeBase64url(PROBE_HANDLE)) return undefined
  const found = handle === PROBE_HANDLE ? "9 or older, whose signature check refuses about one valid passkey sign-in in 150" : "a version that answers in a shape none of them has"
  return new InvalidConfig(`Passkeys need ${SUPPORTED_SIMPLEWEBAUTHN}; found ${found}`)
}

/**
 * `server` (the provider's four functions, from a supported `@simplewebauthn/server`) as
 * Gatehouse calls them: the shape of 11 and later. The same object for the same `server`.
 */
export function callableSimpleWebAuthn(server: SimpleWebAuthnServer): SimpleWebAuthnServer {
  let calls = adapted.get(server)
  if (!calls) adapted.set(server, (calls = adapt(server)))
  return calls
}

function adapt(server: SimpleWebAuthnServer): SimpleWebAuthnServer {
  return {
    generateRegistrationOptions: (options) => server.generateRegistrationOptions(options),
    generateAuthenticationOptions: (options) => server.generateAuthenticationOptions(options),
    verifyRegistrationResponse: async (options) => withCredential(await server.verifyRegistrationResponse(options)),
    verifyAuthenticationResponse: (options) => {
      const { credential } = options
      // 10 reads `authenticator`, 11 and later `credential`; each ignores the other. The id is only
      // echoed back in the result, which Gatehouse does not read.
      const authenticator = { credentialID: credential.id, credentialPublicKey: credential.publicKey, counter: credential.counter, transports: credential.transports }
      return server.verifyAuthenticationResponse({ ...options, authenticator } as typeof options)
    },
  }
}

/** A result of 10 (`credentialID`, `credentialPublicKey`, `counter`) with the `credential` 11 and later return. */
function withCredential(result: VerifiedWebAuthnRegistration): VerifiedWebAuthnRegistration {
  const info = result.registrationInfo as (VerifiedWebAuthnRegistration["registrationInfo"] & RegistrationInfoOf10) | undefined
  if (!info || info.credential) return result
  const { credentialID: id, credentialPublicKey: publicKey, counter } = info
  if (typeof id !== "string" || !(publicKey instanceof Uint8Array) || typeof counter !== "number") return result
  return { ...result, registrationInfo: { ...info, credential: { id, publicKey, counter } } }
}

/** How 10 returns a new credential: the id as base64url, beside the key and counter. */
interface RegistrationInfoOf10 {
  credentialID?: unknown
  credentialPublicKey?: unknown
  counter?: unknown
}

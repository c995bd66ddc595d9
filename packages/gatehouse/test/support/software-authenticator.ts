/**
 * A WebAuthn authenticator in software (P-256, `none` attestation), for tests that need to say
 * what a real browser never would: a credential id of the attacker's choosing, a counter that
 * stays put. Everything it signs verifies with `@simplewebauthn/server` like a device's answer.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto"

/** What a ceremony's options and the page's origin say. */
export interface CeremonyInput {
  challenge: string
  origin: string
  rpId: string
}

/** A credential as `PublicKeyCredential.toJSON()` gives it. */
export interface CredentialJSON {
  id: string
  rawId: string
  type: "public-key"
  clientExtensionResults: Record<string, never>
  response: Record<string, string | string[]>
}

export class SoftwareAuthenticator {
  readonly credentialId: Buffer
  /** Signature counter; left at 0 it never moves, like many platform passkeys. */
  counter = 0
  private readonly privateKey: KeyObject
  private readonly coseKey: Buffer

  /**
   * `userVerified: false` makes a security key that only tests presence (no PIN or biometric): the
   * UV flag is left out of every response. Default true.
   */
  constructor(options: { credentialId?: Buffer; countSignatures?: boolean; userVerified?: boolean } = {}) {
    this.credentialId = options.credentialId ?? randomBytes(16)
    this.countSignatures = options.countSignatures ?? true
    this.uvFlag = options.userVerified === false ? 0 : 0x04
    const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" })
    this.privateKey = privateKey
    const jwk = publicKey.export({ format: "jwk" })
    // COSE_Key: kty EC2 (2), alg ES256 (-7), crv P-256 (1), x, y.
    this.coseKey = cbor(
      new Map<number, number | Buffer>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, "base64url")],
        [-3, Buffer.from(jwk.y!, "base64url")],
      ]),
    )
  }

  private readonly countSignatures: boolean
  private readonly uvFlag: number

  /** The base64url id browsers and options use. */
  get id(): string {
    return this.credentialId.toString("base64url")
  }

  /** A registration response (`navigator.credentials.create()`), user present (and verified, unless made without). */
  register({ challenge, origin, rpId }: CeremonyInput): CredentialJSON {
    const clientData = clientDataJSON("webauthn.create", challenge, origin)
    const idLength = Buffer.alloc(2)
    idLength.writeUInt16BE(this.credentialId.length)
    // Flags: user present (0x01), user verified (0x04), attested credential data (0x40).
    const authData = Buffer.concat([sha256(rpId), Buffer.from([0x41 | this.uvFlag]), counterBytes(this.counter), Buffer.alloc(16), idLength, this.credentialId, this.coseKey])
    const attestationObject = cbor(new Map<string, unknown>([["fmt", "none"], ["attStmt", new Map<unknown, unknown>()], ["authData", authData]]))
    return this.credential({ clientDataJSON: clientData.toString("base64url"), attestationObject: attestationObject.toString("base64url"), transports: ["internal"] })
  }

  /** An authentication response (`navigator.credentials.get()`), user present (and verified, unless made without). */
  authenticate({ challenge, origin, rpId }: CeremonyInput): CredentialJSON {
    if (this.countSignatures) this.counter++
    const clientData = clientDataJSON("webauthn.get", challenge, origin)
    const authData = Buffer.concat([sha256(rpId), Buffer.from([0x01 | this.uvFlag]), counterBytes(this.counter)])
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientData)]), this.privateKey)
    return this.credential({
      clientDataJSON: clientData.toString("base64url"),
      authenticatorData: authData.toString("base64url"),
      signature: signature.toString("base64url"),
    })
  }

  private credential(response: Record<string, string | string[]>): CredentialJSON {
    return { id: this.id, rawId: this.id, type: "public-key", clientExtensionResults: {}, response }
  }
}

function clientDataJSON(type: string, challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }))
}

function sha256(data: string | Buffer): Buffer {
  return createHash("sha256").update(data).digest()
}

function counterBytes(counter: number): Buffer {
  const bytes = Buffer.alloc(4)
  bytes.writeUInt32BE(counter)
  return bytes
}

/** CBOR (RFC 8949) for what attestation needs: integers, text, byte strings and maps. */
function cbor(value: unknown): Buffer {
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value)
  if (typeof value === "string") return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)])
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value])
  if (!(value instanceof Map)) throw new TypeError(`cannot encode ${typeof value}`)
  const entries = [...value].flatMap(([key, item]) => [cbor(key), cbor(item)])
  return Buffer.concat([head(5, value.size), ...entries])
}

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length])
  if (length < 256) return Buffer.from([(major << 5) | 24, length])
  const bytes = Buffer.alloc(3)
  bytes[0] = (major << 5) | 25
  bytes.writeUInt16BE(length, 1)
  return bytes
}

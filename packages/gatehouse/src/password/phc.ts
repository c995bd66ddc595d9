/**
 * Hash strings in the PHC string format, the shape passlib, RustCrypto and others read:
 * `$scrypt$ln=17,r=8,p=1$<salt>$<key>` and `$pbkdf2-sha256$i=600000$<salt>$<key>`, salt and key in
 * unpadded standard base64. Reading is strict (one spelling per value, parameters in their fixed
 * order) so that any change to a stored string changes what it means or is refused. Error
 * messages name the algorithm and parameters but never echo the salt or key.
 * @module
 */
import { decodeBase64Unpadded, encodeBase64Unpadded } from "../encoding/base64.js"
import { PasswordHashError } from "../errors.js"
import { assertWithinBounds, type KdfParameters } from "./parameters.js"

/** A parsed hash string. */
export interface StoredHash {
  readonly parameters: KdfParameters
  readonly salt: Uint8Array<ArrayBuffer>
  readonly key: Uint8Array<ArrayBuffer>
}

// Longer than any string within the bounds (a 64-byte salt, 15-digit numbers) can be.
const MAX_HASH_LENGTH = 512
// PHC's decimal encoding: no sign, no leading zero; 15 digits keep every value an exact number.
const PARAMETER = /^([a-z0-9-]{1,32})=(0|[1-9][0-9]{0,14})$/
const ALGORITHM_ID = /^[a-z0-9-]{1,32}$/

/** The PHC string of a hash. */
export function formatHash({ parameters, salt, key }: { parameters: KdfParameters; salt: Uint8Array; key: Uint8Array }): string {
  const list = parameters.algorithm === "scrypt" ? `ln=${parameters.logN},r=${parameters.r},p=${parameters.p}` : `i=${parameters.iterations}`
  return `$${parameters.algorithm}$${list}$${encodeBase64Unpadded(salt)}$${encodeBase64Unpadded(key)}`
}

/**
 * The algorithm, parameters, salt and key of a hash string. Throws a {@link PasswordHashError}
 * for anything else, before any key derivation, so a hostile string costs only its parsing.
 */
export function parseHash(text: unknown): StoredHash {
  if (typeof text !== "string") throw malformed("a password hash must be a string")
  if (text.length > MAX_HASH_LENGTH) throw malformed(`a password hash is at most ${MAX_HASH_LENGTH} characters`)
  const fields = text.split("$")
  const id = fields[1] ?? ""
  if (fields[0] !== "" || !ALGORITHM_ID.test(id)) throw malformed("a password hash is a PHC string: $<algorithm>$<parameters>$<salt>$<hash>")
  if (id !== "scrypt" && id !== "pbkdf2-sha256") {
    throw new PasswordHashError("unknown-algorithm", `"${id}" password hashes are not supported (only scrypt and pbkdf2-sha256)`)
  }
  const [, , list = "", saltText = "", keyText = "", ...extra] = fields
  if (extra.length > 0 || !saltText || !keyText) throw malformed(`a ${id} hash is $${id}$<parameters>$<salt>$<hash>`)
  const salt = decodeBase64Unpadded(saltText)
  const key = decodeBase64Unpadded(keyText)
  if (!salt || !key) throw malformed(`the salt and hash of a ${id} hash must be unpadded, canonical base64`)
  const parameters = id === "scrypt" ? scryptParameters(list) : pbkdf2Parameters(list, key.length)
  assertWithinBounds(parameters, salt.length, key.length)
  return { parameters, salt, key }
}

function scryptParameters(list: string): KdfParameters {
  const values = readDecimals(list, ["ln", "r", "p"], ["ln", "r", "p"], "scrypt")
  return { algorithm: "scrypt", logN: values.get("ln")!, r: values.get("r")!, p: values.get("p")! }
}

function pbkdf2Parameters(list: string, keyBytes: number): KdfParameters {
  // RustCrypto writes the key length as l; it can only repeat what the hash's length says.
  const values = readDecimals(list, ["i", "l"], ["i"], "pbkdf2-sha256")
  const length = values.get("l")
  if (length !== undefined && length !== keyBytes) throw malformed(`the pbkdf2-sha256 hash's l=${length} does not match its ${keyBytes}-byte hash`)
  return { algorithm: "pbkdf2-sha256", iterations: values.get("i")! }
}

/** `name=value` pairs, names in `order` (each at most once), values PHC decimals. */
function readDecimals(list: string, order: readonly string[], required: readonly string[], id: string): Map<string, number> {
  const values = new Map<string, number>()
  let next = 0
  for (const pair of list.split(",")) {
    const match = PARAMETER.exec(pair)
    const position = match ? order.indexOf(match[1]!, next) : -1
    if (!match || position < 0) throw malformed(`the parameters of a ${id} hash are ${order.join(",")}, in that order, as plain decimals`)
    values.set(match[1]!, Number(match[2]))
    next = position + 1
  }
  const missing = required.filter((name) => !values.has(name))
  if (missing.length > 0) throw malformed(`a ${id} hash needs the parameter${missing.length > 1 ? "s" : ""} ${missing.join(",")}`)
  return values
}

function malformed(message: string): PasswordHashError {
  return new PasswordHashError("malformed", message)
}

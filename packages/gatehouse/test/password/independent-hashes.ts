/**
 * Hash strings made with node:crypto alone, following the PHC layout by hand, so tests can check
 * the module against an implementation that shares none of its code.
 */
import { pbkdf2Sync, randomBytes, scryptSync } from "node:crypto"

/** Unpadded standard base64, as PHC strings spell salts and keys. */
export function b64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64").replace(/=+$/, "")
}

/** A `$scrypt$…` string for `password` (used as given: normalize it first if the test needs to). */
export function scryptHashString(password: string, { ln, r, p }: { ln: number; r: number; p: number }, salt: Uint8Array = randomBytes(16)): string {
  const key = scryptSync(Buffer.from(password, "utf8"), salt, 32, { N: 2 ** ln, r, p, maxmem: 512 * 2 ** 20 })
  return `$scrypt$ln=${ln},r=${r},p=${p}$${b64(salt)}$${b64(key)}`
}

/** A `$pbkdf2-sha256$…` string for `password` (used as given). */
export function pbkdf2HashString(password: string, iterations: number, salt: Uint8Array = randomBytes(16)): string {
  const key = pbkdf2Sync(Buffer.from(password, "utf8"), salt, iterations, 32, "sha256")
  return `$pbkdf2-sha256$i=${iterations}$${b64(salt)}$${b64(key)}`
}

/** The four fields of a PHC hash string. */
export function fieldsOf(hash: string): { id: string; parameters: string; salt: string; key: string } {
  const [empty, id, parameters, salt, key, ...rest] = hash.split("$")
  if (empty !== "" || id === undefined || parameters === undefined || salt === undefined || key === undefined || rest.length > 0) {
    throw new Error(`not a four-field PHC string: ${hash}`)
  }
  return { id, parameters, salt, key }
}

/** `hash` with one field replaced. */
export function withField(hash: string, field: "id" | "parameters" | "salt" | "key", value: string): string {
  const fields = { ...fieldsOf(hash), [field]: value }
  return `$${fields.id}$${fields.parameters}$${fields.salt}$${fields.key}`
}

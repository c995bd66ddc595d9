/**
 * The floors a session check is measured against: what no library can avoid. The crypto floor
 * decrypts the session token with `node:crypto` directly (AES-256-CBC and HMAC-SHA-512, the key
 * derived once); the handler floor does only the work around that decrypt a Web handler must do:
 * build the `Request`, read the cookie, decrypt, answer `Response.json`, and the caller reads the
 * answer as every other contender's is read. Both check their answers like any contender.
 */
import { createDecipheriv, createHash, createHmac, hkdfSync, timingSafeEqual } from "node:crypto"
import { expectSession } from "./expect.js"
import { claims, secret, sessionCookieName, sessionRequest } from "./fixtures.js"

const key = Buffer.from(hkdfSync("sha256", secret, sessionCookieName, `Auth.js Generated Encryption Key (${sessionCookieName})`, 64))
const macKey = key.subarray(0, 32)
const encryptionKey = key.subarray(32)

/** The claims of an A256CBC-HS512 compact JWE made with the bench secret, by node:crypto alone. */
export function decryptToken(token: string): { email?: unknown; name?: unknown; picture?: unknown } {
  const [header, , ivText, ciphertextText, tagText] = token.split(".")
  const iv = Buffer.from(ivText!, "base64url")
  const ciphertext = Buffer.from(ciphertextText!, "base64url")
  const aad = Buffer.from(header!)
  const aadBits = Buffer.alloc(8)
  aadBits.writeBigUInt64BE(BigInt(aad.length * 8))
  const mac = createHmac("sha512", macKey).update(aad).update(iv).update(ciphertext).update(aadBits).digest().subarray(0, 32)
  if (!timingSafeEqual(mac, Buffer.from(tagText!, "base64url"))) throw new Error("crypto floor: the token's tag does not verify")
  const decipher = createDecipheriv("aes-256-cbc", encryptionKey, iv)
  return JSON.parse(Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8")) as { email?: unknown }
}

/** The decrypt alone, checked. */
export function cryptoFloor(token: string): () => Promise<void> {
  return async () => {
    if (decryptToken(token).email !== claims.email) throw new Error("crypto floor: wrong claims")
  }
}

/** A minimal Web handler around the decrypt: Request in, cookie read, Response.json out, read back. */
export function handlerFloor(token: string): () => Promise<void> {
  const handler = (request: Request): Response => {
    const header = request.headers.get("cookie") ?? ""
    const start = header.indexOf(`${sessionCookieName}=`)
    const end = header.indexOf(";", start)
    const value = header.slice(start + sessionCookieName.length + 1, end === -1 ? undefined : end)
    const { name, email, picture } = decryptToken(value)
    return Response.json({ user: { name, email, image: picture }, expires: new Date(Date.now() + 86_400_000).toISOString() })
  }
  return async () => expectSession(handler(sessionRequest(token)), "handler floor", claims.email)
}

/**
 * The database session check's floor: a minimal Web handler around the one query no adapter can
 * skip. Request in, cookie read, its SHA-256 taken (the row holds the hash), the session and its
 * user read in one prepared statement on the pool, Response.json out, read back.
 */
export function queryFloor(pool: { query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: Record<string, unknown>[] }> }, token: string, email: string): () => Promise<void> {
  const text = `SELECT s.expires, u.id, u.name, u.email, u.image FROM sessions s JOIN users u ON u.id = s."userId" WHERE s."sessionToken" = $1`
  const handler = async (request: Request): Promise<Response> => {
    const header = request.headers.get("cookie") ?? ""
    const start = header.indexOf(`${sessionCookieName}=`)
    const end = header.indexOf(";", start)
    const value = header.slice(start + sessionCookieName.length + 1, end === -1 ? undefined : end)
    const key = `sha256:${createHash("sha256").update(value).digest("hex")}`
    const { rows } = await pool.query({ name: "bench-query-floor", text, values: [key] })
    const row = rows[0]
    if (!row) return Response.json({})
    return Response.json({ user: { name: row["name"], email: row["email"], image: row["image"] }, expires: (row["expires"] as Date).toISOString() })
  }
  return async () => expectSession(await handler(sessionRequest(token)), "query floor", email)
}

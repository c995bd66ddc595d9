/**
 * Issuing and reading the session JWT: an encrypted JWE (`dir` + `A256CBC-HS512`) whose key is
 * derived from the secret and a salt, byte-compatible with Auth.js v5 in both directions.
 *
 * Prefer the session route or your integration's `auth()` for reading sessions; reach for these
 * when a token must be read outside the request handler (an API route behind a Bearer token).
 *
 * @example
 * ```ts
 * import { encode, decode, getToken } from "gatehouse-auth/jwt"
 *
 * const token = await encode({ token: { sub: "42" }, secret, salt: "authjs.session-token" })
 * const claims = await decode({ token, secret, salt: "authjs.session-token" })
 * const fromRequest = await getToken({ req: request, secret })
 * ```
 * @module gatehouse-auth/jwt
 */
import { AuthError, JWTSessionError, MissingSecret } from "../errors.js"
import { readChunkedCookie } from "../cookies/chunks.js"
import { sessionCookieName } from "../cookies/defaults.js"
import { parseCookieHeader } from "../cookies/header.js"
import { decryptCompact, encryptCompact, type KeyLookup } from "./jwe.js"
import { contentKey } from "./keys.js"
import { toHeaders, type HeaderSource } from "../request-headers.js"

/** Claims Gatehouse itself puts in a token. */
export interface DefaultJWT extends Record<string, unknown> {
  /** The user's name at sign-in. */
  name?: string | null
  /** The user's email address at sign-in. */
  email?: string | null
  /** The user's image URL at sign-in (the user's `image`). */
  picture?: string | null
  /** The user's id. */
  sub?: string
  /** Issued at: seconds since the epoch, set by {@link encode} on every write. */
  iat?: number
  /** Expires at: seconds since the epoch, set by {@link encode} from `maxAge`. */
  exp?: number
  /** A random token id, new on every write (set by {@link encode}). */
  jti?: string
  /** Seconds since the epoch when the session began; kept only under `session.absoluteMaxAge`. */
  signedInAt?: number
  /** The user's session version when the session began; absent for 0 (see `signOutEverywhere`). */
  sessionVersion?: number
  /** Seconds since the epoch when `sessionVersion` was last checked against the adapter. */
  versionCheckedAt?: number
  /**
   * With `twoFactor`: the session's assurance level (1 or 2). Gatehouse's own, like the next two:
   * whatever a `jwt` callback returns for them is replaced.
   */
  aal?: 1 | 2
  /** With `twoFactor`: the RFC 8176 methods the session was authenticated with. */
  amr?: string[]
  /** With `twoFactor`: seconds since the epoch of the last second-factor check. */
  secondFactorAt?: number
}

/** The session token's claims; augment this interface to type your own. */
export interface JWT extends Record<string, unknown>, DefaultJWT {}

/** Parameters of {@link encode}. */
export interface JWTEncodeParams<Payload = JWT> {
  /** The claims to encrypt. `iat`, `exp` and `jti` are set by `encode`. */
  token?: Payload
  /** The secret, or several with the newest first: the first one encrypts. */
  secret: string | string[]
  /** Mixed into the key derivation; Gatehouse uses the session cookie's name. */
  salt: string
  /** Seconds until the token expires. Default 30 days. */
  maxAge?: number
}

/** Parameters of {@link decode}. */
export interface JWTDecodeParams {
  /** The JWE to decrypt; empty or absent decodes to `null`. */
  token?: string
  /** The secret, or several: the one whose key matches the token's `kid` decrypts. */
  secret: string | string[]
  /** The salt the token was encoded with; Gatehouse uses the session cookie's name. */
  salt: string
}

/** Overridable issuing and reading of the session token. */
export interface JWTOptions {
  /** Seconds until an issued token expires. Default: `session.maxAge` (30 days). */
  maxAge: number
  /** Turns the claims into the cookie's value. Default: {@link encode}. */
  encode: (params: JWTEncodeParams) => PromiseLike<string> | string
  /** Turns the cookie's value back into claims; `null` or a throw means no session. Default: {@link decode}. */
  decode: (params: JWTDecodeParams) => PromiseLike<JWT | null> | JWT | null
}

/** A logger `getToken` may report failures to; `console` will do. */
export interface TokenLogger {
  /** Called with `JWT_GET_TOKEN_DECODE_FAILED` and the reason when a token does not decode. */
  debug(code: string, ...message: unknown[]): void
}

/** Parameters of {@link getToken}. */
export interface GetTokenParams<R extends boolean = false> {
  /** The request, or anything with its headers (a `Headers` or a plain header map). */
  req: Request | {
    /** A `Headers`, or a plain header map as Node gives it (any key case, arrays for repeats). */
    headers: HeaderSource
  }
  /** The secret, or several (see {@link JWTDecodeParams.secret}). Without one, a request carrying a token throws {@link MissingSecret}. */
  secret?: string | string[]
  /** Default: the cookie name. */
  salt?: string
  /** Return the token string without decrypting it. */
  raw?: R
  /** Default: `authjs.session-token`, or `__Secure-authjs.session-token` with `secureCookie`. */
  cookieName?: string
  /** Read the `__Secure-` cookie (set on HTTPS). Default `false`. */
  secureCookie?: boolean
  /** A custom decode, as in `jwt.decode` of the config. Default: {@link decode}. */
  decode?: JWTOptions["decode"]
  /** Told why a token that was present did not decode (it is then `null`). */
  logger?: TokenLogger | Console
}

/**
 * Default token lifetime: 30 days, in seconds.
 *
 * @example
 * ```ts
 * await encode({ token, secret, salt, maxAge: DEFAULT_MAX_AGE / 30 }) // one day
 * ```
 */
export const DEFAULT_MAX_AGE = 30 * 24 * 60 * 60

const ENCRYPTION = "A256CBC-HS512"
const encoder = /* @__PURE__ */ new TextEncoder()
const decoder = new TextDecoder("utf-8", { fatal: true })
/** Seconds of clock skew between the servers of one deployment that `decode` allows (Auth.js's allowance). */
export const CLOCK_TOLERANCE = 15

/**
 * Encrypts `token` into a JWE with the first secret, adding `iat`, `exp` and `jti`.
 *
 * @example
 * ```ts
 * const jwe = await encode({ token: { sub: "42" }, secret: [newSecret, oldSecret], salt: "authjs.session-token" })
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc7516 JWE
 */
export async function encode<Payload = JWT>(params: JWTEncodeParams<Payload>): Promise<string> {
  const { token, salt, maxAge = DEFAULT_MAX_AGE } = params
  const [secret] = secretList(params.secret)
  assertSalt(salt)
  if (typeof maxAge !== "number" || !Number.isFinite(maxAge)) {
    throw new AuthError(`JWT maxAge must be a finite number of seconds; received ${String(maxAge)}`)
  }
  if (token !== undefined && (token === null || typeof token !== "object" || Array.isArray(token))) {
    throw new AuthError("The JWT payload must be an object of claims")
  }
  const key = await contentKey(secret, salt, ENCRYPTION)
  // Stale registered claims are replaced, and come last, as in Auth.js.
  const { iat: _iat, exp: _exp, jti: _jti, ...claims } = (token ?? {}) as Record<string, unknown>
  const now = Math.floor(Date.now() / 1000)
  const payload = JSON.stringify({ ...claims, iat: now, exp: now + maxAge, jti: crypto.randomUUID() })
  return encryptCompact(encoder.encode(payload), key)
}

/**
 * Decrypts and checks a token made by {@link encode} (or by Auth.js). Returns `null` for an
 * empty token and throws {@link JWTSessionError} for one that is tampered, expired (beyond a
 * 15-second tolerance), or made with another secret or salt.
 *
 * @example
 * ```ts
 * const claims = await decode({ token: jwe, secret, salt: "authjs.session-token" })
 * ```
 */
export async function decode<Payload = JWT>(params: JWTDecodeParams): Promise<Payload | null> {
  const { token, salt } = params
  if (token === undefined || token === null || token === "") return null
  const secrets = secretList(params.secret)
  assertSalt(salt)
  if (typeof token !== "string") throw new JWTSessionError("The token to decode must be a string")

  const lookup: KeyLookup = async (kid, enc) => {
    for (const secret of secrets) {
      const key = await contentKey(secret, salt, enc)
      // Tokens without a `kid` predate rotation support; Auth.js tries only the first secret.
      if (kid === undefined || key.kid === kid) return key
    }
    throw new JWTSessionError("No secret matches the token's key id")
  }
  const plaintext = await decryptCompact(token, lookup)
  return checkedClaims(plaintext) as Payload
}

/**
 * The claims of a decrypted token, refused when they are not a JSON object, when `exp` has passed
 * or `nbf` and `iat` are still ahead (each beyond the clock tolerance), or when one of those is not
 * a number.
 */
function checkedClaims(plaintext: Uint8Array): JWT {
  let claims: unknown
  try {
    claims = JSON.parse(decoder.decode(plaintext))
  } catch {
    throw new JWTSessionError("The token's payload is not JSON")
  }
  if (claims === null || typeof claims !== "object" || Array.isArray(claims)) {
    throw new JWTSessionError("The token's payload is not a JSON object of claims")
  }
  const { exp, nbf, iat } = claims as Record<string, unknown>
  const now = Math.floor(Date.now() / 1000)
  assertTimeClaim("exp", exp)
  assertTimeClaim("nbf", nbf)
  assertTimeClaim("iat", iat)
  if (typeof exp === "number" && exp <= now - CLOCK_TOLERANCE) throw new JWTSessionError('The token has expired ("exp" is past)')
  if (typeof nbf === "number" && nbf > now + CLOCK_TOLERANCE) throw new JWTSessionError('The token is not valid yet ("nbf" is ahead)')
  // A token from the future was made with a wrong clock or by someone holding the key at will.
  if (typeof iat === "number" && iat > now + CLOCK_TOLERANCE) throw new JWTSessionError('The token was issued in the future ("iat" is ahead)')
  return claims as JWT
}

function assertTimeClaim(name: string, value: unknown): void {
  if (value !== undefined && (typeof value !== "number" || !Number.isFinite(value))) {
    throw new JWTSessionError(`The token's "${name}" claim must be a number`)
  }
}

/**
 * Reads the session token of a request: the (possibly chunked) session cookie first, then an
 * `Authorization: Bearer` header. Returns the claims, the raw string with `raw: true`, or `null`
 * when there is no token or it does not decode.
 *
 * @example
 * ```ts
 * const token = await getToken({ req: request, secret: env.AUTH_SECRET, secureCookie: true })
 * if (!token) return new Response("Unauthorized", { status: 401 })
 * ```
 */
export async function getToken<R extends boolean = false>(
  params: GetTokenParams<R>,
): Promise<R extends true ? string | null : JWT | null>
export async function getToken(params: GetTokenParams<boolean>): Promise<string | JWT | null> {
  const { req, secureCookie = false, raw = false, logger } = params
  if (!req || typeof req !== "object" || !req.headers) {
    throw new AuthError("getToken needs `req`: a Request, or an object with its headers")
  }
  const cookieName = params.cookieName ?? sessionCookieName(secureCookie)
  const salt = params.salt ?? cookieName
  const token = readToken(req.headers, cookieName)
  if (token === undefined) return null
  if (raw) return token

  // Checked here too, not only in decode: a custom decode may not, and this error must not be
  // swallowed as "no token" below.
  const secret = params.secret ?? []
  secretList(secret)
  const decodeToken = params.decode ?? decode
  try {
    return (await decodeToken({ token, secret, salt })) ?? null
  } catch (error) {
    logger?.debug("JWT_GET_TOKEN_DECODE_FAILED", (error as Error).message)
    return null
  }
}

function readToken(source: HeaderSource, cookieName: string): string | undefined {
  const headers = toHeaders(source)
  const fromCookie = readChunkedCookie(parseCookieHeader(headers.get("cookie")), cookieName).value
  if (fromCookie) return fromCookie
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.get("authorization") ?? "")
  if (!match) return undefined
  try {
    return decodeURIComponent(match[1]!)
  } catch {
    return undefined
  }
}

/** The usable secrets, newest first; unset entries (`[env.NEW, env.OLD]` with one missing) are skipped. */
function secretList(secret: string | readonly (string | undefined)[] | undefined): [string, ...string[]] {
  // The common case, and the one every session check with a single secret takes.
  if (typeof secret === "string" && secret !== "") return [secret]
  const list = [secret].flat().filter((entry) => entry !== undefined && entry !== null && entry !== "")
  if (list.some((entry) => typeof entry !== "string")) throw new AuthError("A JWT secret must be a string")
  if (list.length === 0) throw new MissingSecret("A JWT secret is required: a non-empty string, or an array of them")
  return list as [string, ...string[]]
}

function assertSalt(salt: unknown): asserts salt is string {
  if (typeof salt !== "string") {
    throw new AuthError("A JWT salt is required: Gatehouse uses the session cookie's name")
  }
}

/**
 * The JWT session cookie (compact JWE, `dir` + A256CBC-HS512, key from HKDF(secret, salt = the
 * cookie's name)) cannot be forged or altered: every changed bit, every truncation, every header
 * swap, every other token shape, stale or future claims, and tokens sealed under another salt or
 * secret are refused — by `decode()`, and by `GET /auth/session` through `Auth()`, which answers
 * `null` and clears the cookie (`Max-Age=0`), logging a JWTSessionError.
 *
 * Rows marked "also in jwt/session-token.test.ts" are decode-level cases there; here they run
 * through `Auth()` as well. Hostile tokens are built by token-forging-support.ts with node:crypto,
 * so a correctly sealed token with a wrong header is refused for its header, not its seal.
 */
import { describe, expect, it } from "vitest"
import { Auth } from "../../src/core/handler.js"
import { JWTSessionError } from "../../src/errors.js"
import { decode, encode } from "../../src/jwt/index.js"
import type { AuthConfig } from "../../src/types.js"
import { credentialsConfig, recordingLogger } from "../flow/flow-helpers.js"
import {
  base64url,
  bitFlipsOf,
  derivedKey,
  freshClaims,
  headerOf,
  kidOf,
  PARTS,
  sealed,
  signedJws,
  standardHeader,
  unsecuredJwt,
  withHeader,
  withPart,
} from "./token-forging-support.js"

const ORIGIN = "https://app.test"
const SESSION_COOKIE = "__Secure-authjs.session-token"
const SALT = SESSION_COOKIE
const SECRET = "tampering-secret-0123456789abcdef0123456789"
const OLD_SECRET = "tampering-old-secret-0123456789abcdef01234"
const OTHER_SECRET = "tampering-other-secret-0123456789abcdef012"
const KEY = derivedKey(SECRET, SALT)

const log = recordingLogger()

/** An app with JWT sessions on https (so the cookie is `__Secure-authjs.session-token`). */
function appConfig(secret: string | string[] = SECRET): AuthConfig {
  return credentialsConfig({ secret, logger: log.logger })
}
const APP = appConfig()

interface SessionAnswer {
  status: number
  session: unknown
  setCookies: string[]
}

/** `GET /auth/session` with `token` as the session cookie. */
async function sessionThroughAuth(token: string, config: AuthConfig = APP): Promise<SessionAnswer> {
  const request = new Request(`${ORIGIN}/auth/session`, { headers: { cookie: `${SESSION_COOKIE}=${encodeURIComponent(token)}` } })
  const response = await Auth(request, config as Omit<AuthConfig, "raw">)
  return { status: response.status, session: await response.json(), setCookies: response.headers.getSetCookie() }
}

/** Whether `GET /auth/session` refused the token the way Gatehouse refuses: `null`, the cookie cleared. */
function refusedByAuth(answer: SessionAnswer): boolean {
  return (
    answer.status === 200 &&
    answer.session === null &&
    answer.setCookies.some((line) => line.startsWith(`${SESSION_COOKIE}=;`) && /; Max-Age=0(;|$)/.test(line))
  )
}

/** Whether `decode` refused the token with a JWTSessionError (anything else counts as accepted or as a crash). */
async function refusedByDecode(token: string, secret: string | string[] = SECRET): Promise<boolean> {
  try {
    await decode({ token, secret, salt: SALT })
    return false
  } catch (error) {
    return error instanceof JWTSessionError
  }
}

const now = () => Math.floor(Date.now() / 1000)

interface Row {
  /** What is wrong with the token. */
  case: string
  token: () => Promise<string>
  /** The app's secret(s); default the one secret. */
  secret?: string | string[]
}

/**
 * Sealed with the right key under `header` (the standard one when `{}`), with fresh claims or those
 * `claims` makes when the row runs (so times are relative to the test, not to the file's loading).
 */
const resealed = (header: Record<string, unknown>, claims: () => unknown = () => freshClaims()) => async () =>
  sealed({ ...(await standardHeader(KEY)), ...header }, claims(), KEY)

/** A real token made by `encode` with the right secret and salt. */
const realToken = () => encode({ token: { sub: "tampering-user", name: "Tamper Test", email: "tamper@app.test" }, secret: SECRET, salt: SALT })

/** A real token with its header changed (not re-sealed: the tag covers the header). */
const swapped = (change: Record<string, unknown>) => async () => {
  const token = await realToken()
  return withHeader(token, { ...headerOf(token), ...change })
}

const refusedRows: Row[] = [
  // Key management and content encryption, sealed with the right key: only the header is wrong.
  { case: "alg none, re-sealed (also in jwt/session-token.test.ts)", token: resealed({ alg: "none" }) },
  { case: "alg RSA-OAEP, re-sealed", token: resealed({ alg: "RSA-OAEP" }) },
  { case: "alg A256KW, re-sealed (also in jwt/session-token.test.ts)", token: resealed({ alg: "A256KW" }) },
  { case: "no alg at all, re-sealed", token: resealed({ alg: undefined }) },
  {
    case: "enc A128CBC-HS256, re-encrypted with a 32-byte HKDF key (also in jwt/session-token.test.ts, unsealed)",
    token: async () => {
      const key = derivedKey(SECRET, SALT, 32)
      return sealed({ alg: "dir", enc: "A128CBC-HS256", kid: await kidOf(key) }, freshClaims(), key)
    },
  },
  {
    case: "enc A256GCM, re-encrypted with half of the A256CBC-HS512 key (not the derivation Auth.js uses for GCM)",
    token: async () => sealed({ alg: "dir", enc: "A256GCM", kid: await kidOf(KEY) }, freshClaims(), KEY.subarray(0, 32)),
  },
  {
    case: "enc A128GCM, re-encrypted",
    token: async () => sealed({ alg: "dir", enc: "A128GCM" }, freshClaims(), derivedKey(SECRET, SALT, 32).subarray(0, 16)),
  },
  { case: "the kid of another secret's key, re-sealed", token: async () => resealed({ kid: await kidOf(derivedKey(OTHER_SECRET, SALT)) })() },
  { case: "the kid of this secret's key for another salt, re-sealed", token: async () => resealed({ kid: await kidOf(derivedKey(SECRET, "authjs.session-token")) })() },
  { case: "a kid that is not a string, re-sealed (also in jwt/session-token.test.ts)", token: resealed({ kid: 7 }) },
  { case: "zip DEF, re-sealed (also in jwt/session-token.test.ts)", token: resealed({ zip: "DEF" }) },
  { case: "crit [\"exp\"], re-sealed (also in jwt/session-token.test.ts, with another name)", token: resealed({ crit: ["exp"] }) },
  { case: "a header that is a JSON array, re-sealed", token: async () => sealed([1] as unknown as Record<string, unknown>, freshClaims(), KEY) },
  // A real token whose header was edited: the tag no longer fits.
  { case: "alg none swapped into a real token", token: swapped({ alg: "none" }) },
  { case: "enc A256GCM swapped into a real token", token: swapped({ enc: "A256GCM" }) },
  { case: "the kid removed from a real token", token: swapped({ kid: undefined }) },
  { case: "another kid swapped into a real token", token: async () => swapped({ kid: await kidOf(derivedKey(OTHER_SECRET, SALT)) })() },
  { case: "zip DEF added to a real token", token: swapped({ zip: "DEF" }) },
  // Other shapes.
  { case: "a JWS (three parts) HMAC-signed with the derived key", token: async () => signedJws(freshClaims(), KEY) },
  { case: "a JWS signed HS512 with the secret itself", token: async () => signedJws(freshClaims(), Buffer.from(SECRET), "HS512") },
  { case: "an unsecured JWT (alg none, empty signature)", token: async () => unsecuredJwt(freshClaims()) },
  { case: "plain JSON claims", token: async () => JSON.stringify(freshClaims()) },
  { case: "base64url JSON claims", token: async () => base64url(JSON.stringify(freshClaims())) },
  { case: "a real token with an encrypted key (also in jwt/session-token.test.ts)", token: async () => withPart(await realToken(), 1, "AAAA") },
  { case: "a real token with a sixth part", token: async () => `${await realToken()}.` },
  { case: "a real token without its tag part", token: async () => (await realToken()).split(".").slice(0, 4).join(".") },
  // Claims, sealed correctly.
  { case: "exp an hour ago (also in jwt/session-token.test.ts)", token: resealed({}, () => freshClaims({ exp: now() - 3600 })) },
  { case: "exp 20 seconds ago, past the 15-second tolerance", token: resealed({}, () => freshClaims({ exp: now() - 20 })) },
  { case: "nbf an hour ahead (also in jwt/session-token.test.ts)", token: resealed({}, () => freshClaims({ nbf: now() + 3600 })) },
  { case: "iat an hour ahead (also in jwt/session-token.test.ts)", token: resealed({}, () => freshClaims({ iat: now() + 3600 })) },
  { case: "iat 20 seconds ahead, past the 15-second tolerance", token: resealed({}, () => freshClaims({ iat: now() + 20 })) },
  { case: "an exp that is not a number (also in jwt/session-token.test.ts)", token: resealed({}, () => freshClaims({ exp: "never" })) },
  { case: "claims that are a JSON array (also in jwt/session-token.test.ts)", token: resealed({}, () => [freshClaims()]) },
  { case: "claims that are not JSON", token: resealed({}, () => "sub=tampering-user") },
  // Keys: another salt or secret.
  {
    case: "sealed for the plain-http cookie name authjs.session-token (also in jwt/session-token.test.ts)",
    token: () => encode({ token: freshClaims(), secret: SECRET, salt: "authjs.session-token" }),
  },
  { case: "sealed with the OAuth state parameter's salt (a value the provider sees)", token: () => encode({ token: freshClaims(), secret: SECRET, salt: "encodedState" }) },
  { case: "sealed for the PKCE cookie's name", token: () => encode({ token: freshClaims(), secret: SECRET, salt: "__Secure-authjs.pkce.code_verifier" }) },
  { case: "sealed with the WebAuthn challenge's salt", token: () => encode({ token: freshClaims(), secret: SECRET, salt: "encodedWebauthnChallenge" }) },
  { case: "sealed with another secret", token: () => encode({ token: freshClaims(), secret: OTHER_SECRET, salt: SALT }) },
  {
    case: "sealed with a secret rotated out of the list",
    token: () => encode({ token: freshClaims(), secret: OLD_SECRET, salt: SALT }),
    secret: [SECRET],
  },
]

const acceptedRows: (Row & { why: string })[] = [
  { case: "a token encode() made with the right secret and salt", why: "the control", token: realToken },
  { case: "a token sealed by node:crypto under the standard header", why: "the forging helper makes valid tokens", token: resealed({}) },
  {
    case: "a token sealed with an older secret still in the list",
    why: "secret rotation",
    token: () => encode({ token: freshClaims(), secret: OLD_SECRET, salt: SALT }),
    secret: [SECRET, OLD_SECRET],
  },
  {
    case: "a token without a kid, sealed with the first secret",
    why: "Auth.js tokens from before key ids; only the first secret is tried",
    token: resealed({ kid: undefined }),
    secret: [SECRET, OLD_SECRET],
  },
  {
    case: "an A256GCM token keyed by the 32-byte derivation",
    why: "Auth.js reads these too",
    token: async () => {
      const key = derivedKey(SECRET, SALT, 32)
      return sealed({ alg: "dir", enc: "A256GCM", kid: await kidOf(key) }, freshClaims(), key)
    },
  },
  { case: "iat 10 seconds ahead", why: "within the 15-second clock tolerance", token: resealed({}, () => freshClaims({ iat: now() + 10 })) },
]

describe("tokens refused by decode() and by GET /auth/session", () => {
  it.each(refusedRows.map((row) => [row.case, row] as const))("refuses %s", async (_, row) => {
    const token = await row.token()
    expect(await refusedByDecode(token, row.secret)).toBe(true)
    const before = log.lines.length
    const answer = await sessionThroughAuth(token, row.secret ? appConfig(row.secret) : APP)
    expect(answer.session).toBeNull()
    expect(refusedByAuth(answer), answer.setCookies.join("\n")).toBe(true)
    expect(log.lines.slice(before).map((line) => line.code)).toContain("JWTSessionError")
  })
})

describe("tokens accepted on purpose", () => {
  it.each(acceptedRows.map((row) => [row.case, row.why, row] as const))("accepts %s (%s)", async (_, __, row) => {
    const token = await row.token()
    expect(await decode({ token, secret: row.secret ?? SECRET, salt: SALT })).toMatchObject({ sub: "tampering-user" })
    const answer = await sessionThroughAuth(token, row.secret ? appConfig(row.secret) : APP)
    expect(answer.session).toMatchObject({ user: { email: "tamper@app.test" } })
    expect(answer.setCookies.filter((line) => /; Max-Age=0(;|$)/.test(line))).toEqual([])
  })
})

describe("every bit of a real token", () => {
  // The encrypted key part is empty in a dir token: there are no bits to flip (adding any is refused above).
  const flippable = PARTS.map((name, index) => ({ name, index })).filter(({ name }) => name !== "encrypted key")

  it.each(flippable.map(({ name, index }) => [name, index] as const))("refuses every single-bit change of the %s", async (_, index) => {
    const token = await realToken()
    expect(await refusedByDecode(token)).toBe(false)
    const flips = bitFlipsOf(token, index)
    expect(flips.length).toBeGreaterThanOrEqual(128)
    const acceptedByDecode: number[] = []
    const acceptedByAuth: number[] = []
    for (const { bit, token: changed } of flips) {
      if (!(await refusedByDecode(changed))) acceptedByDecode.push(bit)
      if (!refusedByAuth(await sessionThroughAuth(changed))) acceptedByAuth.push(bit)
    }
    expect(acceptedByDecode).toEqual([])
    expect(acceptedByAuth).toEqual([])
  })
})

describe("every truncation of a real token", () => {
  it("refuses every proper prefix of the whole token", async () => {
    const token = await realToken()
    const accepted: number[] = []
    for (let length = 1; length < token.length; length++) {
      const cut = token.slice(0, length)
      if (!(await refusedByDecode(cut)) || !refusedByAuth(await sessionThroughAuth(cut))) accepted.push(length)
    }
    expect(accepted).toEqual([])
  })

  it("answers an empty cookie as no session, without clearing anything", async () => {
    expect(await decode({ token: "", secret: SECRET, salt: SALT })).toBeNull()
    const answer = await sessionThroughAuth("")
    expect(answer.session).toBeNull()
    expect(answer.setCookies).toEqual([])
  })

  it("refuses every shorter form of each part, and each part with characters added, the other parts intact", async () => {
    const token = await realToken()
    const parts = token.split(".")
    const accepted: string[] = []
    for (const [index, name] of PARTS.entries()) {
      const variants = [
        ...Array.from({ length: parts[index]!.length }, (_, length) => parts[index]!.slice(0, length)),
        ...["A", "AA", "AAAA", "_-_-"].map((extra) => parts[index]! + extra),
      ].filter((variant) => variant !== parts[index])
      for (const variant of variants) {
        const changed = withPart(token, index, variant)
        if (!(await refusedByDecode(changed)) || !refusedByAuth(await sessionThroughAuth(changed))) accepted.push(`${name}: ${JSON.stringify(variant)}`)
      }
    }
    expect(accepted).toEqual([])
  })
})

/**
 * CSRF protection by double submit, in Auth.js's format so either library accepts the other's
 * cookie: the cookie holds `token|sha256(token + secret)`, and a state-changing POST must echo
 * `token` in its body as `csrfToken`. The hash binds the cookie to the secret, so nobody can invent
 * a pair; a real pair fetched from `GET csrf` can still be planted by a sibling subdomain, which is
 * what the `__Host-` prefix of the default (https) cookie name prevents. Keep that prefix when
 * overriding `cookies.csrfToken`.
 * @module
 */
import { sha256Hex } from "../encoding/hex.js"
import { randomHex, timingSafeEqual } from "./crypto.js"

/** The request's CSRF state: the token to hand out, and whether this request proved it. */
export interface CsrfState {
  token: string
  /** Set when the token was newly minted: the cookie value to send. */
  cookieValue: string | undefined
  /** True when the request is a POST whose body `csrfToken` matches a valid cookie. */
  verified: boolean
}

/**
 * Checks the CSRF cookie and the submitted token; mints a new token when the cookie is missing
 * or was not made with this secret.
 *
 * @param secret - Joined as Auth.js joins it (`String(secrets)`), so hashes agree across libraries.
 */
export async function csrfState(
  cookieValue: string | undefined,
  submitted: unknown,
  isPost: boolean,
  secret: readonly string[],
): Promise<CsrfState> {
  const secretString = secret.join(",")
  if (cookieValue) {
    const separator = cookieValue.indexOf("|")
    if (separator > 0) {
      const token = cookieValue.slice(0, separator)
      const hash = cookieValue.slice(separator + 1)
      if (timingSafeEqual(hash, await sha256Hex(`${token}${secretString}`))) {
        const verified = isPost && typeof submitted === "string" && timingSafeEqual(submitted, token)
        return { token, cookieValue: undefined, verified }
      }
    }
  }
  const token = randomHex(32)
  return { token, cookieValue: `${token}|${await sha256Hex(`${token}${secretString}`)}`, verified: false }
}

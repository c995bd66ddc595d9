/**
 * Sign-in link tokens: made at random, stored only as a hash with the secret (as Auth.js stores
 * them, so its pending links keep working), and put in the link the email carries.
 * @module
 */
import type { EmailConfig } from "../../providers/types.js"
import { sha256Hex } from "../../encoding/hex.js"
import { randomHex } from "../crypto.js"
import { routeUrl, type RequestContext } from "../request-context.js"
import { AuthError } from "../../errors.js"

/** Seconds a link stays valid unless the provider says otherwise: one day. */
export const DEFAULT_LINK_MAX_AGE = 86_400

/** A new raw token: the provider's `generateVerificationToken`, or 32 random bytes as hex. */
export async function newVerificationToken(provider: EmailConfig): Promise<string> {
  const token: unknown = provider.generateVerificationToken ? await provider.generateVerificationToken() : randomHex(32)
  if (typeof token !== "string" || token === "") {
    throw new AuthError(`generateVerificationToken of ${JSON.stringify(provider.id)} must return a non-empty string`)
  }
  return token
}

/**
 * The stored forms of `token`, `sha256(token + secret)`: the first is the one to store (the
 * provider's secret, or the current one); the others find links sent before a secret rotation,
 * including Auth.js's, which hashes a list of secrets joined with commas.
 */
export async function storedTokens(ctx: RequestContext, provider: EmailConfig, token: string): Promise<string[]> {
  const configured = ctx.config.secret
  const secrets =
    typeof provider.secret === "string" && provider.secret !== ""
      ? [provider.secret]
      : configured.length > 1
        ? [...configured, configured.join(",")]
        : configured
  return Promise.all(secrets.map((secret) => sha256Hex(`${token}${secret}`)))
}

/** Seconds a sign-in code stays valid unless the provider says otherwise (and at most): 10 minutes. */
export const DEFAULT_CODE_MAX_AGE = 600

/**
 * The stored forms of a sign-in `code` sent with `nonce` (held by the asking browser's binding
 * cookie): a hash of both with the secret, the first to store, the others for a rotation. Short
 * codes repeat across addresses and requests; bound to the nonce, a stored code is found only
 * from the browser that asked for it.
 */
export async function storedCodeTokens(ctx: RequestContext, provider: EmailConfig, nonce: string, code: string): Promise<string[]> {
  const secrets = typeof provider.secret === "string" && provider.secret !== "" ? [provider.secret] : ctx.config.secret
  return Promise.all(secrets.map((secret) => sha256Hex(`gatehouse.email-code\u0000${secret}\u0000${nonce}\u0000${code}`)))
}

/** Seconds what `provider` sends (a link, a code) stays valid. */
export function emailTokenLife(provider: EmailConfig): number {
  return provider.maxAge ?? (provider.code !== undefined ? DEFAULT_CODE_MAX_AGE : DEFAULT_LINK_MAX_AGE)
}

/** Digits of `provider`'s sign-in codes, or `undefined` when it sends links. */
export function signInCodeDigits(provider: EmailConfig): number | undefined {
  const { code } = provider
  if (code === undefined) return undefined
  return code === true ? 6 : (code.digits ?? 6)
}

/** `{origin}{basePath}/callback/<id>?callbackUrl=…&token=…&email=…`, the link the email carries. */
export function signInLink(ctx: RequestContext, provider: EmailConfig, token: string, identifier: string): string {
  const query = new URLSearchParams({ callbackUrl: ctx.callbackUrl, token, email: identifier })
  return `${routeUrl(ctx, `callback/${encodeURIComponent(provider.id)}`)}?${query}`
}

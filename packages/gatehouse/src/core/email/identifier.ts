/**
 * Which address a sign-in email goes to. What was typed is normalised first (NFKC, so a
 * full-width `＠` or other look-alikes become the characters they resemble) and validated after:
 * validating first would let an address that normalises into two `@`s through (Auth.js had an
 * advisory for that order). Characters that mean something in an address header (quotes, commas,
 * angle brackets, spaces) are refused, so a mailer never reads one input as two recipients.
 * @module
 */
import { InvalidEmail } from "../../errors.js"
import type { EmailConfig } from "../../providers/types.js"

// Structural characters of address headers, whitespace (Unicode included) and controls; `%` and
// `!` (source routing) and `=?` (an RFC 2047 encoded word, which some servers decode into
// another address) let one mail server read an address another would deliver elsewhere.
const FORBIDDEN = /[\s"`(),:;<>[\]\\%!\p{Cc}\p{Cf}]|=\?/u
const DOMAIN_LABEL = /^(?![-_])[\p{L}\p{N}_-]{1,63}(?<![-_])$/u

/**
 * The address to send to: the provider's `normalizeIdentifier` if it has one (its result must
 * still be a safe address), else the lower-cased, trimmed NFKC form of `input`.
 *
 * @throws {InvalidEmail} when there is no address, or it is not one a link can be sent to.
 */
export function emailIdentifier(provider: EmailConfig, input: unknown): string {
  if (typeof input !== "string" || input.trim() === "") throw new InvalidEmail("Missing email from request body.")
  if (provider.normalizeIdentifier) {
    let custom: unknown
    try {
      custom = provider.normalizeIdentifier(input)
    } catch (error) {
      throw new InvalidEmail(error instanceof Error ? error.message : String(error), { cause: { provider: provider.id } })
    }
    if (typeof custom !== "string") throw new InvalidEmail(`normalizeIdentifier of ${JSON.stringify(provider.id)} must return a string`)
    return assertAddress(custom)
  }
  return plainEmailAddress(input)
}

/**
 * The lower-cased, trimmed NFKC form of `input`, when it is one plain `local@domain` address.
 * @throws {InvalidEmail} otherwise.
 */
export function plainEmailAddress(input: string): string {
  return assertAddress(input.normalize("NFKC").trim().toLowerCase())
}

/** `address` if it is one plain `local@domain` address; throws otherwise. */
function assertAddress(address: string): string {
  if (address.length > 254) throw new InvalidEmail("The email address is too long")
  const parts = address.split("@")
  if (parts.length !== 2) throw new InvalidEmail("An email address has exactly one @")
  const [local, domain] = parts as [string, string]
  if (local === "" || local.length > 64 || FORBIDDEN.test(local) || /^\.|\.$|\.\./.test(local)) {
    throw new InvalidEmail("The part of the email address before the @ is not valid")
  }
  if (!domain.split(".").every((label) => DOMAIN_LABEL.test(label))) {
    throw new InvalidEmail("The domain of the email address is not valid")
  }
  return address
}

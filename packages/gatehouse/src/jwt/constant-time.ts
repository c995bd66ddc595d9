/**
 * The one constant-time comparison Gatehouse makes of secret-derived bytes (JWE tags, CSRF
 * hashes and tokens). It lives here, in the leaf that `jwt/` and `core/` can both import, so
 * there is a single primitive to review and test.
 * @module
 */

/**
 * Whether `a` and `b` hold the same bytes. Every byte of equal-length inputs is read whatever the
 * first difference, so the time taken depends only on the lengths, which are public.
 */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!
  return difference === 0
}

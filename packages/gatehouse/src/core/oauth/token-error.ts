/**
 * Token endpoint errors answered with HTTP 200, as GitHub answers every one of them
 * (`{ "error": "bad_verification_code" }`). oauth4webapi takes a 200 for a token response and
 * fails on the missing `access_token`, which would hide what the provider said; a body with an
 * `error` and no `access_token` is an error response whatever its status (RFC 6749 §5.2).
 * @module
 */

/** The OAuth `error` of a 200 token response that carries one and no access token; else `undefined`. */
export async function errorWithSuccessStatus(response: Response): Promise<string | undefined> {
  if (response.status !== 200) return undefined
  try {
    const body = (await response.clone().json()) as { error?: unknown; access_token?: unknown } | null
    return typeof body?.error === "string" && body.access_token === undefined ? body.error : undefined
  } catch {
    return undefined
  }
}

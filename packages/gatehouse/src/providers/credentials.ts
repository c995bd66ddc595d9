/**
 * Sign-in with whatever the user types into a form (a username and password, a one-time code),
 * checked by your own `authorize` function.
 *
 * @example
 * ```ts
 * import Credentials from "gatehouse-auth/providers/credentials"
 *
 * const provider = Credentials({
 *   credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
 *   async authorize(input) {
 *     const user = await findUserByEmail(String(input.email))
 *     return user && (await verifyPassword(user.passwordHash, String(input.password))) ? user : null
 *   },
 * })
 * ```
 * @module gatehouse-auth/providers/credentials
 */
import type { Awaitable, User } from "../resources.js"
import type { CredentialInput, CredentialsConfig, CredentialsRateLimits } from "./types.js"

/** Options of {@link Credentials}; only `authorize` is required. */
export interface CredentialsOptions {
  /** Default `credentials`. */
  id?: string
  /** Shown on the sign-in page's button. Default `Credentials`. */
  name?: string
  /** The form fields of the built-in sign-in page, keyed by the name they are posted under. */
  credentials?: Record<string, CredentialInput>
  /**
   * Returns the user for the submitted fields, or `null` to refuse. Throw a subclass of
   * `CredentialsSignin` with your own `code` to tell the sign-in page why, without saying which
   * field was wrong. `request` is the sign-in request, with the fields as a JSON body.
   */
  authorize: (credentials: Partial<Record<string, unknown>>, request: Request) => Awaitable<User | null>
  /**
   * Removes the credentials `authorize` checks for `user` (their password) and says whether there
   * were any. Called when someone proves the address of a stored user whose address was never
   * proven: a password whoever made the account chose must stop working then. See
   * {@link CredentialsConfig.revokeCredentials}.
   *
   * @example
   * ```ts
   * revokeCredentials: async (user) => (await db.passwords.delete({ userId: user.id })).count > 0
   * ```
   */
  revokeCredentials?: CredentialsConfig["revokeCredentials"]
  /**
   * Throttling of sign-in attempts, per identifier (default 10 per 15 minutes) and per client IP
   * (default 100 per 15 minutes), checked before `authorize`; `false` turns it off. See
   * {@link CredentialsRateLimits} for what is counted and why.
   */
  rateLimit?: CredentialsRateLimits | false
}

/**
 * A credentials provider. A session made by it lives as long as any other; there is no
 * re-check of the credentials, so revoke access through the `jwt` callback if you must.
 *
 * @example
 * ```ts
 * Credentials({ authorize: async ({ code }) => (code === expected ? { id: "1", name: "Ada" } : null) })
 * ```
 */
export function Credentials(options: CredentialsOptions): CredentialsConfig {
  return {
    id: "credentials",
    name: "Credentials",
    credentials: {},
    ...options,
    type: "credentials",
  }
}

export default Credentials

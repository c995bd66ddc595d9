/**
 * Sign-in with Apple.
 * @module gatehouse-auth/providers/apple
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The `user` parameter Apple posts to the callback, on the user's first sign-in only. */
export interface AppleCallbackUser {
  /** The name the user chose to share. */
  name?: {
    /** Given name. */
    firstName?: string
    /** Family name. */
    lastName?: string
  }
  /** The email address the user chose to share; not used (the ID token's is). */
  email?: string
}

/** The claims of an Apple ID token, plus the `user` parameter once merged in. */
export interface AppleProfile {
  [claim: string]: unknown
  /** The user's id at Apple, stable for your team; the user's `id`. */
  sub: string
  /** Absent when the user declined to share it; may be a private relay address. */
  email?: string
  /** Whether Apple checked the address; Apple sends it as a string or a boolean. */
  email_verified?: boolean | "true" | "false"
  /** Whether `email` is a private relay address. */
  is_private_email?: boolean | "true" | "false"
  /** Set by `profileFromCallback` when Apple sent the user's name. */
  user?: AppleCallbackUser
}

/**
 * Sign in with Apple. Apple sends the user's name once, on the first sign-in, as a JSON `user`
 * parameter of the form-posted callback; `profileFromCallback` keeps it as `profile.user`, so
 * `profile()` sees the name on that sign-in only, which is when the user is created.
 *
 * `clientSecret` must be a JWT signed with your Sign in with Apple key, and it expires (at most
 * six months); `clientId` is the Services ID.
 *
 * @example
 * ```ts
 * Apple({ clientId: env.AUTH_APPLE_ID, clientSecret: env.AUTH_APPLE_SECRET })
 * ```
 */
export function Apple(options?: OAuthUserConfig<AppleProfile>): OAuthConfig {
  return oauthProvider<AppleProfile>(
    {
      id: "apple",
      name: "Apple",
      type: "oidc",
      issuer: "https://appleid.apple.com",
      // Apple returns the code by POST (form_post) whenever the name or email scope is asked for.
      // The authorization endpoint comes from Apple's discovery document, as in Auth.js.
      authorization: { params: { scope: "name email", response_mode: "form_post" } },
      // Auth.js's checks: the ID token's nonce (Apple echoes it) binds the code to this browser.
      checks: ["nonce", "state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      profileFromCallback(profile, params) {
        const user = parseUser(params.get("user"))
        return user ? { ...profile, user } : profile
      },
      profile(profile) {
        const name = [profile.user?.name?.firstName, profile.user?.name?.lastName].filter(Boolean).join(" ")
        // The email comes from the signed ID token only: the `user` parameter passes through the
        // browser, so whoever signs in could put any address there.
        return { id: profile.sub, name: name || null, email: profile.email ?? null, image: null }
      },
      style: { bg: "#000", text: "#fff" },
    },
    options,
  )
}

/** The `user` parameter, or `undefined` when it is absent or not a JSON object. */
function parseUser(raw: string | null): AppleCallbackUser | undefined {
  if (!raw) return undefined
  try {
    const user: unknown = JSON.parse(raw)
    return user !== null && typeof user === "object" && !Array.isArray(user) ? (user as AppleCallbackUser) : undefined
  } catch {
    // The parameter is only ever a bonus; a malformed one must not break the sign-in.
    return undefined
  }
}

export default Apple

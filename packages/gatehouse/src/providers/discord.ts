/**
 * Sign-in with Discord.
 * @module gatehouse-auth/providers/discord
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The user as `GET /users/@me` returns it. */
export interface DiscordProfile {
  [field: string]: unknown
  /** A snowflake: a 64-bit integer, sent as a string. */
  id: string
  /** The unique username, used as the name when there is no display name. */
  username: string
  /** `"0"` for users on the new unique usernames; a four-digit tag for the others. */
  discriminator: string
  /** The display name; the user's `name`. */
  global_name: string | null
  /** An image hash; `a_` in front means an animated avatar. */
  avatar: string | null
  /** The email address (with the `email` scope). */
  email?: string | null
  /** Whether the user verified the address with Discord. */
  verified?: boolean
}

/**
 * A Discord application with the `identify` and `email` scopes. Users without an avatar get
 * Discord's default one, picked the way the Discord client picks it.
 *
 * @example
 * ```ts
 * Discord({ clientId: env.AUTH_DISCORD_ID, clientSecret: env.AUTH_DISCORD_SECRET })
 * ```
 */
export function Discord(options?: OAuthUserConfig<DiscordProfile>): OAuthConfig {
  return oauthProvider<DiscordProfile>(
    {
      id: "discord",
      name: "Discord",
      type: "oauth",
      authorization: { url: "https://discord.com/api/oauth2/authorize", params: { scope: "identify email" } },
      token: "https://discord.com/api/oauth2/token",
      userinfo: "https://discord.com/api/users/@me",
      profile: (profile) => ({
        id: String(profile.id),
        name: profile.global_name ?? profile.username,
        email: profile.email ?? null,
        image: avatarUrl(profile),
      }),
      style: { bg: "#5865F2", text: "#fff" },
    },
    options,
  )
}

function avatarUrl({ id, avatar, discriminator }: DiscordProfile): string {
  if (avatar) {
    return `https://cdn.discordapp.com/avatars/${id}/${avatar}.${avatar.startsWith("a_") ? "gif" : "png"}`
  }
  // Discord's rule: six defaults keyed by the id's timestamp for new usernames, five by the old tag.
  // A malformed id must not fail the sign-in over a picture, hence the digit check before BigInt.
  const legacy = discriminator !== "0" && /^\d+$/.test(discriminator ?? "")
  const index = legacy ? Number(discriminator) % 5 : /^\d+$/.test(id) ? Number((BigInt(id) >> 22n) % 6n) : 0
  return `https://cdn.discordapp.com/embed/avatars/${index}.png`
}

export default Discord

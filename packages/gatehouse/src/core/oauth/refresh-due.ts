/**
 * Whether an access token is due for refreshing, and by which provider: what every session read
 * asks, kept apart from the refresh itself (./token-refresh.ts), which loads the OAuth client only
 * when a refresh is due.
 * @module
 */
import type { OAuthConfig } from "../../providers/types.js"

/** Seconds before `expires_at` at which a token counts as expired: it must outlive the request using it. */
const EXPIRY_MARGIN = 60

/** The OAuth provider with this id, if it has `refreshAccessToken` on. */
export function refreshingProvider(providers: readonly { id: string; type: string }[], id: unknown): OAuthConfig | undefined {
  const provider = providers.find((candidate) => candidate.id === id) as OAuthConfig | undefined
  return provider && (provider.type === "oauth" || provider.type === "oidc") && provider.refreshAccessToken === true
    ? provider
    : undefined
}

/**
 * Whether an access token expiring at `expiresAt` (seconds since the epoch) needs refreshing now.
 * A numeric string counts (SQL drivers return BIGINT columns as strings); no expiry never expires.
 */
export function isExpiring(expiresAt: unknown, now = Date.now()): boolean {
  const seconds = typeof expiresAt === "string" && expiresAt.trim() !== "" ? Number(expiresAt) : expiresAt
  return typeof seconds === "number" && Number.isFinite(seconds) && seconds - EXPIRY_MARGIN <= now / 1000
}

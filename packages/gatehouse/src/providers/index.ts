/**
 * The provider types in one place, for code that imports them from `next-auth/providers` or
 * `@auth/core/providers`: what a provider is (`Provider`, `ProviderType`, each kind's config),
 * the ids of the built-in ones (`ProviderId`), and Auth.js's OAuth names (see
 * `gatehouse-auth/providers/oauth`). Types only: each provider itself is imported from its own
 * subpath, `gatehouse-auth/providers/<name>`, so an app loads only the providers it uses.
 *
 * @example
 * ```ts
 * import type { Provider } from "gatehouse-auth/providers"
 * import GitHub from "gatehouse-auth/providers/github"
 *
 * export const providers: Provider[] = [GitHub]
 * ```
 * @module gatehouse-auth/providers
 */
import type { OAuthProviderId, EmailProviderId } from "./provider-types.js"
import type { CommonProviderOptions, EmailConfig, ProviderConfig, ProviderType, VerificationRequestParams } from "./types.js"

export type {
  CommonProviderOptions,
  CredentialInput,
  CredentialsConfig,
  EmailConfig,
  Provider,
  ProviderType,
  WebAuthnConfig,
} from "./types.js"
export type { CredentialsOptions } from "./credentials.js"
export type { EmailProviderId, OAuthProviderId } from "./provider-types.js"
export type * from "./oauth.js"

/** The type of email (magic link) providers. */
export type EmailProviderType = "email"

/** What an email provider's `sendVerificationRequest` is given (Auth.js's name for {@link VerificationRequestParams}). */
export type EmailProviderSendVerificationRequestParams = VerificationRequestParams

/** The options of a custom email provider: any field of its config but its type. */
export type EmailUserConfig = Omit<Partial<EmailConfig>, "options" | "type">

/** The id of the credentials provider. */
export type CredentialsProviderId = "credentials"

/** The type (and id) of the passkey provider. */
export type WebAuthnProviderType = "webauthn"

/** The id of any provider: a built-in one's, or your own. */
export type ProviderId = CredentialsProviderId | EmailProviderId | OAuthProviderId | WebAuthnProviderType | (string & {})

/** The provider factories of the built-in catalogue, by id. */
export type BuiltInProviders = Record<ProviderId, (options?: Record<string, unknown>) => ProviderConfig>

/** What the `providers` option holds. */
export type AppProviders = ProviderConfig[]

/** A provider as the sign-in page lists it: where to sign in with it, and where it calls back. */
export interface AppProvider extends CommonProviderOptions {
  /** The provider's sign-in route, `{basePath}/signin/<id>`. */
  signinUrl: string
  /** The provider's callback route, `{basePath}/callback/<id>`. */
  callbackUrl: string
  /** The provider's kind. */
  type: ProviderType
}

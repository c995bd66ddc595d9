/**
 * Sign-in with BankID (Norway), through BankID's OpenID Connect service.
 * @module gatehouse-auth/providers/bankid-no
 */
import type { OAuthConfig } from "./types.js"
import { oauthProvider, type OAuthUserConfig } from "./oauth-user-config.js"

/** The claims BankID's userinfo endpoint returns (signed), with the ID token's. */
export interface BankIDNorwayProfile {
  [claim: string]: unknown
  /** BankID's id for the person; the user's `id`. */
  sub: string
  /** Full name; the user's `name`. */
  name: string
  /** The given name. */
  given_name?: string
  /** The family name. */
  family_name?: string
  /** Date of birth, `YYYY-MM-DD`. */
  birthdate?: string
  /** The email address (only from the userinfo endpoint, with the `email` scope). */
  email?: string
  /** How the person signed in: BankID (`BID`), BankID on mobile (`BIM`) or the BankID app (`BIS`). */
  amr?: "BID" | "BIM" | "BIS" | string
  /** The identity provider and level of assurance, e.g. `urn:bankid:bid;LOA=4`. */
  acr?: string
  /** The personal identifier of the person's BankID certificate. */
  bankid_altsub?: string
  /** The Norwegian national identity number, with the `nnin_altsub` scope. */
  nnin_altsub?: string
}

/**
 * BankID through OpenID Connect discovery at `https://auth.bankid.no/auth/realms/prod`. The
 * profile is read from the userinfo endpoint, which BankID answers with a signed JWT: an answer
 * that is not a JWT, not RS256, or about another person than the ID token is refused. (Like
 * Auth.js, Gatehouse reads its claims as it reads an ID token from the token endpoint, trusting
 * the TLS connection to BankID rather than checking the signature.) The client authenticates
 * with its secret in the form. PKCE, `state` and `nonce` are all checked. The sign-in page is Norwegian and offers the BankID app
 * first (`ui_locales: "no"`, `login_hint: "BIS"`).
 *
 * @example
 * ```ts
 * BankIDNorway({ clientId: env.AUTH_BANKID_NO_ID, clientSecret: env.AUTH_BANKID_NO_SECRET })
 * BankIDNorway({ authorization: { params: { ui_locales: "en" } } }) // the sign-in page in English
 * ```
 */
export function BankIDNorway(options?: OAuthUserConfig<BankIDNorwayProfile>): OAuthConfig {
  return oauthProvider<BankIDNorwayProfile>(
    {
      id: "bankid-no",
      name: "BankID Norge",
      type: "oidc",
      issuer: "https://auth.bankid.no/auth/realms/prod",
      client: { token_endpoint_auth_method: "client_secret_post", userinfo_signed_response_alg: "RS256" },
      idToken: false,
      authorization: { params: { ui_locales: "no", login_hint: "BIS" } },
      checks: ["pkce", "state", "nonce"],
      profile: (profile) => ({ id: profile.sub, name: profile.name ?? null, email: profile.email ?? null, image: null }),
      style: { bg: "#39134c", text: "#fff" },
    },
    options,
  )
}

export default BankIDNorway

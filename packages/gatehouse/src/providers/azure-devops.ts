/**
 * Sign-in with Azure DevOps Services OAuth.
 * @module gatehouse-auth/providers/azure-devops
 */
import type { OAuthConfig } from "./types.js"
import { conformJson, oauthProvider, withoutFetch, type OAuthUserConfig } from "./oauth-user-config.js"

/** The profile as `GET /_apis/profile/profiles/me?details=true&coreAttributes=Avatar` returns it. */
export interface AzureDevOpsProfile {
  [field: string]: unknown
  /** The profile id; the user's `id`. */
  id: string
  /** The display name; the user's `name`. */
  displayName: string
  /** The email address; the user's `email`. */
  emailAddress: string
  /** The avatar, a base64 image in `Avatar.value.value`; the user's `image` as a data URL. */
  coreAttributes?: {
    /** The avatar attribute. */
    Avatar?: {
      /** The attribute's value. */
      value?: {
        /** The image, base64. */
        value?: string
      }
    }
  }
}

/** Options of {@link AzureDevOpsProvider}. */
export type AzureDevOpsOptions = OAuthUserConfig<AzureDevOpsProfile> & {
  /** The scopes to ask for, space-separated. Default `vso.profile`. */
  scope?: string
}

const TOKEN_URL = "https://app.vssps.visualstudio.com/oauth2/token"
const JWT_BEARER_ASSERTION = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
const JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer"

/**
 * An Azure DevOps Services OAuth app (`vso.profile` scope). Microsoft no longer registers new
 * Azure DevOps OAuth apps and recommends Microsoft Entra ID (`gatehouse-auth/providers/microsoft-entra-id`)
 * instead; this provider is for apps registered before.
 *
 * Azure DevOps does not take a standard code grant: the code is sent as the `assertion` of a
 * JWT-bearer grant, and the app's client secret (itself a JWT) as a `client_assertion`. This
 * provider's `fetch` rewrites the token requests Gatehouse makes into that form (pass your own
 * `fetch` as an option: it is used underneath), and its `token.conform` reads Azure DevOps's
 * `token_type: "jwt-bearer"` as a bearer token. Azure DevOps does not do PKCE, so `state` alone
 * protects the sign-in.
 *
 * Auth.js's module names `…/oauth2/authorize` as the token endpoint; this one uses `…/oauth2/token`.
 *
 * @example
 * ```ts
 * AzureDevOpsProvider({ clientId: env.AUTH_AZURE_DEVOPS_ID, clientSecret: env.AUTH_AZURE_DEVOPS_SECRET })
 * AzureDevOpsProvider({ scope: "vso.profile vso.project" })
 * ```
 */
export function AzureDevOpsProvider(options: AzureDevOpsOptions = {}): OAuthConfig {
  const { scope = "vso.profile", ...others } = options
  const { fetch: next, rest } = withoutFetch(others)
  return oauthProvider<AzureDevOpsProfile>(
    {
      id: "azure-devops",
      name: "Azure DevOps",
      type: "oauth",
      checks: ["state"],
      authorization: { url: "https://app.vssps.visualstudio.com/oauth2/authorize", params: { response_type: "Assertion", scope } },
      token: { url: TOKEN_URL, conform: bearerTokenType },
      userinfo: "https://app.vssps.visualstudio.com/_apis/profile/profiles/me?details=true&coreAttributes=Avatar&api-version=6.0",
      // The secret goes in the form, where the rewrite below turns it into the client assertion.
      client: { token_endpoint_auth_method: "client_secret_post" },
      fetch: assertionGrantFetch(next),
      profile: (profile) => {
        const avatar = profile.coreAttributes?.Avatar?.value?.value
        return {
          id: profile.id,
          name: profile.displayName ?? null,
          email: profile.emailAddress ?? null,
          image: avatar ? `data:image/jpeg;base64,${avatar}` : null,
        }
      },
      style: { bg: "#0078d4", text: "#fff" },
    },
    rest,
  )
}

/**
 * A fetch that sends Gatehouse's token requests (code and refresh grants) the way Azure DevOps
 * takes them, through `next` (or the global fetch); every other request passes unchanged.
 */
function assertionGrantFetch(next: typeof fetch | undefined): typeof fetch {
  return (input, init) => {
    const send = next ?? globalThis.fetch
    const form = init?.body instanceof URLSearchParams ? assertionGrant(init.body) : undefined
    return form ? send(input, { ...init, body: form }) : send(input, init)
  }
}

/** The Azure DevOps form of a code or refresh grant; `undefined` for any other request body. */
function assertionGrant(body: URLSearchParams): URLSearchParams | undefined {
  const grant = body.get("grant_type")
  const assertion = grant === "authorization_code" ? body.get("code") : grant === "refresh_token" ? body.get("refresh_token") : null
  if (assertion === null) return undefined
  const form = new URLSearchParams({
    client_assertion_type: JWT_BEARER_ASSERTION,
    client_assertion: body.get("client_secret") ?? "",
    grant_type: grant === "authorization_code" ? JWT_BEARER_GRANT : "refresh_token",
    assertion,
  })
  const redirectUri = body.get("redirect_uri")
  if (redirectUri !== null) form.set("redirect_uri", redirectUri)
  return form
}

/** Azure DevOps calls its access tokens `jwt-bearer`; they are used as bearer tokens, which is what oauth4webapi accepts. */
function bearerTokenType(response: Response): Promise<Response | undefined> {
  return conformJson(response, (body) =>
    typeof body.token_type === "string" && body.token_type.toLowerCase() === "jwt-bearer" ? { ...body, token_type: "bearer" } : undefined,
  )
}

export default AzureDevOpsProvider

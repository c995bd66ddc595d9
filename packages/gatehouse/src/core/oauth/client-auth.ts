/**
 * Who the client is, and how it authenticates at the token endpoint (`client.token_endpoint_auth_method`).
 * @module
 */
import * as o from "oauth4webapi"
import { InvalidConfig } from "../../errors.js"
import type { OAuthConfig } from "../../providers/types.js"

/** The client as oauth4webapi sees it: its id and metadata (the private key stays out). */
export function clientOf(provider: OAuthConfig): o.Client {
  const { privateKey: _key, ...metadata } = provider.client ?? {}
  return { client_id: provider.clientId ?? "", ...metadata }
}

/**
 * `client_secret_basic` (the default), `client_secret_post`, `client_secret_jwt`, `none`, or
 * `private_key_jwt` with `client.privateKey` (a `CryptoKey`, or `{ key, kid }`).
 */
export async function clientAuthentication(provider: OAuthConfig): Promise<o.ClientAuth> {
  const method = provider.client?.token_endpoint_auth_method ?? "client_secret_basic"
  const secret = provider.clientSecret ?? ""
  switch (method) {
    case "client_secret_basic":
      return o.ClientSecretBasic(secret)
    case "client_secret_post":
      return o.ClientSecretPost(secret)
    case "client_secret_jwt":
      return o.ClientSecretJwt(secret)
    case "none":
      return o.None()
    case "private_key_jwt": {
      const key = provider.client?.privateKey as CryptoKey | o.PrivateKey | undefined
      if (!key) throw new InvalidConfig(`Provider ${JSON.stringify(provider.id)} uses private_key_jwt but has no client.privateKey`)
      return o.PrivateKeyJwt(key)
    }
    default:
      throw new InvalidConfig(`Provider ${JSON.stringify(provider.id)} has an unsupported token_endpoint_auth_method ${JSON.stringify(method)}`)
  }
}

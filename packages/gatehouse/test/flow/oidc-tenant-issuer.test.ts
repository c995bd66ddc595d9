/**
 * Multi-tenant Microsoft Entra ID: discovery names a templated issuer (`…/{tenantid}/v2.0`) and
 * each ID token names its own tenant. Microsoft's endpoints are answered by the provider's fetch,
 * with ID tokens signed by a key of this test.
 */
import { exportJWK, generateKeyPair, SignJWT } from "jose"
import { beforeAll, describe, expect, it } from "vitest"
import { MicrosoftEntraID } from "../../src/providers/microsoft-entra-id.js"
import type { AuthConfig } from "../../src/types.js"
import { Client, recordingLogger, secret } from "./flow-helpers.js"

const HOST = "https://login.microsoftonline.com"
const TENANT = "9188040d-6c67-4c5b-b112-36a304b66dad"

let privateKey: CryptoKey
let jwk: Record<string, unknown>

beforeAll(async () => {
  const pair = await generateKeyPair("RS256", { extractable: true })
  privateKey = pair.privateKey as CryptoKey
  jwk = { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "RS256", use: "sig" }
})

function entra(issuerInToken: string) {
  return MicrosoftEntraID({
    clientId: "entra-client",
    clientSecret: "entra-secret",
    fetch: async (input) => {
      const url = String(input instanceof Request ? input.url : input)
      if (url === `${HOST}/common/v2.0/.well-known/openid-configuration`) {
        return Response.json({
          issuer: `${HOST}/{tenantid}/v2.0`,
          authorization_endpoint: `${HOST}/common/oauth2/v2.0/authorize`,
          token_endpoint: `${HOST}/common/oauth2/v2.0/token`,
          jwks_uri: `${HOST}/common/discovery/v2.0/keys`,
          id_token_signing_alg_values_supported: ["RS256"],
        })
      }
      if (url === `${HOST}/common/discovery/v2.0/keys`) return Response.json({ keys: [jwk] })
      if (url === `${HOST}/common/oauth2/v2.0/token`) {
        const idToken = await new SignJWT({ tid: TENANT, name: "Ada", email: "ada@contoso.test", oid: "o-1" })
          .setProtectedHeader({ alg: "RS256", kid: "k1" })
          .setIssuer(issuerInToken)
          .setSubject("entra-sub")
          .setAudience("entra-client")
          .setIssuedAt()
          .setExpirationTime("5m")
          .sign(privateKey)
        return Response.json({ access_token: "at", token_type: "Bearer", expires_in: 3600, id_token: idToken })
      }
      return new Response("not found", { status: 404 })
    },
  })
}

async function signIn(issuerInToken: string) {
  const { logger, lines } = recordingLogger()
  const client = new Client({ secret, trustHost: true, logger, providers: [entra(issuerInToken)] } as AuthConfig)
  const start = await client.postForm("signin/microsoft-entra-id", { csrfToken: await client.csrfToken() })
  const authorize = new URL(start.headers.get("location")!)
  expect(authorize.pathname).toBe("/common/oauth2/v2.0/authorize")
  const back = await client.get(`callback/microsoft-entra-id?${new URLSearchParams({ code: "c", state: authorize.searchParams.get("state")! })}`)
  return { client, back, lines }
}

describe("Microsoft Entra ID across tenants", () => {
  it("accepts an ID token whose issuer names the tenant in its tid claim", async () => {
    const { client, back } = await signIn(`${HOST}/${TENANT}/v2.0`)
    expect(back.headers.get("location")).toBe("https://app.test")
    expect(await client.session()).toMatchObject({ user: { name: "Ada", email: "ada@contoso.test" } })
  })

  it("refuses an ID token whose issuer names another tenant than its tid", async () => {
    const { client, back, lines } = await signIn(`${HOST}/00000000-0000-0000-0000-000000000000/v2.0`)
    expect(back.headers.get("location")).toBe("https://app.test/auth/error?error=Configuration")
    expect(await client.session()).toBeNull()
    expect(lines.map((line) => line.code)).toContain("CallbackRouteError")
  })
})

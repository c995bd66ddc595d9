/**
 * Linked accounts live in the adapter's rows: without an adapter the account functions say so,
 * rather than answering as if nobody were signed in.
 */
import { describe, expect, it } from "vitest"
import { MissingAdapter } from "../../src/errors.js"
import { listAccounts, listSessions, unlinkAccount } from "../../src/index.js"
import { encode } from "../../src/jwt/index.js"
import type { AuthConfig } from "../../src/types.js"

const secret = "linked-accounts-secret-0123456789abcdef0123"
const config: AuthConfig = {
  secret,
  trustHost: true,
  providers: [{ id: "github", name: "GitHub", type: "oauth", clientId: "id", clientSecret: "secret", authorization: "https://gh.test/a", token: "https://gh.test/t", userinfo: "https://gh.test/u" }],
  logger: { error: () => {}, warn: () => {}, debug: () => {} },
}

async function signedInRequest(): Promise<Request> {
  const cookieName = "__Secure-authjs.session-token"
  const token = await encode({ token: { sub: "user-1", name: "Ada" }, secret, salt: cookieName })
  return new Request("https://app.test/account", { headers: { cookie: `${cookieName}=${token}` } })
}

describe("linked accounts without an adapter", () => {
  it("listAccounts and unlinkAccount throw MissingAdapter for a signed-in request", async () => {
    await expect(listAccounts(await signedInRequest(), config)).rejects.toBeInstanceOf(MissingAdapter)
    await expect(unlinkAccount(await signedInRequest(), config, { provider: "github", providerAccountId: "1" })).rejects.toThrow(
      "Linked accounts are stored by the adapter",
    )
  })

  it("still lists the current JWT session, which needs no adapter", async () => {
    const sessions = await listSessions(await signedInRequest(), config)
    expect(sessions).toHaveLength(1)
    expect(sessions[0]).toMatchObject({ current: true })
  })
})

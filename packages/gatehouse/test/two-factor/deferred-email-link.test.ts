/**
 * Dangerous email linking (`allowDangerousEmailAccountLinking`) to a user with a second factor
 * links the provider's account only once the second factor passed: someone who controls a
 * provider account with the user's address, and fails or abandons the second factor, is left with
 * no new way into the account.
 */
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import type { Adapter, AdapterUser } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { sealTotpSecret } from "../../src/core/two-factor/secret-seal.js"
import type { AuthConfig } from "../../src/types.js"
import { githubLikeProvider, startGitHubLikeServer, type GitHubLikeServer } from "../support/github-like-server.js"
import { Client, recordingLogger, secret } from "../flow/flow-helpers.js"
import { totpAt } from "../support/totp-reference.js"

const ORIGIN = "https://app.test"
const DASHBOARD = `${ORIGIN}/dashboard`
const GITHUB_ACCOUNT = { provider: "github", providerAccountId: "1001" }

let github: GitHubLikeServer
beforeAll(async () => {
  github = await startGitHubLikeServer({ redirectUris: [`${ORIGIN}/auth/callback/github`], user: { email: "ada@app.test" } })
})
afterAll(() => github?.stop())

type Adapted = Adapter & Required<Pick<Adapter, "setTotpPendingSecret" | "enableTotp" | "createUser" | "getUserByAccount" | "listSessionsByUserId">>

async function signInWithGitHub(client: Client): Promise<Response> {
  const started = await client.postForm("signin/github", { csrfToken: await client.csrfToken(), callbackUrl: DASHBOARD })
  const approved = await fetch(new URL(started.headers.get("location")!), { redirect: "manual" })
  return client.get(`callback/github${new URL(approved.headers.get("location")!).search}`)
}

describe.each(["jwt", "database"] as const)("%s sessions: dangerous email linking to an enrolled user", (strategy) => {
  async function app(enrolled: boolean) {
    const adapter = MemoryAdapter() as Adapted
    const ada = await adapter.createUser({ id: "", name: "Ada", email: "ada@app.test", emailVerified: new Date() } as AdapterUser)
    let key: Uint8Array | undefined
    if (enrolled) {
      key = new Uint8Array(randomBytes(20))
      const sealed = await sealTotpSecret({ secret: [secret] }, ada.id, key)
      await adapter.setTotpPendingSecret(ada.id, sealed)
      await adapter.enableTotp(ada.id, { sealed, step: Math.floor(Date.now() / 30_000) - 5, recoveryCodeHashes: [] })
    }
    const linkAccountEvent = vi.fn()
    const config: AuthConfig = {
      secret,
      trustHost: true,
      logger: recordingLogger().logger,
      adapter,
      session: { strategy },
      providers: [githubLikeProvider(github, { allowDangerousEmailAccountLinking: true })],
      twoFactor: { totp: { issuer: "Gatehouse tests" }, require: "enrolled" },
      events: { linkAccount: linkAccountEvent },
    }
    return { adapter, ada, key, linkAccountEvent, client: new Client(config) }
  }

  it("links nothing before the second factor, and nothing when it is never given", async () => {
    const { adapter, ada, linkAccountEvent, client } = await app(true)
    expect((await signInWithGitHub(client)).headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`)
    expect(await adapter.getUserByAccount(GITHUB_ACCOUNT)).toBeNull()
    expect(linkAccountEvent).not.toHaveBeenCalled()
    // Abandoned: a wrong code, then nothing more.
    await client.postForm("two-factor", { csrfToken: await client.csrfToken(), code: "000000" })
    expect(await adapter.getUserByAccount(GITHUB_ACCOUNT)).toBeNull()
    expect(await adapter.listSessionsByUserId(ada.id)).toHaveLength(0)
  })

  it("links the account once the second factor passed, then issues the session", async () => {
    const { adapter, ada, key, linkAccountEvent, client } = await app(true)
    await signInWithGitHub(client)
    const done = await client.postForm("two-factor", { csrfToken: await client.csrfToken(), code: totpAt(key!, Math.floor(Date.now() / 30_000)) })
    expect(done.headers.get("location")).toBe(DASHBOARD)
    expect((await adapter.getUserByAccount(GITHUB_ACCOUNT))?.id).toBe(ada.id)
    expect(linkAccountEvent).toHaveBeenCalledTimes(1)
    expect(linkAccountEvent.mock.calls[0]![0]).toMatchObject({ user: { id: ada.id }, account: { provider: "github", providerAccountId: "1001", userId: ada.id } })
    expect(((await client.session()) as { authentication: { aal: number } }).authentication.aal).toBe(2)
  })

  it("links at once, as before, for a user without a second factor", async () => {
    const { adapter, ada, linkAccountEvent, client } = await app(false)
    expect((await signInWithGitHub(client)).headers.get("location")).toBe(DASHBOARD)
    expect((await adapter.getUserByAccount(GITHUB_ACCOUNT))?.id).toBe(ada.id)
    expect(linkAccountEvent).toHaveBeenCalledTimes(1)
  })
})

/**
 * Linking an account while signed in proves nothing new about the person: the new session carries
 * the current one's authentication over, unchanged (never raised, never re-dated), and asks for no
 * second factor. An aal 1 session stays aal 1; once the user has a second factor, linking needs a
 * recent check of it (`freshAge`), whichever route started the link.
 */
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Adapter, AdapterUser } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { sealTotpSecret } from "../../src/core/two-factor/secret-seal.js"
import { Credentials } from "../../src/providers/credentials.js"
import type { AuthConfig } from "../../src/types.js"
import { githubLikeProvider, startGitHubLikeServer, type GitHubLikeServer } from "../support/github-like-server.js"
import { Client, recordingLogger, secret } from "../flow/flow-helpers.js"
import { totpAt } from "../support/totp-reference.js"

const ORIGIN = "https://app.test"
const PENDING = "__Secure-authjs.two-factor"
const DASHBOARD = `${ORIGIN}/dashboard`

let github: GitHubLikeServer
beforeAll(async () => {
  github = await startGitHubLikeServer({ redirectUris: [`${ORIGIN}/auth/callback/github`] })
})
afterAll(() => github?.stop())

type Adapted = Adapter & Required<Pick<Adapter, "setTotpPendingSecret" | "enableTotp" | "createUser" | "getUserByAccount">>

async function enrol(adapter: Adapted, uid: string): Promise<Uint8Array> {
  const key = new Uint8Array(randomBytes(20))
  const sealed = await sealTotpSecret({ secret: [secret] }, uid, key)
  await adapter.setTotpPendingSecret(uid, sealed)
  await adapter.enableTotp(uid, { sealed, step: Math.floor(Date.now() / 30_000) - 5, recoveryCodeHashes: [] })
  return key
}

async function linkGitHub(client: Client): Promise<Response> {
  const started = await client.postForm("signin/github", { csrfToken: await client.csrfToken(), callbackUrl: DASHBOARD })
  const approved = await fetch(new URL(started.headers.get("location")!), { redirect: "manual" })
  return client.get(`callback/github${new URL(approved.headers.get("location")!).search}`)
}

type Authentication = { aal: number; amr: string[]; secondFactorAt: string | null }

describe.each(["jwt", "database"] as const)("%s sessions: linking an account while signed in", (strategy) => {
  async function app() {
    const adapter = MemoryAdapter() as Adapted
    const { id: uid } = await adapter.createUser({ id: "", name: "Ada", email: "ada@app.test", emailVerified: null } as AdapterUser)
    const config: AuthConfig = {
      secret,
      trustHost: true,
      logger: recordingLogger().logger,
      adapter,
      session: { strategy },
      providers: [
        Credentials({
          credentials: { username: {}, password: {} },
          authorize: ({ password }) => (password === "correct horse" ? { id: uid, name: "Ada", email: "ada@app.test" } : null),
          rateLimit: false,
        }),
        githubLikeProvider(github),
      ],
      twoFactor: { totp: { issuer: "Gatehouse tests" }, require: "enrolled" },
    }
    return { adapter, uid, client: new Client(config) }
  }
  const authenticationOf = async (client: Client) => ((await client.session()) as { authentication: Authentication }).authentication

  it("keeps an aal 2 session at aal 2, with the same check time, and asks for nothing", async () => {
    const { adapter, uid, client } = await app()
    const key = await enrol(adapter, uid)
    await client.signIn({ username: "ada", password: "correct horse", callbackUrl: DASHBOARD })
    await client.postForm("two-factor", { csrfToken: await client.csrfToken(), code: totpAt(key, Math.floor(Date.now() / 30_000)) })
    const before = await authenticationOf(client)
    expect(before.aal).toBe(2)

    const linked = await linkGitHub(client)
    expect(linked.headers.get("location")).toBe(DASHBOARD)
    expect(client.jar.get(PENDING)).toBeUndefined()
    expect((await adapter.getUserByAccount({ provider: "github", providerAccountId: "1001" }))?.id).toBe(uid)
    expect(await authenticationOf(client)).toEqual(before)
  })

  it("keeps an aal 1 session at aal 1 for a user with no second factor", async () => {
    const { adapter, uid, client } = await app()
    await client.signIn({ username: "ada", password: "correct horse", callbackUrl: DASHBOARD })
    expect(await authenticationOf(client)).toEqual({ aal: 1, amr: ["pwd"], secondFactorAt: null })

    expect((await linkGitHub(client)).headers.get("location")).toBe(DASHBOARD)
    expect(client.jar.get(PENDING)).toBeUndefined()
    expect((await adapter.getUserByAccount({ provider: "github", providerAccountId: "1001" }))?.id).toBe(uid)
    expect(await authenticationOf(client)).toEqual({ aal: 1, amr: ["pwd"], secondFactorAt: null })
  })

  it("refuses the link (RecentAuthRequired: the browser goes to the step-up page) from an aal 1 session of a user who enrolled after signing in", async () => {
    const { adapter, uid, client } = await app()
    await client.signIn({ username: "ada", password: "correct horse", callbackUrl: DASHBOARD })
    await enrol(adapter, uid)

    const refused = await linkGitHub(client)
    // The provider's redirect is a navigation: a page, not a JSON body.
    expect(refused.status).toBe(302)
    expect(refused.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor?error=RecentAuthRequired`)
    const page = await (await client.get("two-factor?error=RecentAuthRequired")).text()
    expect(page).toContain("confirm it is you")
    expect(client.jar.get(PENDING)).toBeUndefined()
    expect(await adapter.getUserByAccount({ provider: "github", providerAccountId: "1001" })).toBeNull()
    expect(await authenticationOf(client)).toEqual({ aal: 1, amr: ["pwd"], secondFactorAt: null })
  })
})

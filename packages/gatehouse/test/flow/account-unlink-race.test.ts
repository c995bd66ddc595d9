/**
 * Two (or three) unlinks of a user's last accounts at the same moment, through the account route,
 * on every stored adapter: whatever the order their adapter calls interleave in, the user keeps a
 * way to sign in, a refused unlink leaves its account as it was (tokens included), and
 * `unlinkAccount` fires only for an unlink that stands. The interleavings are forced with barriers
 * around the real store's calls, then varied with random pauses (test/support/paced-adapter.ts).
 */
import { beforeEach, describe, expect, it } from "vitest"
import type { AdapterAccount, AdapterUser, StoredAdapter as FullAdapter } from "../../src/adapters/index.js"
import type { AuthConfig, EventCallbacks } from "../../src/types.js"
import { barrier, gate, pacedAdapter, randomPause, type Pacing } from "../support/paced-adapter.js"
import { Client, credentialsConfig } from "./flow-helpers.js"
import { storedAdapters, twoUserCredentials, withStoredUsers, type StoredAdapter } from "./stored-adapters.js"

type Unlinked = Parameters<NonNullable<EventCallbacks["unlinkAccount"]>>[0]

describe.each(storedAdapters)("concurrent unlinks of a user's last two accounts on the $name adapter", (store: StoredAdapter) => {
  const users = withStoredUsers(store)
  let adapter: FullAdapter
  let user: AdapterUser
  let pacing: Pacing | undefined
  let events: Unlinked[]
  let client: Client
  beforeEach(async () => {
    ;({ adapter, user } = users())
    pacing = undefined
    events = []
    const settings: AuthConfig = credentialsConfig({
      adapter: pacedAdapter(adapter, () => pacing),
      account: { routes: true },
      events: { unlinkAccount: (message) => void events.push(message) },
      // Credentials count as a way in only through canUseCredentials, which is not set: the two
      // OAuth accounts are the user's only ways in.
      providers: [
        twoUserCredentials(users),
        { id: "github", name: "GitHub", type: "oauth", clientId: "id", clientSecret: "secret", authorization: "https://gh.test/a", token: "https://gh.test/t", userinfo: "https://gh.test/u" },
        { id: "gitlab", name: "GitLab", type: "oauth", clientId: "id", clientSecret: "secret", authorization: "https://gl.test/a", token: "https://gl.test/t", userinfo: "https://gl.test/u" },
      ],
    })
    client = new Client(settings)
    await client.postForm("callback/credentials", { csrfToken: await client.csrfToken(), username: "user" })
    expect(await client.session()).toMatchObject({ user: { email: user.email } })
  })

  /** Links a fresh account of `provider` to the user, with every token field set, and returns it as stored. */
  async function link(provider: string): Promise<AdapterAccount> {
    const providerAccountId = crypto.randomUUID()
    await adapter.linkAccount({
      userId: user.id,
      type: "oauth",
      provider,
      providerAccountId,
      access_token: `access-${providerAccountId}`,
      refresh_token: `refresh-${providerAccountId}`,
      expires_at: 2_000_000_000,
      id_token: `id-${providerAccountId}`,
      scope: "read:user",
      token_type: "bearer",
      session_state: "state",
    })
    return (await adapter.getAccount(providerAccountId, provider))!
  }

  /** Starts all the unlinks before awaiting any: each is a POST to the accounts route. */
  async function unlinkAll(accounts: AdapterAccount[]): Promise<number[]> {
    const csrfToken = await client.csrfToken()
    const responses = await Promise.all(accounts.map((account) => client.postForm("accounts", { csrfToken, unlink: account.provider, providerAccountId: account.providerAccountId })))
    return responses.map((response) => response.status)
  }

  async function stored(account: AdapterAccount): Promise<AdapterAccount | null> {
    return adapter.getAccount(account.providerAccountId, account.provider)
  }

  /**
   * `parties` unlinks in step: each deletes only once all have passed the first check, each looks
   * again only once all have deleted, and each goes on (to link back or to answer) only once all
   * have looked again.
   */
  function lockstep(parties: number): Pacing {
    const arrive = barrier(parties)
    const leave = barrier(parties)
    const looked = barrier(parties)
    let deleted = false
    return {
      before: (method) => (method === "unlinkAccount" ? arrive() : undefined),
      after: async (method) => {
        if (method === "unlinkAccount") {
          await leave()
          deleted = true
        }
        if (method === "listAccountsByUserId" && deleted) await looked()
      },
    }
  }

  it("refuses both when each looked before either unlinked, and puts both accounts back as they were", async () => {
    const [github, gitlab] = [await link("github"), await link("gitlab")]
    // Both pass the first check before either deletes, both delete before either looks again,
    // and both have looked before either links back.
    pacing = lockstep(2)
    expect(await unlinkAll([github!, gitlab!])).toEqual([409, 409])
    pacing = undefined
    expect(await stored(github!)).toEqual(github)
    expect(await stored(gitlab!)).toEqual(gitlab)
    expect(events).toEqual([])
  })

  it("lets the first stand and refuses the second when the second unlinks after the first looked again", async () => {
    const [github, gitlab] = [await link("github"), await link("gitlab")]
    // Both pass the first check; the gitlab unlink deletes only once the github one has answered.
    const arrive = barrier(2)
    const { open: githubAnswered, opened: answered } = gate()
    pacing = {
      before: async (method, args) => {
        if (method !== "unlinkAccount") return
        await arrive()
        if ((args[0] as AdapterAccount).provider === "gitlab") await answered
      },
    }
    const csrfToken = await client.csrfToken()
    const first = client.postForm("accounts", { csrfToken, unlink: "github", providerAccountId: github!.providerAccountId }).finally(githubAnswered)
    const second = client.postForm("accounts", { csrfToken, unlink: "gitlab", providerAccountId: gitlab!.providerAccountId })
    expect([(await first).status, (await second).status]).toEqual([200, 409])
    pacing = undefined
    expect(await stored(github!)).toBeNull()
    expect(await stored(gitlab!)).toEqual(gitlab)
    expect(events).toEqual([{ user: expect.objectContaining({ id: user.id }), account: { provider: "github", providerAccountId: github!.providerAccountId, type: "oauth" } }])
  })

  it("refuses all three when the same account is unlinked twice alongside the other, and links it back once", async () => {
    const [github, gitlab] = [await link("github"), await link("gitlab")]
    // A double click on one account while the other goes: all pass the first check, all delete
    // (the second delete of the same row finds nothing), all look again; two put the same row back.
    pacing = lockstep(3)
    expect(await unlinkAll([github!, github!, gitlab!])).toEqual([409, 409, 409])
    pacing = undefined
    expect(await adapter.listAccountsByUserId(user.id)).toHaveLength(2)
    expect(await stored(github!)).toEqual(github)
    expect(await stored(gitlab!)).toEqual(gitlab)
    expect(events).toEqual([])
  })

  it("does not count the account being unlinked as a way in when another refused unlink has put it back", async () => {
    const [github, gitlab] = [await link("github"), await link("gitlab")]
    // All three delete before any looks again (the second github delete finds nothing); then the
    // first github unlink looks again, finds nothing left and links github back, and only then
    // do the other two look: the second github unlink finds github there, yet it is no way in
    // once that unlink stands, so it is refused too; the gitlab unlink stands.
    const arrive = barrier(3)
    const leave = barrier(3)
    const leader = new Set<readonly unknown[]>()
    const { open: githubBack, opened: relinked } = gate()
    pacing = {
      before: async (method, args) => {
        if (method !== "unlinkAccount") return
        if ((args[0] as AdapterAccount).provider === "github" && leader.size === 0) leader.add(args)
        await arrive()
      },
      after: async (method, args) => {
        if (method === "linkAccount" && (args[0] as AdapterAccount).provider === "github") githubBack()
        if (method !== "unlinkAccount") return
        await leave()
        if (!leader.has(args)) await relinked
      },
    }
    expect(await unlinkAll([github!, github!, gitlab!])).toEqual([409, 409, 200])
    pacing = undefined
    expect(await stored(github!)).toEqual(github)
    expect(await stored(gitlab!)).toBeNull()
    expect(events.map((event) => event.account.provider)).toEqual(["gitlab"])
  })

  it("never leaves the user without an account, whatever the order (random pauses around every adapter call, 12 rounds, twice the same account in half)", async () => {
    for (let round = 0; round < 12; round++) {
      for (const account of await adapter.listAccountsByUserId(user.id)) await adapter.unlinkAccount(account)
      events = []
      const [github, gitlab] = [await link("github"), await link("gitlab")]
      const targets = round % 2 === 0 ? [github!, gitlab!] : [github!, gitlab!, github!]
      pacing = { before: () => randomPause(3), after: () => randomPause(3) }
      const statuses = await unlinkAll(targets)
      pacing = undefined
      const context = `round ${round}: ${JSON.stringify(statuses)}`
      for (const status of statuses) expect([200, 404, 409], context).toContain(status)
      const left = await adapter.listAccountsByUserId(user.id)
      expect(left.length, context).toBeGreaterThan(0)
      // Whatever is left is the row as it was linked, tokens included.
      for (const account of left) expect(account, context).toEqual(account.provider === "github" ? github : gitlab)
      // An event for each unlink that stood, and only for those.
      const stood = targets.filter((_, index) => statuses[index] === 200)
      expect(events.map((event) => event.account.providerAccountId).sort(), context).toEqual(stood.map((account) => account.providerAccountId).sort())
      if (targets.length === 2) {
        for (const [index, account] of targets.entries()) expect(await stored(account), context).toEqual(statuses[index] === 200 ? null : account)
      }
    }
  })
})

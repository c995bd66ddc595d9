/**
 * The conformance suite is only worth something if it fails: each broken adapter below has one
 * defect a real adapter could have, and the test of that behaviour must catch it.
 */
import { describe, expect, test } from "vitest"
import type { Adapter, AdapterAccount, AdapterInvitation, AdapterUser, VerificationToken } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { GATEHOUSE_ADDITIONS, runAdapterConformance, type AdapterConformanceOptions } from "../../src/testing/adapter.js"
import { conformanceCases } from "../../src/testing/adapter-conformance/index.js"

interface Outcome {
  name: string
  error: unknown
}

/** Registers the suite with a collecting runner, runs every test, and reports each outcome. */
async function runSuite(adapter: Adapter, skip?: readonly (keyof Adapter)[]): Promise<Outcome[]> {
  const registered: { name: string; fn: () => Promise<void> }[] = []
  runAdapterConformance({ adapter, skip, test: (name, fn) => registered.push({ name, fn }) })
  const outcomes: Outcome[] = []
  for (const { name, fn } of registered) {
    try {
      await fn()
      outcomes.push({ name, error: undefined })
    } catch (error) {
      outcomes.push({ name, error: error ?? new Error("threw a nullish value") })
    }
  }
  return outcomes
}

async function failedTests(adapter: Adapter, skip?: readonly (keyof Adapter)[]): Promise<string[]> {
  return (await runSuite(adapter, skip)).filter((outcome) => outcome.error !== undefined).map((outcome) => outcome.name)
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * One of hitRateLimit's tests waits a second for a window to end; tests about something else
 * skip them to stay fast.
 */
const SLOW: (keyof Adapter)[] = ["hitRateLimit"]

/** Dates turned into ISO strings, as a driver without date parsing returns them. */
function withStringDates<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T
}

/** A verification-token store that reads, yields, then deletes: correct alone, racy together. */
function racyTokens(): Pick<Adapter, "createVerificationToken" | "useVerificationToken"> {
  const tokens = new Map<string, VerificationToken>()
  const key = ({ identifier, token }: { identifier: string; token: string }) => `${identifier} ${token}`
  return {
    createVerificationToken: async (token) => {
      tokens.set(key(token), token)
      return token
    },
    useVerificationToken: async (params) => {
      const token = tokens.get(key(params))
      await sleep(1)
      tokens.delete(key(params))
      return token ?? null
    },
  }
}

/** A verification-token store keyed by token alone, so any identifier works. */
function tokensIgnoringIdentifier(): Pick<Adapter, "createVerificationToken" | "useVerificationToken"> {
  const tokens = new Map<string, VerificationToken>()
  return {
    createVerificationToken: async (token) => {
      tokens.set(token.token, token)
      return token
    },
    useVerificationToken: async ({ token }) => {
      const found = tokens.get(token)
      tokens.delete(token)
      return found ?? null
    },
  }
}

/**
 * A rate-limit store with one defect: `racy` reads the window, yields, then writes it back (correct
 * alone, counts lost together); `sliding` moves the end of the window with every hit.
 */
function flawedRateLimits({ racy = false, sliding = false }): Pick<Adapter, "hitRateLimit"> {
  const windows = new Map<string, { count: number; resetAt: number }>()
  return {
    hitRateLimit: async (key, windowSeconds) => {
      const now = Date.now()
      const current = windows.get(key)
      if (racy) await sleep(1)
      const live = current !== undefined && current.resetAt > now
      const next = {
        count: live ? current.count + 1 : 1,
        resetAt: live && !sliding ? current.resetAt : now + windowSeconds * 1000,
      }
      windows.set(key, next)
      return next.count
    },
  }
}

/** deleteUser that removes the user row only, as a schema without ON DELETE CASCADE would. */
function withoutCascade(memory: MemoryAdapter): Adapter {
  const deleted = new Set<string>()
  const visible = (user: AdapterUser | null) => (user && !deleted.has(user.id) ? user : null)
  return {
    ...memory,
    deleteUser: async (id) => {
      deleted.add(id)
      return null
    },
    getUser: async (id) => visible(await memory.getUser(id)),
    getUserByEmail: async (email) => visible(await memory.getUserByEmail(email)),
    getUserByAccount: async (account) => visible(await memory.getUserByAccount(account)),
  }
}

/**
 * Member and invitation methods of a store that reads, checks, yields, then writes: each right
 * alone, but two concurrent calls both pass the check and both report success, as both would
 * change the row in a store without a transaction (the memory store underneath refuses the
 * second write; the result a racy store gives is what is returned).
 */
function racyOrganizations(memory: MemoryAdapter): Pick<Adapter, "updateMemberRole" | "removeMember" | "setInvitationStatus"> {
  const lastOwner = async (organizationId: string, userId: string): Promise<boolean> => {
    const members = await memory.listMembers(organizationId, { limit: 1000 })
    return !members.some((member) => member.role === "owner" && member.userId !== userId)
  }
  return {
    updateMemberRole: async (organizationId, userId, role) => {
      const member = await memory.getMember(organizationId, userId)
      if (!member) return "not-found"
      if (member.role === "owner" && role !== "owner" && (await lastOwner(organizationId, userId))) return "last-owner"
      await sleep(1)
      await memory.updateMemberRole(organizationId, userId, role)
      return { ...member, role }
    },
    removeMember: async (organizationId, userId) => {
      const member = await memory.getMember(organizationId, userId)
      if (!member) return "not-found"
      if (member.role === "owner" && (await lastOwner(organizationId, userId))) return "last-owner"
      await sleep(1)
      await memory.removeMember(organizationId, userId)
      return member
    },
    setInvitationStatus: async (id, from, to) => {
      const invitation = await memory.getInvitation(id)
      if (!invitation || invitation.status !== from) return null
      await sleep(1)
      await memory.setInvitationStatus(id, from, to)
      return { ...invitation, status: to }
    },
  }
}

interface Breakage {
  defect: string
  adapter: (memory: MemoryAdapter) => Adapter
  /** Tests that must fail. Others may fail too when the defect reaches them. */
  fails: string[]
}

/**
 * Two-factor methods of a store that reads, yields, then writes: each correct alone, but
 * concurrent callers all pass the check before any of them writes.
 */
function racyTwoFactor(memory: MemoryAdapter): Pick<Adapter, "useTotpStep" | "useRecoveryCode"> {
  return {
    useTotpStep: async (userId, step) => {
      const row = await memory.getTwoFactor(userId)
      await sleep(1)
      if (!row?.totpSecret || (row.totpLastStep !== null && row.totpLastStep >= step)) return false
      await memory.useTotpStep(userId, step)
      return true
    },
    useRecoveryCode: async (userId, hash) => {
      const before = (await memory.getTwoFactor(userId))?.recoveryCodesLeft ?? 0
      await sleep(1)
      const used = await memory.useRecoveryCode(userId, hash)
      return used || (before > 0 && (await memory.getTwoFactor(userId))!.recoveryCodesLeft < before)
    },
  }
}

const breakages: Breakage[] = [
  {
    defect: "updateMemberRole checks for another owner and demotes with an await in between",
    adapter: (memory) => ({ ...memory, updateMemberRole: racyOrganizations(memory).updateMemberRole }),
    fails: ["updateMemberRole: of concurrent demotions of an organization's last two owners, one is refused"],
  },
  {
    defect: "removeMember checks for another owner and removes with an await in between",
    adapter: (memory) => ({ ...memory, removeMember: racyOrganizations(memory).removeMember }),
    fails: ["removeMember: of concurrent removals of an organization's last two owners, one is refused"],
  },
  {
    defect: "setInvitationStatus reads the status and writes the new one with an await in between",
    adapter: (memory) => ({ ...memory, setInvitationStatus: racyOrganizations(memory).setInvitationStatus }),
    fails: ["setInvitationStatus: moves a pending invitation once: of concurrent calls exactly one gets it"],
  },
  {
    defect: "updateMemberRole demotes the last owner",
    adapter: (memory) => ({
      ...memory,
      updateMemberRole: async (organizationId, userId, role) => {
        const result = await memory.updateMemberRole(organizationId, userId, role)
        const member = await memory.getMember(organizationId, userId)
        return result === "last-owner" && member ? (await memory.removeMember(organizationId, userId), { ...member, role }) : result
      },
    }),
    fails: ["updateMemberRole: changes a role, and refuses to demote the last owner or change a non-member"],
  },
  {
    defect: "listMembers ignores the cursor (every page is the first)",
    adapter: (memory) => ({ ...memory, listMembers: async (organizationId, { after: _after, ...options }) => memory.listMembers(organizationId, options) }),
    fails: ["listMembers: returns members with their users' name, email and image, in pages continued after the last member"],
  },
  {
    defect: "listMembers searches anywhere in the name, not at its start",
    adapter: (memory) => ({
      ...memory,
      listMembers: async (organizationId, { search, limit, after }) => {
        const all = await memory.listMembers(organizationId, { limit: 1000, ...(after ? { after } : {}) })
        const needle = search?.toLowerCase() ?? ""
        return all.filter((member) => `${member.user.email} ${member.user.name ?? ""}`.toLowerCase().includes(needle)).slice(0, limit)
      },
    }),
    fails: ["listMembers: searches by the start of the email or the name, ignoring case, with % and _ as plain characters"],
  },
  {
    defect: "getOrganization falls back to the slug when no id matches",
    adapter: (memory) => ({ ...memory, getOrganization: async (key) => (await memory.getOrganization(key)) ?? ("id" in key ? memory.getOrganization({ slug: key.id }) : null) }),
    fails: ["getOrganization: returns null for an unknown id or slug, and never reads a slug as an id"],
  },
  {
    defect: "deleteOrganization leaves the organization's invitations behind",
    adapter: (memory) => {
      const orphans = new Map<string, AdapterInvitation>()
      return {
        ...memory,
        deleteOrganization: async (id) => {
          for (const invitation of await memory.listInvitations(id)) orphans.set(invitation.tokenHash, invitation)
          return memory.deleteOrganization(id)
        },
        getInvitationByTokenHash: async (hash) => (await memory.getInvitationByTokenHash(hash)) ?? orphans.get(hash) ?? null,
      }
    },
    fails: ["deleteOrganization: removes the organization with its members and invitations, once"],
  },
  {
    defect: "listAuditEntries ignores the actor filter when an organization is given",
    adapter: (memory) => ({ ...memory, listAuditEntries: async ({ actorId, ...options }) => memory.listAuditEntries(options.organizationId ? options : { actorId, ...options }) }),
    fails: ["listAuditEntries: applies every filter given, together"],
  },
  {
    defect: "searchUsers ignores the cursor (every page is the first)",
    adapter: (memory) => ({ ...memory, searchUsers: async ({ after: _after, ...options }) => memory.searchUsers(options) }),
    fails: ["searchUsers: returns pages continued after the last id, each user once, in one order"],
  },
  {
    defect: "searchUsers searches anywhere in the email or name, not at its start",
    adapter: (memory) => ({
      ...memory,
      searchUsers: async ({ search, limit, after }) => {
        const all = await memory.searchUsers({ limit: 1000, ...(after !== undefined && { after }) })
        const needle = search?.toLowerCase() ?? ""
        return all.filter((user) => `${user.email} ${user.name ?? ""}`.toLowerCase().includes(needle)).slice(0, limit)
      },
    }),
    fails: ["searchUsers: searches by the start of the email or the name, ignoring case, with % and _ as plain characters"],
  },
  {
    defect: "searchUsers minds case",
    adapter: (memory) => ({
      ...memory,
      searchUsers: async ({ search, limit, after }) => {
        const all = await memory.searchUsers({ limit: 1000, ...(after !== undefined && { after }) })
        return all.filter((user) => search === undefined || user.email.startsWith(search) || (user.name ?? "").startsWith(search)).slice(0, limit)
      },
    }),
    fails: ["searchUsers: searches by the start of the email or the name, ignoring case, with % and _ as plain characters"],
  },
  {
    defect: "banUser replaces the whole status, dropping the role",
    adapter: (memory) => ({
      ...memory,
      banUser: async (userId, ban) => {
        await memory.banUser(userId, ban)
        await memory.setUserRole(userId, null)
      },
    }),
    fails: ["banUser: bans from now with reason, expiry and who, replaces an earlier ban, keeps the role, and rejects an unknown user"],
  },
  {
    defect: "banUser stores a ban for a user that does not exist",
    adapter: (memory) => ({ ...memory, banUser: async (userId, ban) => ((await memory.getUser(userId)) ? memory.banUser(userId, ban) : undefined) }),
    fails: ["banUser: bans from now with reason, expiry and who, replaces an earlier ban, keeps the role, and rejects an unknown user"],
  },
  {
    defect: "unbanUser answers true whether or not there was a ban",
    adapter: (memory) => ({ ...memory, unbanUser: async (userId) => (await memory.unbanUser(userId), true) }),
    fails: ["unbanUser: lifts the ban, keeping the role, and returns whether there was one"],
  },
  {
    defect: "deleteUser leaves the user's status behind",
    adapter: (memory) => {
      const kept = new Map<string, Awaited<ReturnType<MemoryAdapter["getUserStatus"]>>>()
      return {
        ...memory,
        deleteUser: async (userId) => {
          kept.set(userId, await memory.getUserStatus(userId))
          return memory.deleteUser(userId)
        },
        getUserStatus: async (userId) => (await memory.getUserStatus(userId)) ?? kept.get(userId) ?? null,
      }
    },
    fails: ["deleteUser: removes the user's status (role and ban) with them"],
  },
  {
    defect: "useTotpStep checks the last step and records the new one with an await in between",
    adapter: (memory) => ({ ...memory, useTotpStep: racyTwoFactor(memory).useTotpStep }),
    fails: ["useTotpStep: of concurrent uses of one step exactly one succeeds"],
  },
  {
    defect: "useTotpStep accepts the last step used again (replay)",
    adapter: (memory) => ({ ...memory, useTotpStep: async (userId, step) => (await memory.useTotpStep(userId, step)) || ((await memory.getTwoFactor(userId))?.totpLastStep === step) }),
    fails: ["useTotpStep: accepts a later step once, then refuses it and every earlier one"],
  },
  {
    defect: "useRecoveryCode reads and deletes with an await in between",
    adapter: (memory) => ({ ...memory, useRecoveryCode: racyTwoFactor(memory).useRecoveryCode }),
    fails: ["useRecoveryCode: of concurrent uses of one code exactly one succeeds"],
  },
  {
    defect: "enableTotp enables whatever secret it is given, pending or not",
    adapter: (memory) => ({
      ...memory,
      enableTotp: async (userId, input) => {
        if (!(await memory.getUser(userId))) return false
        await memory.setTotpPendingSecret(userId, input.sealed)
        return memory.enableTotp(userId, input)
      },
    }),
    fails: ["enableTotp: refuses a pending secret that changed, or none, and changes nothing"],
  },
  {
    defect: "replaceRecoveryCodes adds the new codes to the old ones",
    adapter: (memory) => {
      const issued = new Map<string, string[]>()
      return {
        ...memory,
        replaceRecoveryCodes: async (userId, hashes) => {
          const all = [...(issued.get(userId) ?? []), ...hashes]
          issued.set(userId, all)
          await memory.replaceRecoveryCodes(userId, all)
        },
      }
    },
    fails: ["replaceRecoveryCodes: replaces the set, voiding the old codes, and bumps the trust version"],
  },
  {
    defect: "getSessionAndUser leaves out how the session was authenticated",
    adapter: (memory) => ({
      ...memory,
      getSessionAndUser: async (token) => {
        const found = await memory.getSessionAndUser(token)
        return found && { ...found, session: { ...found.session, authentication: null } }
      },
    }),
    fails: [
      "updateSessionAuthentication: changes how the session was authenticated, as getSessionAndUser returns it",
      "updateSessionAuthentication: what createSessionDetails recorded is returned by getSessionAndUser and listSessionsByUserId",
    ],
  },
  {
    defect: "deleteUser leaves the user's second factors behind",
    adapter: (memory) => {
      const saved = new Map<string, Awaited<ReturnType<MemoryAdapter["getTwoFactor"]>>>()
      return {
        ...memory,
        deleteUser: async (userId) => {
          saved.set(userId, await memory.getTwoFactor(userId))
          return memory.deleteUser(userId)
        },
        getTwoFactor: async (userId) => saved.get(userId) ?? memory.getTwoFactor(userId),
      }
    },
    fails: ["deleteUser: removes the user's second factors and recovery codes"],
  },
  {
    defect: "listAccountsByUserId stops at the first account (a LIMIT 1 left in)",
    adapter: (memory) => ({
      ...memory,
      listAccountsByUserId: async (userId) => (await memory.listAccountsByUserId(userId)).slice(0, 1),
    }),
    fails: ["listAccountsByUserId: returns exactly the user's accounts, expires_at as a number"],
  },
  {
    defect: "updateAccount writes undefined fields as null",
    adapter: (memory) => ({
      ...memory,
      updateAccount: async (account) =>
        memory.updateAccount(Object.fromEntries(Object.entries(account).map(([key, value]) => [key, value ?? null])) as typeof account),
    }),
    fails: ["updateAccount: leaves fields given as undefined unchanged"],
  },
  {
    defect: "updateAccount keeps the userId it is given",
    adapter: (memory) => ({
      ...memory,
      updateAccount: async (account) => {
        const current = await memory.getAccount(account.providerAccountId, account.provider)
        if (!current) return null
        await memory.unlinkAccount(account)
        return memory.linkAccount({ ...current, ...account } as typeof current)
      },
    }),
    fails: ["updateAccount: never moves the account to another user or changes its type"],
  },
  {
    defect: "useVerificationToken does not delete the token",
    adapter: (memory) => ({
      ...memory,
      useVerificationToken: async (params) => {
        const token = await memory.useVerificationToken(params)
        if (token) await memory.createVerificationToken(token)
        return token
      },
    }),
    fails: ["useVerificationToken: a token works once"],
  },
  {
    defect: "useVerificationToken reads and deletes with an await in between",
    adapter: (memory) => ({ ...memory, ...racyTokens() }),
    fails: ["useVerificationToken: of 50 concurrent uses of one token exactly one gets it"],
  },
  {
    defect: "useVerificationToken ignores the identifier",
    adapter: (memory) => ({ ...memory, ...tokensIgnoringIdentifier() }),
    fails: ["useVerificationToken: returns null for a wrong identifier and keeps the token"],
  },
  {
    defect: "hitRateLimit reads the count and writes it back with an await in between",
    adapter: (memory) => ({ ...memory, ...flawedRateLimits({ racy: true }) }),
    fails: ["hitRateLimit: 50 concurrent hits on one key get the counts 1 to 50, each once"],
  },
  {
    defect: "hitRateLimit's window never ends",
    adapter: (memory) => ({ ...memory, hitRateLimit: (key) => memory.hitRateLimit(key, 1e9) }),
    fails: ["hitRateLimit: a window ends windowSeconds after its first hit, not its last, and a new one starts at 1"],
  },
  {
    defect: "hitRateLimit's window slides: every hit moves its end",
    adapter: (memory) => ({ ...memory, ...flawedRateLimits({ sliding: true }) }),
    fails: ["hitRateLimit: a window ends windowSeconds after its first hit, not its last, and a new one starts at 1"],
  },
  {
    defect: "getUser returns undefined instead of null",
    adapter: (memory) => ({
      ...memory,
      getUser: async (id) => (await memory.getUser(id)) ?? (undefined as unknown as null),
    }),
    fails: ["getUser: returns null for an unknown id"],
  },
  {
    defect: "deleteUser does not cascade",
    adapter: withoutCascade,
    fails: [
      "deleteUser: removes the user's sessions",
      "deleteUser: removes the user's accounts, also as seen by getAccount",
      "deleteUser: removes the user's authenticators",
    ],
  },
  {
    defect: "dates come back as strings",
    adapter: (memory) => ({
      ...memory,
      getUser: async (id) => withStringDates(await memory.getUser(id)),
      getSessionAndUser: async (token) => withStringDates(await memory.getSessionAndUser(token)),
      useVerificationToken: async (params) => withStringDates(await memory.useVerificationToken(params)),
    }),
    fails: [
      "getUser: returns the stored user, emailVerified as a Date",
      "getSessionAndUser: returns the session and its user",
      "useVerificationToken: returns the token, expires as a Date",
    ],
  },
  {
    defect: "dates lose a day (wrong time zone handling)",
    adapter: (memory) => ({
      ...memory,
      getSessionAndUser: async (token) => {
        const found = await memory.getSessionAndUser(token)
        found?.session.expires.setUTCDate(found.session.expires.getUTCDate() - 1)
        return found
      },
    }),
    fails: ["getSessionAndUser: returns the session and its user"],
  },
  {
    defect: "expires_at comes back as a string (a BIGINT read by a driver)",
    adapter: (memory) => ({
      ...memory,
      getAccount: async (id, provider) => {
        const account = await memory.getAccount(id, provider)
        return account && ({ ...account, expires_at: String(account.expires_at) } as unknown as AdapterAccount)
      },
    }),
    fails: ["getAccount: returns the account with its token fields, expires_at as a number"],
  },
  {
    defect: "getAccount takes its arguments the other way round",
    adapter: (memory) => ({ ...memory, getAccount: (provider, id) => memory.getAccount(id, provider) }),
    fails: ["getAccount: returns the account with its token fields, expires_at as a number"],
  },
  {
    defect: "absent name and image come back as undefined",
    adapter: (memory) => ({
      ...memory,
      getUser: async (id) => {
        const user = await memory.getUser(id)
        return user && { ...user, name: user.name ?? undefined, image: user.image ?? undefined }
      },
    }),
    fails: ["createUser: stores an absent name and image as null"],
  },
  {
    defect: "createUser reports an id other than the one it stored",
    adapter: (memory) => ({ ...memory, createUser: async (user) => ({ ...(await memory.createUser(user)), id: crypto.randomUUID() }) }),
    fails: ["createUser: the id it returns finds the user"],
  },
  {
    defect: "updateUser writes undefined fields as null",
    adapter: (memory) => ({
      ...memory,
      updateUser: (user) =>
        memory.updateUser(Object.fromEntries(Object.entries(user).map(([field, value]) => [field, value ?? null])) as unknown as AdapterUser),
    }),
    fails: ["updateUser: leaves fields given as undefined unchanged"],
  },
  {
    defect: "updateUser returns the user without storing the change",
    adapter: (memory) => ({
      ...memory,
      updateUser: async ({ id, ...changes }) => ({ ...(await memory.getUser(id))!, ...changes }),
    }),
    fails: ["updateUser: changes the given fields, keeps the others and persists them"],
  },
  {
    defect: "updateSession does nothing",
    adapter: (memory) => ({ ...memory, updateSession: async () => null }),
    fails: ["updateSession: changes expires, keeps userId and persists it"],
  },
  {
    defect: "linkAccount overwrites an existing account",
    adapter: (memory) => ({
      ...memory,
      linkAccount: async (account) => {
        await memory.unlinkAccount(account)
        return memory.linkAccount(account)
      },
    }),
    fails: ["linkAccount: rejects a second account with the same provider and providerAccountId"],
  },
  {
    defect: "listAuthenticatorsByUserId returns null for an unknown user",
    adapter: (memory) => ({
      ...memory,
      listAuthenticatorsByUserId: async (userId) => {
        const list = await memory.listAuthenticatorsByUserId(userId)
        return list.length > 0 ? list : (null as unknown as [])
      },
    }),
    fails: ["listAuthenticatorsByUserId: returns [] for an unknown user"],
  },
  {
    defect: "credentialBackedUp comes back as 0/1",
    adapter: (memory) => ({
      ...memory,
      getAuthenticator: async (id) => {
        const found = await memory.getAuthenticator(id)
        return found && { ...found, credentialBackedUp: Number(found.credentialBackedUp) as unknown as boolean }
      },
    }),
    fails: ["getAuthenticator: returns the authenticator, counter as a number and credentialBackedUp as a boolean"],
  },
  {
    defect: "updateAuthenticatorCounter invents an authenticator for an unknown credential",
    adapter: (memory) => ({
      ...memory,
      updateAuthenticatorCounter: async (credentialID, counter) =>
        (await memory.getAuthenticator(credentialID)) ?? {
          credentialID,
          counter,
          userId: "",
          providerAccountId: "",
          credentialPublicKey: "",
          credentialDeviceType: "singleDevice",
          credentialBackedUp: false,
        },
    }),
    fails: ["updateAuthenticatorCounter: rejects an unknown credentialID"],
  },
]

describe("adapter conformance suite", () => {
  test("the memory adapter passes every test", async () => {
    const outcomes = await runSuite(MemoryAdapter())
    expect(outcomes.filter((outcome) => outcome.error !== undefined)).toEqual([])
    expect(outcomes.map((outcome) => outcome.name)).toEqual(conformanceCases.map((testCase) => testCase.name))
  })

  test("also passes on an adapter whose methods are synchronous or return nothing where allowed", async () => {
    const memory = MemoryAdapter()
    const adapter: Adapter = {
      ...memory,
      linkAccount: async (account) => void (await memory.linkAccount(account)),
      deleteSession: async (token) => void (await memory.deleteSession(token)),
      deleteUser: async (id) => void (await memory.deleteUser(id)),
      createVerificationToken: async (token) => void (await memory.createVerificationToken(token)),
      updateSession: async (session) => void (await memory.updateSession(session)),
    }
    expect(await failedTests(adapter)).toEqual([])
  })

  test("names every test after its method, uniquely", () => {
    const names = conformanceCases.map((testCase) => testCase.name)
    expect(new Set(names).size).toBe(names.length)
    for (const testCase of conformanceCases) expect(testCase.name.startsWith(`${testCase.uses[0]}: `)).toBe(true)
  })

  test("covers every method of the contract", () => {
    const memory = MemoryAdapter()
    const tested = new Set(conformanceCases.map((testCase) => testCase.uses[0]))
    expect([...tested].sort()).toEqual(Object.keys(memory).sort())
  })

  test("every test declares exactly the methods it calls", async () => {
    for (const testCase of conformanceCases) {
      const memory = MemoryAdapter()
      const called = new Set<string>()
      const recording = Object.fromEntries(
        Object.entries(memory).map(([name, method]) => [
          name,
          (...args: unknown[]) => {
            called.add(name)
            return (method as (...args: unknown[]) => unknown)(...args)
          },
        ]),
      ) as Adapter
      await testCase.run(recording as Required<Adapter>)
      expect([...called].sort(), testCase.name).toEqual([...testCase.uses].sort())
    }
  })

  test("tests are independent: each passes alone, in reverse order, and on a shared store", async () => {
    const shared = MemoryAdapter()
    const registered: { name: string; fn: () => Promise<void> }[] = []
    runAdapterConformance({ adapter: shared, test: (name, fn) => registered.push({ name, fn }) })
    for (const { fn } of registered.reverse()) await fn()
    for (const { fn } of registered) await fn()
    for (const testCase of conformanceCases) {
      const alone: Promise<void>[] = []
      runAdapterConformance({
        adapter: MemoryAdapter(),
        test: (name, fn) => name === testCase.name && alone.push(fn()),
      })
      expect(alone).toHaveLength(1)
      await alone[0]
    }
  })

  for (const { defect, adapter, fails } of breakages) {
    test(`catches: ${defect}`, async () => {
      const skip = fails.some((name) => name.startsWith("hitRateLimit: ")) ? [] : SLOW
      expect(await failedTests(adapter(MemoryAdapter()), skip)).toEqual(expect.arrayContaining(fails))
    })
  }

  test("with additions required, a missing addition of Gatehouse's fails its tests with the method's name instead of being left out", async () => {
    const { hitRateLimit: _hitRateLimit, ...adapter } = MemoryAdapter()
    const registered: { name: string; fn: () => Promise<void> }[] = []
    runAdapterConformance({ adapter, additions: "required", test: (name, fn) => registered.push({ name, fn }) })
    const limits = registered.filter(({ name }) => name.startsWith("hitRateLimit: "))
    expect(limits.length).toBeGreaterThan(0)
    for (const { fn } of limits) await expect(fn()).rejects.toThrow(/hitRateLimit/)
    // Optional (the default), they are not registered at all.
    const optional: string[] = []
    runAdapterConformance({ adapter, test: (name) => optional.push(name) })
    expect(optional.filter((name) => name.startsWith("hitRateLimit: "))).toEqual([])
  })

  test("a missing method fails its tests with the method's name", async () => {
    const { getAccount: _getAccount, ...adapter } = MemoryAdapter()
    const outcomes = await runSuite(adapter, SLOW)
    const failed = outcomes.filter((outcome) => outcome.error !== undefined)
    expect(failed.map((outcome) => outcome.name)).toEqual(
      conformanceCases.filter((testCase) => testCase.uses.includes("getAccount")).map((testCase) => testCase.name),
    )
    for (const { error } of failed) expect(String(error)).toContain("getAccount")
  })

  test("a method missing from a test body (not only its declared uses) is named too", async () => {
    const { useVerificationToken: _use, ...adapter } = MemoryAdapter()
    const [testCase] = conformanceCases.filter((candidate) => candidate.name === "useVerificationToken: a token works once")
    const { requireMethods } = await import("../../src/testing/adapter-conformance/case.js")
    await expect(testCase!.run(requireMethods(adapter))).rejects.toThrow(/adapter\.useVerificationToken is missing/)
  })

  test("skip leaves out the tests of a method and the tests that need it", async () => {
    const { getAccount: _getAccount, ...adapter } = MemoryAdapter()
    const outcomes = await runSuite(adapter, ["getAccount", ...SLOW])
    expect(outcomes.filter((outcome) => outcome.error !== undefined)).toEqual([])
    expect(outcomes.some((outcome) => outcome.name.startsWith("getAccount:"))).toBe(false)
    expect(outcomes.map((outcome) => outcome.name)).not.toContain("deleteUser: removes the user's accounts, also as seen by getAccount")
    expect(outcomes.map((outcome) => outcome.name)).toContain("deleteUser: removes the user's accounts")
  })

  test("an adapter without passkeys passes when the authenticator methods are skipped", async () => {
    const {
      createAuthenticator: _create,
      getAuthenticator: _get,
      listAuthenticatorsByUserId: _list,
      updateAuthenticatorCounter: _update,
      ...adapter
    } = MemoryAdapter()
    const skip = ["createAuthenticator", "getAuthenticator", "listAuthenticatorsByUserId", "updateAuthenticatorCounter"] as const
    expect(await failedTests(adapter, [...skip, ...SLOW])).toEqual([])
  })

  test("an adapter with Auth.js's methods only passes without a skip list: the tests of Gatehouse's additions are left out", async () => {
    const memory = MemoryAdapter()
    const authjsOnly = Object.fromEntries(Object.entries(memory).filter(([method]) => !GATEHOUSE_ADDITIONS.includes(method as keyof Adapter))) as Adapter
    const outcomes = await runSuite(authjsOnly)
    expect(outcomes.filter((outcome) => outcome.error !== undefined)).toEqual([])
    expect(outcomes.map((outcome) => outcome.name)).toEqual(
      conformanceCases.filter((testCase) => !testCase.uses.some((method) => GATEHOUSE_ADDITIONS.includes(method))).map((testCase) => testCase.name),
    )
    // Present additions are still tested: one that is broken fails.
    const brokenAddition = { ...authjsOnly, deleteVerificationTokens: async () => 0 }
    expect(await failedTests(brokenAddition)).toEqual(["deleteVerificationTokens: deletes every token of the identifier, and only those, returning how many"])
  })

  test("an adapter without hitRateLimit (as Auth.js's are) passes when it is skipped", async () => {
    const { hitRateLimit: _hit, ...adapter } = MemoryAdapter()
    const outcomes = await runSuite(adapter, ["hitRateLimit"])
    expect(outcomes.filter((outcome) => outcome.error !== undefined)).toEqual([])
    expect(outcomes.some((outcome) => outcome.name.startsWith("hitRateLimit:"))).toBe(false)
  })
})

// node:test's `test` must be accepted as the runner (a compile-time check; nothing runs).
type NodeTest = typeof import("node:test").test
export const acceptsNodeTest = (nodeTest: NodeTest): AdapterConformanceOptions["test"] => nodeTest

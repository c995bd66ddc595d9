import { describe, expect, test } from "vitest"
import type { Adapter, AdapterUser } from "../../src/adapters/index.js"
import DefaultExport, { MemoryAdapter } from "../../src/adapters/memory.js"
import { runAdapterConformance } from "../../src/testing/adapter.js"

const verified = new Date("2024-05-01T12:00:00Z")

describe("MemoryAdapter conformance", () => {
  runAdapterConformance({ adapter: MemoryAdapter(), test, additions: "required" })
})

describe("MemoryAdapter", () => {
  test("is also the default export and satisfies the Adapter contract", () => {
    const adapter: Adapter = DefaultExport()
    expect(DefaultExport).toBe(MemoryAdapter)
    expect(typeof adapter.useVerificationToken).toBe("function")
  })

  test("hitRateLimit refuses a window that is not a positive number of seconds", async () => {
    const adapter = MemoryAdapter()
    for (const windowSeconds of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(adapter.hitRateLimit("k", windowSeconds), String(windowSeconds)).rejects.toThrow(RangeError)
    }
    expect(await adapter.hitRateLimit("k", 60)).toBe(1)
  })

  test("makes up a UUID when createUser is given no id", async () => {
    const user = await MemoryAdapter().createUser({ email: "ada@example.com", emailVerified: null })
    expect(user.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })

  test("returns copies: mutating a result or an argument does not change stored data", async () => {
    const adapter = MemoryAdapter()
    const input: AdapterUser = { id: "u1", email: "ada@example.com", emailVerified: new Date(verified), name: "Ada" }
    const created = await adapter.createUser(input)
    input.name = "changed through the argument"
    input.emailVerified?.setFullYear(1999)
    created.name = "changed through the result"
    created.emailVerified?.setFullYear(1999)
    const read = await adapter.getUser("u1")
    read!.emailVerified!.setFullYear(1999)

    const again = await adapter.getUser("u1")
    expect(again?.name).toBe("Ada")
    expect(again?.emailVerified?.getTime()).toBe(verified.getTime())
    expect(again).not.toBe(read)
  })

  test("returns copies of sessions, accounts, tokens and authenticators", async () => {
    const adapter = MemoryAdapter()
    await adapter.createUser({ id: "u1", email: "ada@example.com", emailVerified: null })
    const expires = new Date("2030-01-01T00:00:00Z")

    const session = await adapter.createSession({ sessionToken: "s1", userId: "u1", expires })
    session.expires.setFullYear(1999)
    const found = await adapter.getSessionAndUser("s1")
    found!.session.userId = "someone else"
    expect((await adapter.getSessionAndUser("s1"))?.session).toEqual({ id: expect.any(String), sessionToken: "s1", userId: "u1", expires, authentication: null, context: null })

    const secondFactorAt = new Date("2029-01-01T00:00:00Z")
    await adapter.updateSessionAuthentication("s1", { aal: 2, amr: ["otp"], secondFactorAt })
    const raised = await adapter.getSessionAndUser("s1")
    raised!.session.authentication!.amr!.push("pwd")
    raised!.session.authentication!.secondFactorAt!.setFullYear(1999)
    expect((await adapter.getSessionAndUser("s1"))?.session.authentication).toEqual({ aal: 2, amr: ["otp"], secondFactorAt })

    const account = await adapter.linkAccount({ userId: "u1", type: "oauth", provider: "github", providerAccountId: "a1" })
    account.userId = "someone else"
    expect((await adapter.getAccount("a1", "github"))?.userId).toBe("u1")

    const authenticator = await adapter.createAuthenticator({
      credentialID: "c1",
      userId: "u1",
      providerAccountId: "c1",
      credentialPublicKey: "key",
      counter: 0,
      credentialDeviceType: "singleDevice",
      credentialBackedUp: false,
    })
    authenticator.counter = 99
    const [listed] = await adapter.listAuthenticatorsByUserId("u1")
    listed!.counter = 98
    expect((await adapter.getAuthenticator("c1"))?.counter).toBe(0)

    await adapter.createVerificationToken({ identifier: "ada@example.com", token: "t1", expires })
    expect(expires.getFullYear()).toBe(2030)
  })

  test("keeps two instances apart", async () => {
    const first = MemoryAdapter()
    const second = MemoryAdapter()
    await first.createUser({ id: "u1", email: "ada@example.com", emailVerified: null })
    await first.createVerificationToken({ identifier: "ada@example.com", token: "t1", expires: verified })
    expect(await second.getUser("u1")).toBeNull()
    expect(await second.useVerificationToken({ identifier: "ada@example.com", token: "t1" })).toBeNull()
    expect(await first.useVerificationToken({ identifier: "ada@example.com", token: "t1" })).not.toBeNull()
  })

  test("can be spread, with a method overridden, and still works (no `this`)", async () => {
    const memory = MemoryAdapter()
    const looked: string[] = []
    const adapter: Adapter = {
      ...memory,
      getUser: (id) => {
        looked.push(id)
        return memory.getUser(id)
      },
    }
    await adapter.createUser?.({ id: "u1", email: "ada@example.com", emailVerified: null })
    const { getUserByEmail } = adapter
    expect((await getUserByEmail?.("ada@example.com"))?.id).toBe("u1")
    expect((await adapter.getUser?.("u1"))?.email).toBe("ada@example.com")
    expect(looked).toEqual(["u1"])
  })

  test("refuses rows that point at an unknown user, as a foreign key would", async () => {
    const adapter = MemoryAdapter()
    const expires = new Date("2030-01-01T00:00:00Z")
    await expect(adapter.createSession({ sessionToken: "s1", userId: "nobody", expires })).rejects.toThrow(/unknown user/)
    await expect(adapter.linkAccount({ userId: "nobody", type: "oauth", provider: "github", providerAccountId: "a1" })).rejects.toThrow(
      /unknown user/,
    )
  })

  test("refuses a date that is not a Date", async () => {
    const adapter = MemoryAdapter()
    await adapter.createUser({ id: "u1", email: "ada@example.com", emailVerified: null })
    const notADate = "2030-01-01T00:00:00Z" as unknown as Date
    await expect(adapter.createSession({ sessionToken: "s1", userId: "u1", expires: notADate })).rejects.toThrow(TypeError)
    await expect(adapter.updateUser({ id: "u1", emailVerified: new Date(Number.NaN) })).rejects.toThrow(TypeError)
  })

  test("stores absent transports as null", async () => {
    const adapter = MemoryAdapter()
    await adapter.createUser({ id: "u1", email: "ada@example.com", emailVerified: null })
    const created = await adapter.createAuthenticator({
      credentialID: "c1",
      userId: "u1",
      providerAccountId: "c1",
      credentialPublicKey: "key",
      counter: 0,
      credentialDeviceType: "singleDevice",
      credentialBackedUp: false,
    })
    expect(created.transports).toBeNull()
  })
})

import { describe, expect, it } from "vitest"
import type { Adapter, AdapterUser } from "../../src/adapters/index.js"
import { callAdapter } from "../../src/core/adapter-call.js"
import { AccessDenied, AdapterError } from "../../src/errors.js"

const user: AdapterUser = { id: "u1", email: "u1@example.com", emailVerified: null }

describe("calling an adapter", () => {
  it("says an adapter is needed when there is none", async () => {
    await expect(callAdapter(undefined, "getUser", "u1")).rejects.toMatchObject({ type: "MissingAdapter", message: expect.stringContaining("getUser") })
  })

  it("names the method an adapter lacks", async () => {
    await expect(callAdapter({}, "useVerificationToken", { identifier: "a", token: "b" })).rejects.toMatchObject({
      type: "MissingAdapterMethods",
      message: "The adapter does not implement useVerificationToken, which this operation needs",
    })
  })

  it("wraps what a method throws in AdapterError, keeping the original as the cause", async () => {
    const original = new Error("relation \"users\" does not exist")
    const error = await callAdapter({ getUser: () => Promise.reject(original) }, "getUser", "u1").catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AdapterError)
    expect((error as AdapterError).message).toBe("Adapter method getUser failed")
    expect((error as AdapterError).cause?.err).toBe(original)
  })

  it("wraps synchronous throws and non-Error values too", async () => {
    const thrower = {
      getUser: () => {
        throw "a string"
      },
    }
    await expect(callAdapter(thrower, "getUser", "u1")).rejects.toMatchObject({ type: "AdapterError", cause: { value: "a string" } })
  })

  it("lets an AuthError thrown on purpose through unchanged", async () => {
    const denied = new AccessDenied("blocked by an overridden method")
    await expect(callAdapter({ getUser: () => Promise.reject(denied) }, "getUser", "u1")).rejects.toBe(denied)
  })

  it("calls methods with the adapter as this, so class-based adapters work", async () => {
    class Store {
      users = new Map([[user.id, user]])
      getUser(id: string) {
        return this.users.get(id) ?? null
      }
    }
    expect(await callAdapter(new Store(), "getUser", "u1")).toBe(user)
    expect(await callAdapter(new Store(), "getUser", "nobody")).toBeNull()
  })

  it("cuts every listing by user to that user's rows, whatever the store lists (serial ids as numbers included)", async () => {
    const account = (userId: string | number, provider: string) => ({ userId, provider, providerAccountId: `${provider}-${userId}`, type: "oauth" as const })
    const authenticator = (userId: string | number, credentialID: string) => ({
      userId,
      credentialID,
      credentialPublicKey: "key",
      providerAccountId: credentialID,
      counter: 0,
      credentialDeviceType: "singleDevice",
      credentialBackedUp: false,
    })
    // A buggy or shared store: asked about one user, it lists everyone's.
    const leaky = {
      listAccountsByUserId: () => [account("u1", "github"), account("u2", "gitlab"), account(7, "google")],
      listSessionsByUserId: () => [
        { id: "s1", userId: "u1", expires: new Date() },
        { id: "s2", userId: "u2", expires: new Date() },
      ],
      listAuthenticatorsByUserId: () => [authenticator("u2", "theirs"), authenticator("u1", "mine")],
      // Serial ids come back as numbers from Auth.js's SQL adapters, which the types do not admit.
    } as unknown as Adapter
    expect((await callAdapter(leaky, "listAccountsByUserId", "u1")).map((row) => row.provider)).toEqual(["github"])
    expect((await callAdapter(leaky, "listAccountsByUserId", "7")).map((row) => row.provider)).toEqual(["google"])
    expect((await callAdapter(leaky, "listSessionsByUserId", "u2")).map((row) => row.id)).toEqual(["s2"])
    expect((await callAdapter(leaky, "listAuthenticatorsByUserId", "u1")).map((row) => row.credentialID)).toEqual(["mine"])
  })

  it("refuses a session listing that is not rows with a userId", async () => {
    const broken = { listSessionsByUserId: () => [{ id: "s1" }] } as unknown as Adapter
    await expect(callAdapter(broken, "listSessionsByUserId", "u1")).rejects.toMatchObject({ type: "AdapterError" })
    await expect(callAdapter({ listSessionsByUserId: () => "rows" } as unknown as Adapter, "listSessionsByUserId", "u1")).rejects.toBeInstanceOf(AdapterError)
  })
})

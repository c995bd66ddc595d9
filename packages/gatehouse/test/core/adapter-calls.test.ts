import { describe, expect, it } from "vitest"
import type { AdapterUser } from "../../src/adapters/index.js"
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
})

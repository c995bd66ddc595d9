/**
 * Which ceremony a `webauthn-options` request gets: every row of the decision table in
 * src/core/webauthn/ceremony-choice.ts (Auth.js's rules).
 */
import { describe, expect, it } from "vitest"
import { ceremonyFor, type Ceremony } from "../../src/core/webauthn/ceremony-choice.js"
import type { WebAuthnUserInfo } from "../../src/providers/types.js"

const aUser: WebAuthnUserInfo = { user: { id: "user-1", email: "ada@example.com", name: "Ada" }, exists: true }
const aNewAddress: WebAuthnUserInfo = { user: { email: "new@example.com" }, exists: false }
const nobody = null

type Row = [requested: Ceremony | undefined, signedIn: boolean, who: string, info: WebAuthnUserInfo | null, expected: Ceremony | undefined]

describe("ceremonyFor", () => {
  it.each<Row>([
    ["authenticate", false, "nobody", nobody, "authenticate"],
    ["authenticate", false, "a user", aUser, "authenticate"],
    ["authenticate", false, "a new address", aNewAddress, "authenticate"],
    ["authenticate", true, "the signed-in user", aUser, "authenticate"],
  ])("action=%s, signed in: %s, naming %s → %s (authenticate always wins)", (requested, signedIn, _who, info, expected) => {
    expect(ceremonyFor(requested, signedIn, info)).toBe(expected)
  })

  it("registers a passkey for the signed-in user who asks to register", () => {
    expect(ceremonyFor("register", true, aUser)).toBe("register")
  })

  it("registers a new user for a new address when signed out", () => {
    expect(ceremonyFor("register", false, aNewAddress)).toBe("register")
  })

  it("refuses to register, signed out, an address that already has a user", () => {
    expect(ceremonyFor("register", false, aUser)).toBeUndefined()
  })

  it("refuses to register, signed out, when the request names nobody", () => {
    expect(ceremonyFor("register", false, nobody)).toBeUndefined()
  })

  it("refuses a request without action while signed in", () => {
    expect(ceremonyFor(undefined, true, aUser)).toBeUndefined()
  })

  it("offers any passkey when signed out without action and naming nobody", () => {
    expect(ceremonyFor(undefined, false, nobody)).toBe("authenticate")
  })

  it("offers the user's passkeys when signed out without action and naming a user", () => {
    expect(ceremonyFor(undefined, false, aUser)).toBe("authenticate")
  })

  it("registers when signed out without action and naming a new address", () => {
    expect(ceremonyFor(undefined, false, aNewAddress)).toBe("register")
  })
})

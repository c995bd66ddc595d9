/**
 * Which ceremony a `webauthn-options` request gets: every row of the decision table in
 * src/core/webauthn/ceremony-choice.ts. What a signed-out request names never enters it.
 */
import { describe, expect, it } from "vitest"
import { ceremonyFor, type Ceremony } from "../../src/core/webauthn/ceremony-choice.js"

type Row = [requested: Ceremony | undefined, signedIn: boolean, expected: Ceremony | undefined]

describe("ceremonyFor", () => {
  it.each<Row>([
    ["authenticate", false, "authenticate"],
    ["authenticate", true, "authenticate"],
    ["register", true, "register"],
    ["register", false, "register"],
    [undefined, false, "authenticate"],
    [undefined, true, undefined],
  ])("action=%s, signed in: %s → %s", (requested, signedIn, expected) => {
    expect(ceremonyFor(requested, signedIn)).toBe(expected)
  })
})

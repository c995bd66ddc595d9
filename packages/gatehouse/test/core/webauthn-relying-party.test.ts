/**
 * The relying party a passkey ceremony runs under: the request URL's by default, or what the
 * provider configures (either spelling, strings or lists).
 */
import { describe, expect, it } from "vitest"
import { relyingPartyOf } from "../../src/core/webauthn/relying-party.js"
import { Passkey } from "../../src/providers/passkey.js"
import type { RelyingParty, WebAuthnConfig } from "../../src/providers/types.js"

const at = (url: string) => new URL(url)
const provider = (extra: { relyingParty?: RelyingParty; relayingParty?: RelyingParty } = {}): WebAuthnConfig => Passkey(extra)

describe("relyingPartyOf", () => {
  it("takes everything from the request URL by default", () => {
    expect(relyingPartyOf(provider(), at("https://app.example.com/auth/webauthn-options/passkey"))).toEqual({
      id: "app.example.com",
      name: "app.example.com",
      ids: ["app.example.com"],
      origins: ["https://app.example.com"],
    })
  })

  it("names the host with its port, but scopes to the hostname alone", () => {
    expect(relyingPartyOf(provider(), at("http://localhost:3000/auth/callback/passkey"))).toEqual({
      id: "localhost",
      name: "localhost:3000",
      ids: ["localhost"],
      origins: ["http://localhost:3000"],
    })
  })

  it("uses configured strings instead of the URL", () => {
    const rp = relyingPartyOf(
      provider({ relyingParty: { id: "example.com", name: "Example", origin: "https://login.example.com" } }),
      at("https://internal-host:8443/auth/webauthn-options/passkey"),
    )
    expect(rp).toEqual({ id: "example.com", name: "Example", ids: ["example.com"], origins: ["https://login.example.com"] })
  })

  it("fills unconfigured fields from the URL", () => {
    const rp = relyingPartyOf(provider({ relyingParty: { name: "Example" } }), at("https://app.example.com/auth"))
    expect(rp).toEqual({ id: "app.example.com", name: "Example", ids: ["app.example.com"], origins: ["https://app.example.com"] })
  })

  it("treats empty strings and empty lists as unset", () => {
    const rp = relyingPartyOf(provider({ relyingParty: { id: "", name: [], origin: [""] } }), at("https://app.example.com/auth"))
    expect(rp).toEqual({ id: "app.example.com", name: "app.example.com", ids: ["app.example.com"], origins: ["https://app.example.com"] })
  })

  describe("with several ids", () => {
    const several = provider({ relyingParty: { id: ["example.org", "example.com"], origin: ["https://example.org", "https://app.example.com"] } })

    it("offers the id the request's host falls under (a subdomain)", () => {
      expect(relyingPartyOf(several, at("https://app.example.com/auth")).id).toBe("example.com")
      expect(relyingPartyOf(several, at("https://deep.sub.example.org/auth")).id).toBe("example.org")
    })

    it("offers the id the request's host is", () => {
      expect(relyingPartyOf(several, at("https://example.com/auth")).id).toBe("example.com")
    })

    it("does not take a host that merely ends with the same letters as falling under an id", () => {
      expect(relyingPartyOf(several, at("https://notexample.com/auth")).id).toBe("example.org")
    })

    it("offers the first id when the host falls under none", () => {
      expect(relyingPartyOf(several, at("https://elsewhere.test/auth")).id).toBe("example.org")
    })

    it("accepts every configured id and origin", () => {
      const rp = relyingPartyOf(several, at("https://app.example.com/auth"))
      expect(rp.ids).toEqual(["example.org", "example.com"])
      expect(rp.origins).toEqual(["https://example.org", "https://app.example.com"])
    })

    it("names the party by the first configured name", () => {
      const named = provider({ relyingParty: { name: ["First", "Second"] } })
      expect(relyingPartyOf(named, at("https://app.example.com/auth")).name).toBe("First")
    })
  })

  describe("Auth.js's relayingParty spelling", () => {
    it("is read when relyingParty is unset", () => {
      const rp = relyingPartyOf(
        provider({ relayingParty: { id: "example.com", name: "Legacy", origin: "https://app.example.com" } }),
        at("https://app.example.com/auth"),
      )
      expect(rp).toEqual({ id: "example.com", name: "Legacy", ids: ["example.com"], origins: ["https://app.example.com"] })
    })

    it("takes lists as relyingParty does", () => {
      const rp = relyingPartyOf(
        provider({ relayingParty: { id: ["a.test", "example.com"], name: ["Legacy", "Other"], origin: ["https://a.test", "https://b.example.com"] } }),
        at("https://b.example.com/auth"),
      )
      expect(rp).toEqual({ id: "example.com", name: "Legacy", ids: ["a.test", "example.com"], origins: ["https://a.test", "https://b.example.com"] })
    })

    it("gives way to relyingParty when both are set", () => {
      const rp = relyingPartyOf(
        provider({ relyingParty: { id: "new.example.com" }, relayingParty: { id: "old.example.com", name: "Legacy" } }),
        at("https://new.example.com/auth"),
      )
      expect(rp.id).toBe("new.example.com")
      // The two are not merged: the name comes from the URL, not from relayingParty.
      expect(rp.name).toBe("new.example.com")
    })
  })
})

import { describe, expect, it } from "vitest"
import * as authjs from "@auth/core/jwt"
import { decode, encode, getToken } from "../../src/jwt/index.js"

const secrets: Record<string, string | string[]> = {
  "a string secret": "interop-secret-0123456789abcdef0123456789ab",
  "an array of secrets": ["interop-newest-0123456789abcdef01234567", "interop-oldest-0123456789abcdef01234567"],
}
const salts = ["authjs.session-token", "__Secure-authjs.session-token"]
const claims = { name: "Ada Lovelace", email: "ada@example.com", picture: "https://example.com/a.png", sub: "user-1", extra: [1, 2] }

describe.each(Object.entries(secrets))("interop with @auth/core/jwt using %s", (_, secret) => {
  it.each(salts)("Gatehouse reads what Auth.js writes (salt %s)", async (salt) => {
    const token = await authjs.encode({ token: claims, secret, salt })
    expect(await decode({ token, secret, salt })).toMatchObject(claims)
    const req = new Request("https://app.test/", { headers: { cookie: `${salt}=${token}` } })
    expect(await getToken({ req, secret, salt, cookieName: salt })).toMatchObject(claims)
  })

  it.each(salts)("Auth.js reads what Gatehouse writes (salt %s)", async (salt) => {
    const token = await encode({ token: claims, secret, salt })
    expect(await authjs.decode({ token, secret, salt })).toMatchObject(claims)
    const req = new Request("https://app.test/", { headers: { cookie: `${salt}=${token}` } })
    expect(await authjs.getToken({ req, secret, salt, cookieName: salt })).toMatchObject(claims)
  })

  it.each(salts)("both name the key with the same kid (salt %s)", async (salt) => {
    const ours = await encode({ token: {}, secret, salt })
    const theirs = await authjs.encode({ token: {}, secret, salt })
    expect(ours.split(".")[0]).toBe(theirs.split(".")[0])
  })
})

describe("interop across a secret rotation", () => {
  it("reads an Auth.js token made with the old secret after the new one is put first", async () => {
    const salt = "authjs.session-token"
    const token = await authjs.encode({ token: { sub: "1" }, secret: "rotation-old-0123456789abcdef0123456789", salt })
    const rotated = ["rotation-new-0123456789abcdef0123456789", "rotation-old-0123456789abcdef0123456789"]
    expect(await decode({ token, secret: rotated, salt })).toMatchObject({ sub: "1" })
  })
})

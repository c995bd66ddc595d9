import { describe, expect, it, vi } from "vitest"
import { encode, getToken } from "../../src/jwt/index.js"
import { MissingSecret } from "../../src/errors.js"

const secret = "get-token-secret-0123456789abcdef0123456789"
const plain = "authjs.session-token"
const secure = "__Secure-authjs.session-token"

function request(headers: Record<string, string>): Request {
  return new Request("https://app.test/api", { headers })
}

describe("getToken", () => {
  it("reads the plain session cookie by default", async () => {
    const token = await encode({ token: { sub: "1" }, secret, salt: plain })
    expect(await getToken({ req: request({ cookie: `other=x; ${plain}=${token}` }), secret })).toMatchObject({ sub: "1" })
  })

  it("reads the __Secure- cookie, salted with its own name, when secureCookie is set", async () => {
    const token = await encode({ token: { sub: "2" }, secret, salt: secure })
    const req = request({ cookie: `${secure}=${token}` })
    expect(await getToken({ req, secret, secureCookie: true })).toMatchObject({ sub: "2" })
    expect(await getToken({ req, secret })).toBeNull()
  })

  it("reassembles a chunked cookie in numeric order", async () => {
    const token = await encode({ token: { sub: "3", blob: "x".repeat(9000) }, secret, salt: plain })
    const chunks = [token.slice(0, 3936), token.slice(3936, 7872), token.slice(7872)]
    // Out of order, and .10-style names must sort numerically, not as text.
    const cookie = [`${plain}.2=${chunks[2]}`, `${plain}.0=${chunks[0]}`, `${plain}.1=${chunks[1]}`].join("; ")
    expect(await getToken({ req: request({ cookie }), secret })).toMatchObject({ sub: "3" })
  })

  it("ignores cookies that merely start with the session cookie's name", async () => {
    const token = await encode({ token: { sub: "4" }, secret, salt: plain })
    const cookie = `${plain}=${token}; ${plain}-legacy=junk; ${plain}.x=junk`
    expect(await getToken({ req: request({ cookie }), secret })).toMatchObject({ sub: "4" })
  })

  it("falls back to an Authorization Bearer header", async () => {
    const token = await encode({ token: { sub: "5" }, secret, salt: plain })
    expect(await getToken({ req: request({ authorization: `Bearer ${token}` }), secret })).toMatchObject({ sub: "5" })
    expect(await getToken({ req: request({ authorization: `Basic ${token}` }), secret })).toBeNull()
    expect(await getToken({ req: request({ authorization: "Bearer %E0%A4%A" }), secret })).toBeNull()
  })

  it("prefers the cookie over the Bearer header", async () => {
    const fromCookie = await encode({ token: { sub: "cookie" }, secret, salt: plain })
    const fromHeader = await encode({ token: { sub: "header" }, secret, salt: plain })
    const req = request({ cookie: `${plain}=${fromCookie}`, authorization: `Bearer ${fromHeader}` })
    expect(await getToken({ req, secret })).toMatchObject({ sub: "cookie" })
  })

  it("accepts a plain header map, in any letter case, as Node servers give them", async () => {
    const token = await encode({ token: { sub: "6" }, secret, salt: plain })
    expect(await getToken({ req: { headers: { Cookie: `${plain}=${token}` } }, secret })).toMatchObject({ sub: "6" })
  })

  it("ignores header-map values that are not strings", async () => {
    const token = await encode({ token: { sub: "8" }, secret, salt: plain })
    const headers = { cookie: 42, authorization: [`Bearer ${token}`] } as unknown as Record<string, string>
    expect(await getToken({ req: { headers }, secret })).toMatchObject({ sub: "8" })
    expect(await getToken({ req: { headers: { cookie: { a: 1 } } as unknown as Record<string, string> }, secret })).toBeNull()
  })

  it("returns the raw string with raw: true, without needing a secret", async () => {
    const token = await encode({ token: {}, secret, salt: plain })
    expect(await getToken({ req: request({ cookie: `${plain}=${token}` }), raw: true })).toBe(token)
    expect(await getToken({ req: request({}), raw: true })).toBeNull()
  })

  it("honours a custom cookie name and salt", async () => {
    const token = await encode({ token: { sub: "7" }, secret, salt: "my-salt" })
    const req = request({ cookie: `my-cookie=${token}` })
    expect(await getToken({ req, secret, cookieName: "my-cookie", salt: "my-salt" })).toMatchObject({ sub: "7" })
    expect(await getToken({ req, secret, cookieName: "my-cookie" })).toBeNull()
  })

  it("uses a custom decode function", async () => {
    const decode = vi.fn(async () => ({ sub: "custom" }))
    const req = request({ cookie: `${plain}=anything` })
    expect(await getToken({ req, secret, decode })).toEqual({ sub: "custom" })
    expect(decode).toHaveBeenCalledWith({ token: "anything", secret, salt: plain })
  })

  it("answers null for no token, garbage, or a token made with another secret, and tells the logger", async () => {
    const logger = { debug: vi.fn() }
    expect(await getToken({ req: request({}), secret })).toBeNull()
    expect(await getToken({ req: request({ cookie: `${plain}=garbage` }), secret, logger })).toBeNull()
    expect(logger.debug).toHaveBeenCalledWith("JWT_GET_TOKEN_DECODE_FAILED", expect.any(String))
    const foreign = await encode({ token: {}, secret: "some-other-secret-0123456789abcdef0123", salt: plain })
    expect(await getToken({ req: request({ cookie: `${plain}=${foreign}` }), secret })).toBeNull()
  })

  it("throws MissingSecret when a token must be decoded without a secret, and a clear error without req", async () => {
    await expect(getToken({ req: request({ cookie: `${plain}=x` }) })).rejects.toBeInstanceOf(MissingSecret)
    // @ts-expect-error req is required
    await expect(getToken({ secret })).rejects.toThrow(/needs `req`/)
  })
})

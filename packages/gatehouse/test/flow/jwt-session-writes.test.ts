/**
 * When a read of a JWT session writes the cookie again. Auth.js re-encrypts and re-sends it on
 * every read; Gatehouse only when the token is older than `updateAge` (capped at half the
 * session's life), on an update, or when the `jwt` callback returned other claims than it was
 * given, so whatever the callback returns is saved at once. The callbacks run on every read.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/core/handler.js"
import { decode } from "../../src/jwt/index.js"
import type { AuthConfig, CallbacksOptions, Session } from "../../src/types.js"
import { Client, UPDATE_AGE_MS, credentialsConfig, moveClockOn, secret } from "./flow-helpers.js"

const SESSION = "__Secure-authjs.session-token"

afterEach(() => {
  vi.useRealTimers()
})

function sessionLine(response: Response): string | undefined {
  return response.headers.getSetCookie().find((line) => line.startsWith(`${SESSION}=`))
}

async function claimsIn(client: Client) {
  return decode({ token: client.jar.get(SESSION), secret, salt: SESSION })
}

/** A client of a configuration whose callbacks count their calls. */
function countingClient(extra: Partial<AuthConfig> = {}, jwt: CallbacksOptions["jwt"] = ({ token }) => token) {
  const calls = { jwt: 0, session: 0 }
  const config = credentialsConfig({
    ...extra,
    callbacks: {
      jwt: (params) => {
        calls.jwt++
        return jwt(params)
      },
      session: ({ session }) => {
        calls.session++
        return session
      },
    },
  })
  return { client: new Client(config), calls }
}

describe("a JWT session read", () => {
  it("writes nothing while the token is fresh, yet runs both callbacks every time", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2030-01-01T00:00:00Z") })
    const { client, calls } = countingClient()
    await client.signIn()
    const issued = client.jar.get(SESSION)
    calls.jwt = 0

    for (let i = 0; i < 3; i++) {
      moveClockOn(60 * 60 * 1000)
      const response = await client.get("session")
      expect(await response.json()).toMatchObject({ user: { email: "ada@app.test" } })
      expect(sessionLine(response)).toBeUndefined()
    }
    expect(calls).toEqual({ jwt: 3, session: 3 })
    expect(client.jar.get(SESSION)).toBe(issued)
  })

  it("stands for 15 seconds past the token's exp, as decode and Auth.js allow, and from exp + 15 s on is none, its cookie deleted", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2030-01-01T00:00:00Z") })
    const { client } = countingClient()
    await client.signIn()
    const cookie = client.jar.header()
    expect((await claimsIn(client))?.exp).toBe(Date.parse("2030-01-31T00:00:00Z") / 1000)
    // Each read sends the cookie of the sign-in, whatever the one before wrote.
    const read = () => Auth(new Request("https://app.test/auth/session", { headers: { cookie } }), client.config as Omit<AuthConfig, "raw">)

    vi.setSystemTime(new Date("2030-01-31T00:00:14.999Z"))
    expect(await (await read()).json()).toMatchObject({ user: { email: "ada@app.test" } })
    vi.setSystemTime(new Date("2030-01-31T00:00:15.000Z"))
    const ended = await read()
    expect(await ended.json()).toBeNull()
    expect(sessionLine(ended)).toMatch(/^__Secure-authjs\.session-token=; .*Max-Age=0/)
  })

  it("reports the expiry the cookie really has when it writes nothing", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2030-01-01T00:00:00Z") })
    const { client } = countingClient()
    await client.signIn()
    moveClockOn(5 * 60 * 60 * 1000)
    const session = (await client.session()) as Session
    expect(session.expires).toBe("2030-01-31T00:00:00.000Z")
  })

  it("writes the cookie again once the token is older than updateAge, sliding the expiry", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2030-01-01T00:00:00Z") })
    const { client } = countingClient()
    await client.signIn()
    const first = await claimsIn(client)

    moveClockOn(UPDATE_AGE_MS - 1_000)
    expect(sessionLine(await client.get("session"))).toBeUndefined()

    moveClockOn(2_000)
    const response = await client.get("session")
    const line = sessionLine(response)
    expect(line).toMatch(/; Expires=Fri, 01 Feb 2030 00:00:01 GMT;/)
    expect(((await response.json()) as Session).expires).toBe("2030-02-01T00:00:01.000Z")
    const second = await claimsIn(client)
    expect(second!.exp).toBe(first!.exp! + UPDATE_AGE_MS / 1000 + 1)
    expect(second!.jti).not.toBe(first!.jti)
  })

  it.each([
    [60, 59_000, 61_000],
    [0, undefined, 0],
  ])("with updateAge %i s, writes after the interval (never before)", async (updateAge, quiet, writes) => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2030-01-01T00:00:00Z") })
    const { client } = countingClient({ session: { updateAge } })
    await client.signIn()
    if (quiet !== undefined) {
      moveClockOn(quiet)
      expect(sessionLine(await client.get("session"))).toBeUndefined()
    }
    moveClockOn(writes - (quiet ?? 0))
    expect(sessionLine(await client.get("session"))).toBeDefined()
  })

  it("keeps a short session sliding: with maxAge one hour and the default updateAge, it writes after half an hour", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2030-01-01T00:00:00Z") })
    const { client } = countingClient({ session: { maxAge: 3600 } })
    await client.signIn()
    moveClockOn(29 * 60 * 1000)
    expect(sessionLine(await client.get("session"))).toBeUndefined()
    moveClockOn(2 * 60 * 1000)
    expect(sessionLine(await client.get("session"))).toMatch(/; Expires=Tue, 01 Jan 2030 01:31:00 GMT;/)
    // An active user stays signed in well past the first hour.
    for (let i = 0; i < 4; i++) {
      moveClockOn(31 * 60 * 1000)
      expect(await client.session()).toMatchObject({ user: { email: "ada@app.test" } })
    }
  })

  it("writes at once when the jwt callback returns other claims, and saves them with a slid expiry it reports", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2030-01-01T00:00:00Z") })
    let visits = 0
    const { client } = countingClient({}, ({ token }) => ({ ...token, visits: ++visits }))
    await client.signIn()
    moveClockOn(60 * 60 * 1000)
    const response = await client.get("session")
    expect(sessionLine(response)).toMatch(/; Expires=Thu, 31 Jan 2030 01:00:00 GMT;/)
    expect(((await response.json()) as Session).expires).toBe("2030-01-31T01:00:00.000Z")
    expect(await claimsIn(client)).toMatchObject({ visits: 2 })
  })

  it("writes at once when the jwt callback changes the token in place", async () => {
    const { client } = countingClient({}, ({ token }) => {
      token.seen = ((token.seen as number | undefined) ?? 0) + 1
      return token
    })
    await client.signIn()
    expect(sessionLine(await client.get("session"))).toBeDefined()
    expect(await claimsIn(client)).toMatchObject({ seen: 2 })
  })

  it("writes nothing when the jwt callback rebuilds the same claims in another order", async () => {
    let calls = 0
    const { client } = countingClient({}, ({ token }) => {
      const { sub, email, name, picture, ...rest } = token
      // The nested object's keys come in alternating order too.
      const roles = ++calls % 2 ? { b: 2, a: 1 } : { a: 1, b: 2 }
      return { ...rest, picture, name, email, sub, roles }
    })
    await client.signIn()
    expect(await claimsIn(client)).toMatchObject({ roles: { a: 1, b: 2 } })
    expect(sessionLine(await client.get("session"))).toBeUndefined()
    expect(sessionLine(await client.get("session"))).toBeUndefined()
    expect(calls).toBe(3)
  })

  it("keeps refresh-token rotation in the jwt callback working: a rotated token is saved on the read that rotated it", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2030-01-01T00:00:00Z") })
    const issuedRefreshTokens: string[] = []
    const { client } = countingClient({}, ({ token, user }) => {
      const now = Math.floor(Date.now() / 1000)
      if (user) return { ...token, access_token: "access-1", refresh_token: "refresh-1", expires_at: now + 600 }
      if ((token.expires_at as number) > now) return token
      // The provider hands out a new refresh token and invalidates the old one: it must be saved.
      const next = issuedRefreshTokens.length + 2
      issuedRefreshTokens.push(`refresh-${next}`)
      return { ...token, access_token: `access-${next}`, refresh_token: `refresh-${next}`, expires_at: now + 600 }
    })
    await client.signIn()
    moveClockOn(5 * 60 * 1000)
    expect(sessionLine(await client.get("session"))).toBeUndefined()

    moveClockOn(6 * 60 * 1000)
    expect(sessionLine(await client.get("session"))).toBeDefined()
    expect(await claimsIn(client)).toMatchObject({ access_token: "access-2", refresh_token: "refresh-2" })

    // The saved token is current, so the next read neither rotates again nor writes.
    moveClockOn(60 * 1000)
    expect(sessionLine(await client.get("session"))).toBeUndefined()
    expect(issuedRefreshTokens).toEqual(["refresh-2"])
  })

  it("saves a token the session callback changed in place", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2030-01-01T00:00:00Z") })
    const config = credentialsConfig({
      callbacks: {
        session: ({ session, token }) => {
          if (token) token.lastSeen = Date.now()
          return session
        },
      },
    })
    const client = new Client(config)
    await client.signIn()
    moveClockOn(60 * 60 * 1000)
    const response = await client.get("session")
    // Reported before the callback ran; the write slides the cookie with the new token.
    expect(((await response.json()) as Session).expires).toBe("2030-01-31T00:00:00.000Z")
    expect(sessionLine(response)).toMatch(/; Expires=Thu, 31 Jan 2030 01:00:00 GMT;/)
    expect(await claimsIn(client)).toMatchObject({ lastSeen: Date.parse("2030-01-01T01:00:00Z") })
  })

  it("writes on every read when a custom decode gives claims JSON cannot hold, rather than failing", async () => {
    const { client } = countingClient({
      jwt: {
        decode: async (params) => ({ ...(await decode(params)), big: BigInt(1) }),
        encode: async (params) => {
          const { big: _big, ...token } = params.token ?? {}
          return (await import("../../src/jwt/index.js")).encode({ ...params, token })
        },
      },
    })
    await client.signIn()
    const response = await client.get("session")
    expect(await response.json()).toMatchObject({ user: { email: "ada@app.test" } })
    expect(sessionLine(response)).toBeDefined()
  })

  it("reports the same expiry whether or not it writes, with a token shorter-lived than the session", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2030-01-01T00:00:00Z") })
    const { client } = countingClient({ jwt: { maxAge: 3600 } })
    await client.signIn()
    moveClockOn(10 * 60 * 1000)
    expect(((await client.session()) as Session).expires).toBe("2030-01-31T00:00:00.000Z")
    moveClockOn(21 * 60 * 1000)
    const written = await client.get("session")
    expect(sessionLine(written)).toBeDefined()
    expect(((await written.json()) as Session).expires).toBe("2030-01-31T00:31:00.000Z")
    moveClockOn(9 * 60 * 1000)
    expect(((await client.session()) as Session).expires).toBe("2030-01-31T00:31:00.000Z")
  })

  it("always writes on an update (POST session)", async () => {
    const { client } = countingClient()
    await client.signIn()
    const response = await client.postJson("session", { csrfToken: await client.csrfToken(), data: {} })
    expect(response.status).toBe(200)
    expect(sessionLine(response)).toBeDefined()
  })

  it("clears the cookie when the jwt callback returns null, fresh token or not", async () => {
    let end = false
    const { client } = countingClient({}, ({ token }) => (end ? null : token))
    await client.signIn()
    end = true
    const response = await client.get("session")
    expect(await response.json()).toBeNull()
    expect(sessionLine(response)).toMatch(/^__Secure-authjs\.session-token=; Max-Age=0;/)
  })
})

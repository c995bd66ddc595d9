import { describe, expect, it } from "vitest"
import type { AuthConfig, EventCallbacks } from "../../src/types.js"
import { AccessDenied } from "../../src/errors.js"
import { ada, base, Client, credentialsConfig, origin, recordingLogger, secret } from "./flow-helpers.js"

type Call = { name: string; params: Record<string, unknown> }

/** A configuration whose every callback and event records its arguments. */
function recorded(extra: Partial<AuthConfig> = {}) {
  const calls: Call[] = []
  const record = (name: string) => (params: Record<string, unknown>) => void calls.push({ name, params: structuredClone(params) })
  const config = credentialsConfig({
    callbacks: {
      signIn: (params) => (record("signIn")(params as never), true),
      redirect: (params) => (record("redirect")(params as never), params.url.startsWith("/") ? `${params.baseUrl}${params.url}` : params.baseUrl),
      jwt: (params) => (record("jwt")(params as never), { ...params.token, role: "admin" }),
      session: (params) => (record("session")(params as never), { ...params.session, role: params.token?.role }),
    },
    events: Object.fromEntries(
      (["signIn", "signOut", "createUser", "updateUser", "linkAccount", "session"] as const).map((name) => [name, record(`event:${name}`)]),
    ) as Partial<EventCallbacks>,
    ...extra,
  })
  return { config, calls, named: (name: string) => calls.filter((call) => call.name === name).map((call) => call.params) }
}

describe("callbacks and events", () => {
  it("calls signIn, jwt and the signIn event with the sign-in arguments", async () => {
    const { config, named } = recorded()
    const client = new Client(config)
    await client.signIn({ username: "ada", password: "correct horse", callbackUrl: "/home" })

    const account = { providerAccountId: ada.id, type: "credentials", provider: "credentials" }
    const [signIn] = named("signIn")
    expect(signIn).toEqual({ user: ada, account, credentials: expect.objectContaining({ username: "ada", password: "correct horse" }) })
    expect(Object.keys(signIn!).sort()).toEqual(["account", "credentials", "user"])

    const [jwt] = named("jwt")
    expect(jwt).toEqual({
      token: { name: ada.name, email: ada.email, picture: ada.image, sub: ada.id },
      user: ada,
      account,
      isNewUser: false,
      trigger: "signIn",
    })
    expect(named("event:signIn")).toEqual([{ user: ada, account }])
    expect(named("redirect")).toContainEqual({ url: "/home", baseUrl: origin })
  })

  it("calls jwt with only the token, then session with session and token, on a session read", async () => {
    const { config, calls, named } = recorded()
    const client = new Client(config)
    await client.signIn()
    calls.length = 0

    const body = (await client.session()) as Record<string, unknown>
    const [jwt] = named("jwt")
    expect(Object.keys(jwt!)).toEqual(["token"])
    expect(jwt!.token).toMatchObject({ sub: ada.id, role: "admin", iat: expect.any(Number), exp: expect.any(Number), jti: expect.any(String) })

    const [session] = named("session")
    expect(Object.keys(session!).sort()).toEqual(["session", "token"])
    expect(session!.session).toEqual({ user: { name: ada.name, email: ada.email, image: ada.image }, expires: expect.any(String) })
    expect(body).toEqual({ ...(session!.session as object), role: "admin" })
    expect(named("event:session")).toEqual([{ session: body, token: expect.objectContaining({ sub: ada.id }) }])
  })

  it("passes update data with trigger 'update' to jwt and session on POST session", async () => {
    const { config, calls, named } = recorded({
      callbacks: {
        jwt: ({ token, trigger, session }) => (trigger === "update" ? { ...token, name: (session as { name: string }).name } : token),
        session: (params) => (calls.push({ name: "session", params: structuredClone(params) as never }), params.session),
      },
    })
    const client = new Client(config)
    await client.signIn()
    const response = await client.postJson("session", { csrfToken: await client.csrfToken(), data: { name: "Countess" } })
    expect(response.headers.get("cache-control")).toBeNull()
    expect(((await response.json()) as { user: { name: string } }).user.name).toBe("Countess")
    const [update] = named("session")
    expect(update).toMatchObject({ trigger: "update", newSession: { name: "Countess" } })
    // The update is stored in the re-issued cookie.
    expect(((await client.session()) as { user: { name: string } }).user.name).toBe("Countess")
  })

  it("fires signOut with the token, and sign-out still works when an event handler throws", async () => {
    const { logger, lines } = recordingLogger()
    const tokens: unknown[] = []
    const client = new Client(
      credentialsConfig({
        logger,
        events: {
          signOut: (message) => {
            tokens.push("token" in message ? message.token : undefined)
            throw new Error("audit log is down")
          },
          signIn: () => Promise.reject(new Error("audit log is down")),
        },
      }),
    )
    expect((await client.signIn()).headers.get("location")).toBe(origin)
    const response = await client.postForm("signout", { csrfToken: await client.csrfToken() })
    expect(response.status).toBe(302)
    expect(tokens).toEqual([expect.objectContaining({ sub: ada.id })])
    expect(lines.filter((line) => line.code === "EventError")).toHaveLength(2)
    expect(await client.session()).toBeNull()
  })

  it("denies access with AccessDenied when signIn returns false", async () => {
    const client = new Client(credentialsConfig({ callbacks: { signIn: () => false } }))
    const response = await client.signIn()
    expect(response.headers.get("location")).toBe(`${base}/error?error=AccessDenied`)
    expect(await client.session()).toBeNull()
  })

  it("denies access with AccessDenied carrying the original message when signIn throws an AuthError, logged as a refusal (one warning line)", async () => {
    const { logger, lines } = recordingLogger()
    const client = new Client(credentialsConfig({ logger, callbacks: { signIn: () => { throw new AccessDenied("banned until May") } } }))
    const response = await client.signIn()
    expect(response.headers.get("location")).toBe(`${base}/error?error=AccessDenied`)
    expect(lines).toEqual([{ level: "warn", code: "AccessDenied", message: ["banned until May"] }])
  })

  it("denies access the same way when signIn throws anything else, and logs what it threw as a fault first, with its stack", async () => {
    const { logger, lines } = recordingLogger()
    const failure = new TypeError("db.users is undefined")
    const client = new Client(credentialsConfig({ logger, callbacks: { signIn: () => { throw failure } } }))
    const response = await client.signIn()
    expect(response.headers.get("location")).toBe(`${base}/error?error=AccessDenied`)
    expect(lines).toEqual([
      { level: "error", code: "Error", message: [failure] },
      { level: "warn", code: "AccessDenied", message: ["db.users is undefined"] },
    ])
  })

  it("redirects where signIn says when it returns a URL, through the redirect callback, without a session", async () => {
    const client = new Client(credentialsConfig({ callbacks: { signIn: () => "/onboarding" } }))
    const response = await client.signIn()
    expect(response.headers.get("location")).toBe(`${origin}/onboarding`)
    expect(await client.session()).toBeNull()

    const offsite = new Client(credentialsConfig({ callbacks: { signIn: () => "https://evil.test/phish" } }))
    expect((await offsite.signIn()).headers.get("location")).toBe(origin)
  })

  it("ends the session when jwt returns null, clearing the cookie", async () => {
    let revoked = false
    const client = new Client(credentialsConfig({ callbacks: { jwt: ({ token }) => (revoked ? null : token) } }))
    await client.signIn()
    expect(await client.session()).not.toBeNull()
    revoked = true
    const response = await client.get("session")
    expect(await response.json()).toBeNull()
    expect(response.headers.getSetCookie()).toContain("__Secure-authjs.session-token=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax")
  })

  it("refuses a session when jwt returns null at sign-in", async () => {
    const client = new Client(credentialsConfig({ callbacks: { jwt: () => null } }))
    expect((await client.signIn()).status).toBe(302)
    expect(await client.session()).toBeNull()
  })

  it("clears the session when a callback throws during a session read, logging it as a fault", async () => {
    const { logger, lines } = recordingLogger()
    let broken = false
    const client = new Client(
      credentialsConfig({ logger, callbacks: { session: ({ session }) => { if (broken) throw new Error("bug"); return session } } }),
    )
    await client.signIn()
    broken = true
    expect(await client.session()).toBeNull()
    expect(lines.some((line) => line.level === "error" && line.code === "SessionTokenError")).toBe(true)
  })

  it.each([undefined, "session", 42, null])("ends the session when the session callback returns %j", async (value) => {
    let broken = false
    const client = new Client(credentialsConfig({ callbacks: { session: ({ session }) => (broken ? (value as never) : session) } }))
    await client.signIn()
    broken = true
    const response = await client.get("session")
    expect(await response.json()).toBeNull()
    expect(response.headers.getSetCookie()).toContain("__Secure-authjs.session-token=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax")
  })

  it("fires no signOut event for a session cookie that does not decode", async () => {
    const fired: unknown[] = []
    const client = new Client(credentialsConfig({ events: { signOut: (message) => void fired.push(message) } }))
    client.jar.cookies.set("__Secure-authjs.session-token", "garbage")
    const response = await client.postForm("signout", { csrfToken: await client.csrfToken() })
    expect(response.headers.getSetCookie()).toContain("__Secure-authjs.session-token=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax")
    expect(fired).toEqual([])
  })

  it("exposes only name, email, image and expires by default", async () => {
    const client = new Client(credentialsConfig({ secret }))
    await client.signIn()
    const session = (await client.session()) as Record<string, unknown>
    expect(Object.keys(session).sort()).toEqual(["expires", "user"])
    expect(Object.keys(session.user as object).sort()).toEqual(["email", "image", "name"])
  })
})

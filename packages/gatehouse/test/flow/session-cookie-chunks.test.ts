/**
 * The session cookie as a browser sees it through `Auth()`: split into `.0`, `.1`, … chunks when
 * the token outgrows one cookie, reassembled on the way in, and every chunk the new value does
 * not use deleted; plus the names and attributes of the cookies, with and without overrides.
 */
import { randomBytes } from "node:crypto"
import { afterEach, describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/core/handler.js"
import { getToken } from "../../src/jwt/index.js"
import { Credentials } from "../../src/providers/credentials.js"
import type { AuthConfig, Session } from "../../src/types.js"
import { Client, ada, credentialsConfig, moveClockOn, secret } from "./flow-helpers.js"

const SESSION = "__Secure-authjs.session-token"
const CHUNK_SIZE = 3936

/** Random base64url text: nothing in the token can shrink it. */
function randomText(length: number): string {
  return randomBytes(Math.ceil((length * 3) / 4) + 3)
    .toString("base64url")
    .slice(0, length)
}

type BigSession = Session & { big?: string }

/**
 * A configuration whose `jwt` callback carries a random `big` claim of `claim.length` characters
 * (kept as long as its length is right, dropped at 0), and whose `session` callback exposes it.
 */
function bigClaimClient() {
  const claim = { length: 0, generated: undefined as string | undefined }
  const config = credentialsConfig({
    callbacks: {
      jwt: ({ token }) => {
        const { big, ...rest } = token
        if (claim.length === 0) return rest
        if (typeof big === "string" && big.length === claim.length) return token
        claim.generated = randomText(claim.length)
        return { ...rest, big: claim.generated }
      },
      session: ({ session, token }) => ({ ...session, ...(typeof token?.big === "string" && { big: token.big }) }),
    },
  })
  return { client: new Client(config), claim }
}

interface SetCookie {
  name: string
  value: string
  /** Everything after the value, in order. */
  attributes: string
  line: string
}

function setCookies(response: Response): SetCookie[] {
  return response.headers.getSetCookie().map((line) => {
    const eq = line.indexOf("=")
    const semi = line.indexOf(";")
    const end = semi === -1 ? line.length : semi
    return { name: line.slice(0, eq), value: line.slice(eq + 1, end), attributes: line.slice(end), line }
  })
}

function sessionCookies(response: Response, name = SESSION): SetCookie[] {
  return setCookies(response).filter((c) => c.name === name || c.name.startsWith(`${name}.`) || c.name.startsWith(`${name}-`))
}

function isDeletion(cookie: SetCookie): boolean {
  return cookie.value === "" && /; Max-Age=0(;|$)/.test(cookie.attributes)
}

function sessionJarNames(client: Client): string[] {
  return [...client.jar.cookies.keys()].filter((name) => name.startsWith(SESSION)).sort()
}

/** Checks the written chunks of one response: names `.0` … `.n-1`, sizes, shared attributes. */
function expectChunks(written: SetCookie[], count: number): void {
  expect(written.map((c) => c.name)).toEqual(Array.from({ length: count }, (_, i) => `${SESSION}.${i}`))
  for (const [i, chunk] of written.entries()) {
    expect(chunk.value.length).toBeLessThanOrEqual(CHUNK_SIZE)
    if (i < count - 1) expect(chunk.value.length).toBe(CHUNK_SIZE)
    expect(chunk.value.length).toBeGreaterThan(0)
  }
  expect(new Set(written.map((c) => c.attributes)).size).toBe(1)
  expect(written[0]!.attributes).toMatch(/^; Path=\/; Expires=[^;]+; HttpOnly; Secure; SameSite=Lax$/)
  // The chunks concatenate to one JWE.
  expect(written.map((c) => c.value).join("").split(".")).toHaveLength(5)
}

afterEach(() => {
  vi.useRealTimers()
})

describe("session cookie chunking through Auth()", () => {
  it("a ~5 KB claim splits the re-issued session cookie into .0 and .1, deleting the plain cookie", async () => {
    const { client, claim } = bigClaimClient()
    await client.signIn()
    expect(sessionJarNames(client)).toEqual([SESSION])

    claim.length = 5_000
    const response = await client.get("session")
    const cookies = sessionCookies(response)
    expect(cookies.filter(isDeletion).map((c) => c.name)).toEqual([SESSION])
    const written = cookies.filter((c) => !isDeletion(c))
    expectChunks(written, 2)
    expect(sessionJarNames(client)).toEqual([`${SESSION}.0`, `${SESSION}.1`])
    expect(((await response.json()) as BigSession).big).toBe(claim.generated)
  })

  it("a ~7 KB claim (a token of about 9.5 KB) splits the session cookie into .0, .1 and .2", async () => {
    const { client, claim } = bigClaimClient()
    await client.signIn()
    claim.length = 5_000
    await client.get("session")

    claim.length = 7_000
    const response = await client.get("session")
    const cookies = sessionCookies(response)
    expect(cookies.filter(isDeletion)).toEqual([])
    expectChunks(cookies, 3)
    const total = cookies.reduce((sum, c) => sum + c.value.length, 0)
    expect(total).toBeGreaterThan(2 * CHUNK_SIZE)
    expect(total).toBeLessThanOrEqual(3 * CHUNK_SIZE)
    expect(sessionJarNames(client)).toEqual([`${SESSION}.0`, `${SESSION}.1`, `${SESSION}.2`])
  })

  it("a big claim given at sign-in is written in chunks by the sign-in itself", async () => {
    const { client, claim } = bigClaimClient()
    claim.length = 7_000
    const response = await client.signIn()
    expect(response.status).toBe(302)
    expectChunks(sessionCookies(response), 3)
  })

  it.each([
    [5_000, 2],
    [7_000, 3],
  ])("chunked cookies (claim of %i characters, %i chunks) are read back: the session callback sees the whole claim", async (length, count) => {
    const { client, claim } = bigClaimClient()
    await client.signIn()
    claim.length = length
    await client.get("session")
    const issued = claim.generated
    expect(sessionJarNames(client)).toHaveLength(count)

    const response = await client.get("session")
    const session = (await response.json()) as BigSession
    expect(session.user).toEqual({ name: ada.name, email: ada.email, image: ada.image })
    // Kept by the jwt callback, so read from the chunks and not generated anew; nothing changed
    // and the token is fresh, so nothing is written.
    expect(claim.generated).toBe(issued)
    expect(session.big).toBe(issued)
    expect(sessionCookies(response)).toEqual([])

    // A day on, the read writes it again, in the same number of chunks, with nothing to delete.
    moveClockOn()
    const rewrite = await client.get("session")
    expect(((await rewrite.json()) as BigSession).big).toBe(issued)
    const cookies = sessionCookies(rewrite)
    expect(cookies.filter(isDeletion)).toEqual([])
    expectChunks(cookies, count)
  })

  it("dropping the claim deletes every old chunk with Max-Age=0 and writes one plain cookie", async () => {
    const { client, claim } = bigClaimClient()
    await client.signIn()
    claim.length = 7_000
    await client.get("session")
    expect(sessionJarNames(client)).toHaveLength(3)

    claim.length = 0
    const response = await client.get("session")
    const cookies = sessionCookies(response)
    expect(cookies.map((c) => [c.name, isDeletion(c)])).toEqual([
      [`${SESSION}.0`, true],
      [`${SESSION}.1`, true],
      [`${SESSION}.2`, true],
      [SESSION, false],
    ])
    for (const deletion of cookies.slice(0, 3)) {
      expect(deletion.attributes).toBe("; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax")
    }
    expect(cookies[3]!.value.length).toBeLessThanOrEqual(CHUNK_SIZE)
    expect(sessionJarNames(client)).toEqual([SESSION])
    const session = (await client.session()) as BigSession
    expect(session.user?.email).toBe(ada.email)
    expect(session.big).toBeUndefined()
  })

  it("going from three chunks to two deletes the third", async () => {
    const { client, claim } = bigClaimClient()
    await client.signIn()
    claim.length = 7_000
    await client.get("session")

    claim.length = 5_000
    const cookies = sessionCookies(await client.get("session"))
    expect(cookies.map((c) => [c.name, isDeletion(c)])).toEqual([
      [`${SESSION}.0`, false],
      [`${SESSION}.1`, false],
      [`${SESSION}.2`, true],
    ])
    expect(sessionJarNames(client)).toEqual([`${SESSION}.0`, `${SESSION}.1`])
    expect(((await client.session()) as BigSession).big).toBe(claim.generated)
  })

  it("sign-out deletes every chunk", async () => {
    const { client, claim } = bigClaimClient()
    await client.signIn()
    claim.length = 7_000
    await client.get("session")

    const response = await client.postForm("signout", { csrfToken: await client.csrfToken() })
    expect(response.status).toBe(302)
    const cookies = sessionCookies(response)
    expect(cookies.map((c) => c.name)).toEqual([`${SESSION}.0`, `${SESSION}.1`, `${SESSION}.2`])
    expect(cookies.every(isDeletion)).toBe(true)
    expect(sessionJarNames(client)).toEqual([])
    expect(await client.session()).toBeNull()
  })

  it("a stale .5 chunk in the request is deleted when a sign-in writes the session cookie", async () => {
    const client = new Client(credentialsConfig())
    client.jar.cookies.set(`${SESSION}.5`, "left-over")
    const cookies = sessionCookies(await client.signIn())
    expect(cookies.map((c) => [c.name, isDeletion(c)])).toEqual([
      [`${SESSION}.5`, true],
      [SESSION, false],
    ])
    expect(sessionJarNames(client)).toEqual([SESSION])
    expect(await client.session()).toMatchObject({ user: { email: ada.email } })
  })

  it("an empty stale .5 chunk is skipped when reading and deleted when GET session re-writes the chunks", async () => {
    const { client, claim } = bigClaimClient()
    await client.signIn()
    claim.length = 5_000
    await client.get("session")
    const issued = claim.generated
    client.jar.cookies.set(`${SESSION}.5`, "")
    moveClockOn()

    const response = await client.get("session")
    expect(((await response.json()) as BigSession).big).toBe(issued)
    const cookies = sessionCookies(response)
    expect(cookies.map((c) => [c.name, isDeletion(c)])).toEqual([
      [`${SESSION}.0`, false],
      [`${SESSION}.1`, false],
      [`${SESSION}.5`, true],
    ])
  })

  it("an empty stale .5 next to a plain cookie is deleted when GET session re-writes the plain cookie", async () => {
    const client = new Client(credentialsConfig())
    await client.signIn()
    client.jar.cookies.set(`${SESSION}.5`, "")
    moveClockOn()

    const response = await client.get("session")
    expect(await response.json()).toMatchObject({ user: { email: ada.email } })
    expect(sessionCookies(response).map((c) => [c.name, isDeletion(c)])).toEqual([
      [SESSION, false],
      [`${SESSION}.5`, true],
    ])
  })

  it.each([`${SESSION}-foo`, `${SESSION}.x`, `${SESSION}.`, `${SESSION}.1e3`])(
    "a cookie named %s is neither read as a chunk nor deleted",
    async (foreign) => {
      const client = new Client(credentialsConfig())
      await client.signIn()
      client.jar.cookies.set(foreign, "garbage-that-would-break-the-token")
      moveClockOn()

      const response = await client.get("session")
      expect(await response.json()).toMatchObject({ user: { name: ada.name, email: ada.email } })
      const cookies = setCookies(response)
      expect(cookies.map((c) => c.name)).not.toContain(foreign)
      expect(cookies.filter((c) => c.name === SESSION && !isDeletion(c))).toHaveLength(1)

      const signOut = await client.postForm("signout", { csrfToken: await client.csrfToken() })
      expect(setCookies(signOut).map((c) => c.name)).not.toContain(foreign)
      expect(client.jar.cookies.has(foreign)).toBe(true)
    },
  )

  it("cookies named like chunks of a foreign name are ignored next to a chunked session", async () => {
    const { client, claim } = bigClaimClient()
    await client.signIn()
    claim.length = 5_000
    await client.get("session")
    const issued = claim.generated
    client.jar.cookies.set(`${SESSION}-foo.0`, "x")
    client.jar.cookies.set(`${SESSION}.x`, "y")
    moveClockOn()

    const response = await client.get("session")
    expect(((await response.json()) as BigSession).big).toBe(issued)
    expect(sessionCookies(response).map((c) => c.name)).toEqual([`${SESSION}.0`, `${SESSION}.1`])
  })
})

describe("session cookies planted beside the genuine one (a sibling subdomain's Domain= cookies)", () => {
  /** Anyone can sign in as anyone by name here: the attacker and the victim are two clients. */
  function twoPeople() {
    const config = credentialsConfig({
      providers: [
        Credentials({
          credentials: { username: {} },
          authorize: ({ username }) => ({ id: String(username), name: String(username), email: `${String(username)}@app.test` }),
        }),
      ],
    })
    return { config, victim: new Client(config), attacker: new Client(config) }
  }

  /** The attacker's own session token, split by hand into `.0` and `.1` as a planted pair. */
  async function attackerChunks(attacker: Client): Promise<[string, string][]> {
    await attacker.signIn({ username: "mallory" })
    const token = attacker.jar.cookies.get(SESSION)!
    const half = Math.ceil(token.length / 2)
    return [[`${SESSION}.0`, token.slice(0, half)], [`${SESSION}.1`, token.slice(half)]]
  }

  function sessionRequest(cookieHeader: string): Request {
    return new Request("https://app.test/auth/session", { headers: { cookie: cookieHeader } })
  }

  it("a whole cookie beside planted chunks is no session (Auth.js refuses it too), and nothing is deleted", async () => {
    const { config, victim, attacker } = twoPeople()
    await victim.signIn({ username: "victim" })
    for (const [name, value] of await attackerChunks(attacker)) victim.jar.cookies.set(name, value)

    const response = await Auth(sessionRequest(victim.jar.header()), config as Omit<AuthConfig, "raw">)
    expect(await response.json()).toBeNull()
    // Deleting can reach only the site's own host-only cookies: the genuine half.
    expect(response.headers.getSetCookie()).toEqual([])
  })

  it("planted chunks beside a chunked session are read as nobody's, not the attacker's", async () => {
    const { config, attacker } = twoPeople()
    const [first, second] = await attackerChunks(attacker)
    const header = `${SESSION}.0=${first![1]}; ${SESSION}.1=${second![1]}`
    // Sanity: the planted pair alone reads as the attacker's session.
    expect(await (await Auth(sessionRequest(header), config as Omit<AuthConfig, "raw">)).json()).toMatchObject({ user: { name: "mallory" } })
    // A second `.0` (a parent-domain copy with a longer Path, sent first) makes the session ambiguous.
    const twice = `${SESSION}.0=${first![1]}; ${SESSION}.0=genuine-first-half; ${SESSION}.1=${second![1]}`
    const response = await Auth(sessionRequest(twice), config as Omit<AuthConfig, "raw">)
    expect(await response.json()).toBeNull()
    expect(response.headers.getSetCookie()).toEqual([])
  })

  it("a session cookie name sent twice is no session, whichever copy comes first", async () => {
    const { config, victim, attacker } = twoPeople()
    await victim.signIn({ username: "victim" })
    await attacker.signIn({ username: "mallory" })
    const planted = `${SESSION}=${attacker.jar.cookies.get(SESSION)!}`
    const genuine = `${SESSION}=${victim.jar.cookies.get(SESSION)!}`
    for (const header of [`${planted}; ${genuine}`, `${genuine}; ${planted}`]) {
      expect(await (await Auth(sessionRequest(header), config as Omit<AuthConfig, "raw">)).json()).toBeNull()
    }
  })

  it("getToken() applies the same rules", async () => {
    const { victim, attacker } = twoPeople()
    await victim.signIn({ username: "victim" })
    const chunks = await attackerChunks(attacker)
    const genuine = `${SESSION}=${victim.jar.cookies.get(SESSION)!}`
    const planted = chunks.map(([name, value]) => `${name}=${value}`).join("; ")
    const read = (cookie: string) => getToken({ req: new Request("https://app.test/", { headers: { cookie } }), secret, secureCookie: true })
    expect(await read(genuine)).toMatchObject({ name: "victim" })
    expect(await read(planted)).toMatchObject({ name: "mallory" })
    expect(await read(`${genuine}; ${planted}`)).toBeNull()
    expect(await read(`${SESSION}=${attacker.jar.cookies.get(SESSION)!}; ${genuine}`)).toBeNull()
  })

  it.each([
    ["a gap", [0, 2]],
    ["no chunk 0", [1, 2]],
    ["more than 16 chunks", Array.from({ length: 17 }, (_, i) => i)],
  ])("chunks with %s are no session, and are deleted", async (_case, indices) => {
    const { config, attacker } = twoPeople()
    const first = (await attackerChunks(attacker))[0]![1]
    const header = indices.map((i) => `${SESSION}.${i}=${first}`).join("; ")
    const response = await Auth(sessionRequest(header), config as Omit<AuthConfig, "raw">)
    expect(await response.json()).toBeNull()
    const deleted = response.headers.getSetCookie().map((line) => line.slice(0, line.indexOf("=")))
    expect(deleted).toEqual(indices.slice(0, 16).map((i) => `${SESSION}.${i}`))
  })

  it("a genuine token in exactly 16 chunks is read as the session, in 17 chunks as none (Auth() and getToken)", async () => {
    const { config, victim } = twoPeople()
    await victim.signIn({ username: "victim" })
    const token = victim.jar.cookies.get(SESSION)!
    /** The genuine token cut into `count` chunks, as a `Cookie` header. */
    const split = (count: number) => {
      const size = Math.ceil(token.length / count)
      const chunks = Array.from({ length: count }, (_, i) => token.slice(i * size, (i + 1) * size))
      expect(chunks.every((chunk) => chunk !== "")).toBe(true)
      return chunks.map((chunk, i) => `${SESSION}.${i}=${chunk}`).join("; ")
    }
    const viaGetToken = (cookie: string) => getToken({ req: new Request("https://app.test/", { headers: { cookie } }), secret, secureCookie: true })

    expect(await (await Auth(sessionRequest(split(16)), config as Omit<AuthConfig, "raw">)).json()).toMatchObject({ user: { name: "victim" } })
    expect(await viaGetToken(split(16))).toMatchObject({ name: "victim" })

    const over = await Auth(sessionRequest(split(17)), config as Omit<AuthConfig, "raw">)
    expect(await over.json()).toBeNull()
    expect(await viaGetToken(split(17))).toBeNull()
  })

  it("a ~14 KB header of junk chunk names costs at most 16 deletion lines", async () => {
    const { config } = twoPeople()
    const header = Array.from({ length: 500 }, (_, i) => `${SESSION}.${i}=x`).join("; ")
    expect(header.length).toBeGreaterThan(14_000)
    for (const request of [sessionRequest(header), new Request("https://app.test/auth/signout", { method: "POST", headers: { cookie: header } })]) {
      const response = await Auth(request, config as Omit<AuthConfig, "raw">)
      expect(response.status).toBeLessThan(500)
      expect(response.headers.getSetCookie().filter((line) => line.startsWith(`${SESSION}.`)).length).toBeLessThanOrEqual(16)
    }
  })
})

describe("cookie names and attributes through Auth()", () => {
  /** The Set-Cookie lines of GET csrf and of a credentials sign-in. */
  async function issuedCookies(client: Client) {
    const csrf = setCookies(await client.get("csrf"))
    const signIn = setCookies(await client.signIn())
    return [...csrf, ...signIn]
  }

  it("on https every cookie is HttpOnly, SameSite=Lax, Path=/, Secure, with __Host-/__Secure- names", async () => {
    const cookies = await issuedCookies(new Client(credentialsConfig()))
    expect(cookies.map((c) => c.name)).toEqual(["__Host-authjs.csrf-token", "__Secure-authjs.callback-url", SESSION])
    for (const cookie of cookies) {
      expect(cookie.attributes).toMatch(/^; Path=\/(; Expires=[^;]+)?; HttpOnly; Secure; SameSite=Lax$/)
      expect(cookie.attributes).not.toMatch(/Domain=/)
    }
    expect(cookies[2]!.attributes).toMatch(/; Expires=/)
  })

  it("on http the cookies carry no Secure attribute and no prefix", async () => {
    const client = new Client(credentialsConfig(), "http://app.test")
    const cookies = await issuedCookies(client)
    expect(cookies.map((c) => c.name)).toEqual(["authjs.csrf-token", "authjs.callback-url", "authjs.session-token"])
    for (const cookie of cookies) {
      expect(cookie.attributes).toMatch(/^; Path=\/(; Expires=[^;]+)?; HttpOnly; SameSite=Lax$/)
      expect(cookie.name).not.toMatch(/^__/)
    }
    expect(await client.session()).toMatchObject({ user: { email: ada.email } })
  })

  it("useSecureCookies: true on http gives the secure names and the Secure attribute", async () => {
    const client = new Client(credentialsConfig({ useSecureCookies: true }), "http://app.test")
    const cookies = await issuedCookies(client)
    expect(cookies.map((c) => c.name)).toEqual(["__Host-authjs.csrf-token", "__Secure-authjs.callback-url", SESSION])
    for (const cookie of cookies) expect(cookie.attributes).toMatch(/; HttpOnly; Secure; SameSite=Lax$/)
    expect(await client.session()).toMatchObject({ user: { email: ada.email } })
  })

  it("useSecureCookies: false on https gives the plain names without Secure", async () => {
    const client = new Client(credentialsConfig({ useSecureCookies: false }))
    const cookies = await issuedCookies(client)
    expect(cookies.map((c) => c.name)).toEqual(["authjs.csrf-token", "authjs.callback-url", "authjs.session-token"])
    for (const cookie of cookies) expect(cookie.attributes).not.toMatch(/Secure/)
    expect(await client.session()).toMatchObject({ user: { email: ada.email } })
  })

  it("a sessionToken name override keeps the default options", async () => {
    const client = new Client(credentialsConfig({ cookies: { sessionToken: { name: "custom" } } }))
    const cookies = await issuedCookies(client)
    expect(cookies.map((c) => c.name)).toEqual(["__Host-authjs.csrf-token", "__Secure-authjs.callback-url", "custom"])
    expect(cookies[2]!.attributes).toMatch(/^; Path=\/; Expires=[^;]+; HttpOnly; Secure; SameSite=Lax$/)
    expect(await client.session()).toMatchObject({ user: { email: ada.email } })
    expect(client.jar.cookies.has(SESSION)).toBe(false)
  })

  it("a sessionToken name override is also the name of its chunks", async () => {
    const claim = { length: 5_000 }
    const client = new Client(
      credentialsConfig({
        cookies: { sessionToken: { name: "custom" } },
        callbacks: { jwt: ({ token }) => ({ ...token, big: randomText(claim.length) }) },
      }),
    )
    const cookies = setCookies(await client.signIn()).filter((c) => c.name.startsWith("custom"))
    expect(cookies.map((c) => c.name)).toEqual(["custom.0", "custom.1"])
    expect(cookies[0]!.attributes).toBe(cookies[1]!.attributes)
    expect(await client.session()).toMatchObject({ user: { email: ada.email } })
  })

  it("a csrfToken options override keeps the default name and the other default options", async () => {
    const client = new Client(credentialsConfig({ cookies: { csrfToken: { options: { sameSite: "strict" } } } }))
    const [csrf, callbackUrl] = setCookies(await client.get("csrf"))
    expect(csrf!.name).toBe("__Host-authjs.csrf-token")
    expect(csrf!.attributes).toBe("; Path=/; HttpOnly; Secure; SameSite=Strict")
    expect(callbackUrl!.attributes).toBe("; Path=/; HttpOnly; Secure; SameSite=Lax")
    // The overridden cookie still does its job.
    expect((await client.signIn()).headers.get("location")).toBe("https://app.test")
  })
})

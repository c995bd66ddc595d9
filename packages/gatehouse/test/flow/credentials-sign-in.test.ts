import { describe, expect, it } from "vitest"
import { CredentialsSignin } from "../../src/errors.js"
import { Credentials } from "../../src/providers/credentials.js"
import { ada, base, Client, credentialsConfig, origin, recordingLogger } from "./flow-helpers.js"

/** Set-Cookie lines without their Expires date (it moves with the clock; Max-Age says the same). */
const withoutExpires = (lines: string[]) => lines.map((line) => line.replace(/; Expires=[^;]*/i, ""))

const SESSION = "__Secure-authjs.session-token"

describe("credentials sign-in through Auth()", () => {
  it("signs in, shows the session, and signs out: csrf → callback → session → signout", async () => {
    const client = new Client(credentialsConfig())
    expect(await client.session()).toBeNull()

    const signIn = await client.signIn({ username: "ada", password: "correct horse", callbackUrl: "/dashboard" })
    expect(signIn.status).toBe(302)
    expect(signIn.headers.get("location")).toBe(`${origin}/dashboard`)
    expect(client.jar.get(SESSION)).toMatch(/^eyJ[\w-]+\.\.[\w-]+\.[\w-]+\.[\w-]+$/)

    const session = (await client.session()) as { user: Record<string, unknown>; expires: string }
    expect(session.user).toEqual({ name: ada.name, email: ada.email, image: ada.image })
    expect(Date.parse(session.expires) - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000)

    const signOut = await client.postForm("signout", { csrfToken: await client.csrfToken() })
    expect(signOut.status).toBe(302)
    expect(signOut.headers.get("location")).toBe(`${origin}/dashboard`)
    expect(signOut.headers.getSetCookie()).toContain(`${SESSION}=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax`)
    expect(client.jar.get(SESSION)).toBeUndefined()
    expect(await client.session()).toBeNull()
  })

  it("never logs the secret, the CSRF token, the password or the session token, even with debug on", async () => {
    const { logger, lines } = recordingLogger()
    const client = new Client(credentialsConfig({ logger, debug: true }))
    await client.signIn({ username: "ada", password: "wrong" })
    await client.signIn({ username: "ada", password: "correct horse", callbackUrl: "javascript:alert(1)" })
    await client.session()
    client.jar.cookies.set("__Secure-authjs.session-token", `${client.jar.cookies.get("__Secure-authjs.session-token")}x`)
    await client.session()
    const csrf = client.jar.get("__Host-authjs.csrf-token")!.split("|")[0]!
    const text = lines.map((line) => [line.code, ...line.message.map((m) => (m instanceof Error ? `${m.message} ${JSON.stringify(m.cause ?? "")}` : JSON.stringify(m)))].join(" ")).join("\n")
    expect(lines.length).toBeGreaterThan(1)
    for (const secretValue of [credentialsConfig().secret as string, csrf, "correct horse"]) expect(text).not.toContain(secretValue)
    expect(text).not.toMatch(/eyJ[\w-]{20,}/)
  })

  it("sends a refused sign-in back to the sign-in page with error=CredentialsSignin&code=credentials, the typed user name in a cookie for that page only, and no session", async () => {
    const client = new Client(credentialsConfig())
    const response = await client.signIn({ username: "ada", password: "wrong" })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${base}/signin?error=CredentialsSignin&code=credentials`)
    expect(withoutExpires(response.headers.getSetCookie())).toEqual(["__Secure-authjs.sign-in-identifier=username%3Dada; Max-Age=60; Path=/auth; HttpOnly; Secure; SameSite=Lax"])
    expect(await client.session()).toBeNull()
  })

  it("gives the same answer for a wrong username and a wrong password, but for the name typed", async () => {
    const client = new Client(credentialsConfig())
    const wrongUser = await client.signIn({ username: "eve", password: "correct horse" })
    const wrongPassword = await client.signIn({ username: "ada", password: "nope" })
    expect(wrongUser.headers.get("location")).toBe(`${base}/signin?error=CredentialsSignin&code=credentials`)
    expect(wrongPassword.headers.get("location")).toBe(wrongUser.headers.get("location"))
    expect(withoutExpires(wrongUser.headers.getSetCookie())).toEqual(withoutExpires(wrongPassword.headers.getSetCookie()).map((line) => line.replace("username%3Dada", "username%3Deve")))
  })

  it("puts a custom code from a CredentialsSignin subclass into the URL, and its message and code into the log", async () => {
    class RateLimited extends CredentialsSignin {
      override code = "rate_limited"
    }
    const { logger, lines } = recordingLogger()
    const client = new Client(
      credentialsConfig({
        logger,
        providers: [Credentials({ authorize: () => { throw new RateLimited("too many attempts for ada@app.test") } })],
      }),
    )
    const response = await client.signIn({ username: "ada", password: "x" })
    expect(response.headers.get("location")).toBe(`${base}/signin?error=CredentialsSignin&code=rate_limited`)
    expect(response.headers.get("location")).not.toContain("too many")
    expect(lines).toEqual([{ level: "warn", code: "CredentialsSignin", message: ["too many attempts for ada@app.test (code: rate_limited)"] }])
  })

  it("reports any other exception from authorize as Configuration", async () => {
    const { logger, lines } = recordingLogger()
    const client = new Client(
      credentialsConfig({ logger, providers: [Credentials({ authorize: () => { throw new TypeError("db down at 10.0.0.7") } })] }),
    )
    const response = await client.signIn({ username: "ada", password: "x" })
    expect(response.headers.get("location")).toBe(`${base}/error?error=Configuration`)
    expect(lines.some((line) => line.code === "CallbackRouteError")).toBe(true)
  })

  it("uses pages.signIn for a refused sign-in, with Auth.js's query only: no typed user name", async () => {
    const client = new Client(credentialsConfig({ pages: { signIn: "/login" } }))
    const response = await client.signIn({ username: "ada", password: "wrong" })
    expect(response.headers.get("location")).toBe(`${origin}/login?error=CredentialsSignin&code=credentials`)
  })

  it("hands authorize every posted field and a JSON request on the same URL", async () => {
    let seen: { credentials: Record<string, unknown>; url: string; body: unknown; type: string | null } | undefined
    const client = new Client(
      credentialsConfig({
        providers: [
          Credentials({
            authorize: async (credentials, request) => {
              seen = { credentials, url: request.url, body: await request.json(), type: request.headers.get("content-type") }
              return { id: "7" }
            },
          }),
        ],
      }),
    )
    const token = await client.csrfToken()
    await client.postForm("callback/credentials?tenant=acme", { csrfToken: token, username: "ada", otp: "123456" })
    expect(seen?.credentials).toEqual({ csrfToken: token, username: "ada", otp: "123456" })
    expect(seen?.url).toBe(`${base}/callback/credentials?tenant=acme`)
    expect(seen?.body).toEqual(seen?.credentials)
    expect(seen?.type).toBe("application/json")
  })

  it("turns a numeric id into a string subject and makes one up when authorize gives none", async () => {
    const subjects: unknown[] = []
    for (const user of [{ id: 42 as unknown as string, name: "N" }, { name: "No id" }]) {
      const client = new Client(
        credentialsConfig({
          providers: [Credentials({ authorize: () => user })],
          callbacks: { jwt: ({ token }) => (subjects.push(token.sub), token) },
        }),
      )
      await client.signIn({})
    }
    expect(subjects[0]).toBe("42")
    expect(subjects[1]).toMatch(/^[0-9a-f-]{36}$/)
  })

  it("keeps the user object authorize returned, getters included, and hands it to the signIn event", async () => {
    class UserRow {
      constructor(readonly id: string) {}
      get name() {
        return "Row Name"
      }
      get email() {
        return "row@app.test"
      }
    }
    const row = new UserRow("row-1")
    const seen: unknown[] = []
    const client = new Client(credentialsConfig({ providers: [Credentials({ authorize: () => row })], events: { signIn: ({ user }) => void seen.push(user) } }))
    await client.signIn({})
    expect(seen[0]).toBe(row)
    expect(await client.session()).toMatchObject({ user: { name: "Row Name", email: "row@app.test" } })
  })

  it("refuses the callback by GET (InvalidProvider: the request's fault), and a non-object user (Configuration: the app's)", async () => {
    const client = new Client(credentialsConfig())
    const get = await client.get("callback/credentials")
    expect(get.headers.get("location")).toBe(`${base}/error?error=InvalidProvider`)

    const weird = new Client(credentialsConfig({ providers: [Credentials({ authorize: () => "ada" as never })] }))
    expect((await weird.signIn({})).headers.get("location")).toBe(`${base}/error?error=Configuration`)
  })

  it("answers POST signin/credentials with the built-in sign-in page, as Auth.js does", async () => {
    for (const config of [credentialsConfig(), credentialsConfig({ pages: { signIn: "/login" } })]) {
      const client = new Client(config)
      const response = await client.postForm("signin/credentials", { csrfToken: await client.csrfToken() })
      expect(response.headers.get("location")).toBe(`${base}/signin`)
    }
  })
})

describe("what a failed credentials sign-in keeps", () => {
  const byEmail = (credentials: Record<string, Record<string, unknown>>) =>
    credentialsConfig({
      providers: [Credentials({ credentials, authorize: ({ email, password }) => (email === ada.email && password === "correct horse" ? { ...ada } : null), rateLimit: false })],
    })
  const emailAndPassword = { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } }

  it("shows the typed address again on the sign-in page, once, with the cursor in the empty password field; the URL names neither", async () => {
    const client = new Client(byEmail(emailAndPassword))
    const wrong = await client.signIn({ email: ada.email!, password: "hunter2" })
    const location = wrong.headers.get("location")!
    expect(location).toBe(`${base}/signin?error=CredentialsSignin&code=credentials`)
    expect(wrong.headers.getSetCookie().join("\n")).not.toContain("hunter2")

    const shown = await client.send(new Request(location, { headers: { cookie: client.jar.header() } }))
    const page = await shown.text()
    expect(page).toContain('<input name="email" id="input-email-for-credentials-provider" type="email" value="ada@app.test">')
    expect(page).toContain('<input name="password" id="input-password-for-credentials-provider" type="password" autocomplete="current-password" autofocus>')
    expect(page).not.toContain("hunter2")
    // Shown once: the page deletes it, under the name and path it was set with.
    expect(withoutExpires(shown.headers.getSetCookie())).toContain("__Secure-authjs.sign-in-identifier=; Max-Age=0; Path=/auth; HttpOnly; Secure; SameSite=Lax")
    const again = await (await client.send(new Request(location, { headers: { cookie: client.jar.header() } }))).text()
    expect(again).toContain('<input name="email" id="input-email-for-credentials-provider" type="email" autofocus>')
  })

  it("is shown on a page no browser or shared cache stores (as the page is whatever it shows)", async () => {
    const client = new Client(byEmail(emailAndPassword))
    const location = (await client.signIn({ email: ada.email!, password: "hunter2" })).headers.get("location")!
    const shown = await client.send(new Request(location, { headers: { cookie: client.jar.header() } }))
    expect(await shown.text()).toContain('value="ada@app.test"')
    expect(shown.headers.get("cache-control")).toBe("private, no-cache, no-store")
    expect(shown.headers.get("pragma")).toBe("no-cache")
    const plain = await client.send(new Request(location))
    expect(plain.headers.get("cache-control")).toBe("private, no-cache, no-store")
  })

  it("never carries a password, a field defined as one, a field that names no one, or one the provider does not define", async () => {
    const client = new Client(byEmail({ email: { label: "Email", type: "password" }, otp: { label: "Code" }, password: { label: "Password", type: "password" } }))
    const wrong = await client.signIn({ email: "pin-1234", username: "ada", otp: "123456", password: "hunter2" })
    expect(wrong.headers.get("location")).toBe(`${base}/signin?error=CredentialsSignin&code=credentials`)
    expect(wrong.headers.getSetCookie()).toEqual([])
  })

  it("carries nothing that is not a short string: an array, or more than 256 characters", async () => {
    const client = new Client(byEmail(emailAndPassword))
    const array = await client.postJson("callback/credentials", { csrfToken: await client.csrfToken(), email: [ada.email], password: "x" })
    expect(array.headers.getSetCookie()).toEqual([])
    const long = await client.signIn({ email: `${"a".repeat(250)}@app.test`, password: "x" })
    expect(long.headers.getSetCookie()).toEqual([])
  })

  it("shows a long address outside ASCII again, however long its encoding", async () => {
    const client = new Client(byEmail(emailAndPassword))
    // 245 characters, each three bytes in UTF-8: nine characters apiece once percent-encoded.
    const typed = `${"ü".repeat(240)}@a.de`
    const location = (await client.signIn({ email: typed, password: "x" })).headers.get("location")!
    expect(client.jar.get("__Secure-authjs.sign-in-identifier")!.length).toBeGreaterThan(1024)
    const page = await (await client.send(new Request(location, { headers: { cookie: client.jar.header() } }))).text()
    expect(page).toContain(`value="${typed}"`)
  })

  it("keeps the redirect on the request's origin and the typed value one field of its cookie, however it is spelled", async () => {
    const client = new Client(byEmail(emailAndPassword))
    const typed = `x&error=AccessDenied#"><script>alert(1)</script>@evil.test/; Path=/`
    const wrong = await client.signIn({ email: typed, password: "x" })
    const url = new URL(wrong.headers.get("location")!)
    expect(`${url.origin}${url.pathname}`).toBe(`${base}/signin`)
    expect(url.hash).toBe("")
    expect([...url.searchParams]).toEqual([["error", "CredentialsSignin"], ["code", "credentials"]])
    const [line] = wrong.headers.getSetCookie()
    expect(withoutExpires([line!])[0]!.split(";").slice(1).map((attribute) => attribute.trim())).toEqual(["Max-Age=60", "Path=/auth", "HttpOnly", "Secure", "SameSite=Lax"])
    expect([...new URLSearchParams(client.jar.get("__Secure-authjs.sign-in-identifier"))]).toEqual([["email", typed]])

    const page = await (await client.send(new Request(url, { headers: { cookie: client.jar.header() } }))).text()
    expect(page).not.toContain("<script>alert(1)")
    expect(page).toContain('value="x&amp;error=AccessDenied#&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;@evil.test/; Path=/"')
  })
})

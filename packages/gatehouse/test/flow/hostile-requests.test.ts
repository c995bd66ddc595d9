/**
 * Hostile and malformed requests: broken cookies, broken encodings, oversized or streaming-error
 * bodies, odd JSON, repeated parameters, other methods, bad paths and non-Request arguments.
 * `Auth` must always resolve to a clean answer (2xx, 302 or 4xx; 500 only for the documented
 * configuration error) and never show a stack trace.
 */
import { describe, expect, it } from "vitest"
import { Auth } from "../../src/core/handler.js"
import type { AuthConfig } from "../../src/types.js"
import { Client, ada, base, credentialsConfig, origin } from "./flow-helpers.js"

const SESSION_COOKIE = "__Secure-authjs.session-token"
const CSRF_COOKIE = "__Host-authjs.csrf-token"
const CALLBACK_COOKIE = "__Secure-authjs.callback-url"

const config = credentialsConfig()

/** `Auth` with anything as its request; asserts it resolves to a `Response`. */
async function send(request: unknown, withConfig: AuthConfig = config): Promise<Response> {
  const pending = Auth(request as Request, withConfig as Omit<AuthConfig, "raw">)
  await expect(pending).resolves.toBeInstanceOf(Response)
  return pending
}

/** The response's body text, checked for anything that looks like a stack trace. */
async function expectNoStackTrace(response: Response): Promise<string> {
  const text = await response.clone().text()
  expect(text).not.toContain("    at ")
  expect(text).not.toMatch(/\.ts:|\.js:/)
  return text
}

/** 2xx, 302 or 4xx, and no stack trace in the body. */
async function expectClean(response: Response): Promise<string> {
  const { status } = response
  expect((status >= 200 && status < 300) || status === 302 || (status >= 400 && status < 500), `status ${status}`).toBe(true)
  return expectNoStackTrace(response)
}

/** The answer to any request the handler cannot read: 400, JSON string `"Bad request."`. */
async function expectBadRequest(response: Response): Promise<void> {
  await expectNoStackTrace(response)
  expect(response.status).toBe(400)
  expect(response.headers.get("content-type")).toMatch(/^application\/json/)
  expect(await response.text()).toBe('"Bad request."')
  expect(response.headers.getSetCookie()).toEqual([])
}

function expectMissingCsrfRedirect(response: Response): void {
  expect(response.status).toBe(302)
  expect(response.headers.get("Location")).toBe(`${base}/signin?error=MissingCSRF`)
}

function get(path: string, headers: Record<string, string> = {}): Request {
  return new Request(`${origin}${path}`, { headers })
}

function post(path: string, body: BodyInit | null, headers: Record<string, string> = {}, init: RequestInit = {}): Request {
  return new Request(`${origin}${path}`, { method: "POST", headers, body, ...init })
}

const FORM = "application/x-www-form-urlencoded"
const JSON_TYPE = "application/json"

/** A client that already holds a CSRF cookie, and its token. */
async function clientWithToken(withConfig: AuthConfig = config): Promise<{ client: Client; token: string }> {
  const client = new Client(withConfig)
  return { client, token: await client.csrfToken() }
}

/** A signed-in client's session cookie value, as it sits in the jar (percent-encoded). */
async function sessionCookie(withConfig: AuthConfig = config): Promise<string> {
  const client = new Client(withConfig)
  const response = await client.signIn()
  expect(response.status).toBe(302)
  const value = client.jar.cookies.get(SESSION_COOKIE)
  expect(value).toBeTruthy()
  return value!
}

describe("malformed Cookie headers", () => {
  const junk50 = Array.from({ length: 50 }, (_, i) => `junk${i}=${"x".repeat(i)}%${i}`).join("; ")
  const headers: [string, string][] = [
    ["a pair without =", "garbage; another-one"],
    ["only separators", ";;; ;  ;"],
    ["an empty name", "=value; =; ="],
    ["quoted values", `a="quoted"; b="; c=""; ${CSRF_COOKIE}="x|y"`],
    ["broken percent-encoding", `a=%E0%A4%A; ${CSRF_COOKIE}=%E0%A4%A; ${CALLBACK_COOKIE}=%E0%A4%A; ${SESSION_COOKIE}=%`],
    ["50 junk cookies", junk50],
    ["a repeated name", `${SESSION_COOKIE}=a; ${SESSION_COOKIE}=b`],
    ["Latin-1 bytes", "a=\u00ff\u00fe; \u00e9=1"],
    ["a CSRF cookie without a hash", `${CSRF_COOKIE}=${"a".repeat(64)}`],
    ["a CSRF cookie with an empty token", `${CSRF_COOKIE}=%7C${"a".repeat(64)}`],
    ["a CSRF cookie with a 10 KB hash", `${CSRF_COOKIE}=abc%7C${"f".repeat(10_000)}`],
    ["a 100 KB cookie", `big=${"b".repeat(100_000)}`],
  ]

  for (const [label, cookie] of headers) {
    describe(`with ${label}`, () => {
      it("GET session answers 200 with no session", async () => {
        const response = await send(get("/auth/session", { cookie }))
        await expectClean(response)
        expect(response.status).toBe(200)
        expect(await response.json()).toBeNull()
      })

      it("GET csrf mints a usable token", async () => {
        const response = await send(get("/auth/csrf", { cookie }))
        await expectClean(response)
        expect(response.status).toBe(200)
        expect((await response.json()) as unknown).toMatchObject({ csrfToken: expect.stringMatching(/^[0-9a-f]{64}$/) })
      })

      it("GET signin renders the page", async () => {
        const response = await send(get("/auth/signin", { cookie }))
        const html = await expectClean(response)
        expect(response.status).toBe(200)
        expect(html).toContain("Sign in")
      })

      it("POST signout without a matching CSRF token redirects with MissingCSRF", async () => {
        const response = await send(post("/auth/signout", new URLSearchParams({ csrfToken: "x|y" }), { cookie, "content-type": FORM }))
        await expectClean(response)
        expectMissingCsrfRedirect(response)
      })
    })
  }

  it("a quoted, valid CSRF cookie still verifies", async () => {
    const { client, token } = await clientWithToken()
    const raw = client.jar.cookies.get(CSRF_COOKIE)!
    client.jar.cookies.set(CSRF_COOKIE, `"${raw}"`)
    const response = await client.postForm("signout", { csrfToken: token })
    await expectClean(response)
    expect(response.status).toBe(302)
    expect(response.headers.get("Location")).toBe(origin)
  })

  it("a CSRF cookie made with another secret is replaced and does not verify", async () => {
    const { client: other, token } = await clientWithToken(credentialsConfig({ secret: "another-secret-0123456789abcdef0123456789" }))
    const cookie = `${CSRF_COOKIE}=${other.jar.cookies.get(CSRF_COOKIE)!}`
    const response = await send(post("/auth/signout", new URLSearchParams({ csrfToken: token }), { cookie, "content-type": FORM }))
    await expectClean(response)
    expectMissingCsrfRedirect(response)
  })
})

describe("hostile session cookies", () => {
  async function sessionWith(cookie: string): Promise<Response> {
    const response = await send(get("/auth/session", { cookie }))
    await expectClean(response)
    expect(response.status).toBe(200)
    return response
  }

  function clearsSessionCookie(response: Response, name = SESSION_COOKIE): boolean {
    return response.headers.getSetCookie().some((line) => line.startsWith(`${name}=;`) && /Max-Age=0/.test(line))
  }

  const garbage: [string, () => Promise<string>][] = [
    ["garbage", async () => "not-a-jwe"],
    ["five dots", async () => "...."],
    ["a compact JWS", async () => "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln"],
    ["an alg:none token", async () => `${btoa('{"alg":"none"}').replace(/=+$/, "")}.${btoa('{"sub":"1"}').replace(/=+$/, "")}.`],
    ["a 5-part token with an unsupported enc", async () => `${btoa('{"alg":"dir","enc":"XYZ"}').replace(/=+$/, "")}.a.b.c.d`],
    ["a truncated JWE", async () => (await sessionCookie()).slice(0, 120)],
    ["a JWE with its last character changed", async () => {
      const jwe = await sessionCookie()
      return jwe.slice(0, -1) + (jwe.endsWith("A") ? "B" : "A")
    }],
    ["a JWE from another secret", () => sessionCookie(credentialsConfig({ secret: "another-secret-0123456789abcdef0123456789" }))],
    ["broken percent-encoding", async () => "%E0%A4%A"],
  ]

  for (const [label, make] of garbage) {
    it(`${label}: GET session answers null and clears the cookie`, async () => {
      const response = await sessionWith(`${SESSION_COOKIE}=${await make()}`)
      expect(await response.json()).toBeNull()
      expect(clearsSessionCookie(response)).toBe(true)
    })

    it(`${label}: POST signout still signs out`, async () => {
      const { client, token } = await clientWithToken()
      client.jar.cookies.set(SESSION_COOKIE, await make())
      const response = await client.postForm("signout", { csrfToken: token })
      await expectClean(response)
      expect(response.status).toBe(302)
      expect(response.headers.get("Location")).toBe(origin)
      expect(client.jar.get(SESSION_COOKIE)).toBeUndefined()
    })

    it(`${label}: a credentials sign-in replaces it`, async () => {
      const client = new Client(config)
      client.jar.cookies.set(SESSION_COOKIE, await make())
      const response = await client.signIn()
      await expectClean(response)
      expect(response.status).toBe(302)
      expect(await client.session()).toMatchObject({ user: { email: ada.email } })
    })
  }

  it("ignores cookies named like chunks that are not chunks (.x, .-1, .99999, ., .1e3)", async () => {
    const jwe = await sessionCookie()
    const cookie = [
      `${SESSION_COOKIE}=${jwe}`,
      `${SESSION_COOKIE}.x=junk`,
      `${SESSION_COOKIE}.-1=junk`,
      `${SESSION_COOKIE}.99999=junk`,
      `${SESSION_COOKIE}.=junk`,
      `${SESSION_COOKIE}.1e3=junk`,
    ].join("; ")
    const response = await sessionWith(cookie)
    expect(await response.json()).toMatchObject({ user: { email: ada.email } })
  })

  it("answers null for chunk-named junk alone", async () => {
    const response = await sessionWith(`${SESSION_COOKIE}.x=junk; ${SESSION_COOKIE}.-1=junk; ${SESSION_COOKIE}.99999=junk`)
    expect(await response.json()).toBeNull()
  })

  it("answers null for 100 garbage chunks, and clears the first 16 (a bounded answer; the next request clears more)", async () => {
    const cookie = Array.from({ length: 100 }, (_, i) => `${SESSION_COOKIE}.${i}=${"a".repeat(3936)}`).join("; ")
    const response = await sessionWith(cookie)
    expect(await response.json()).toBeNull()
    expect(clearsSessionCookie(response, `${SESSION_COOKIE}.0`)).toBe(true)
    expect(clearsSessionCookie(response, `${SESSION_COOKIE}.15`)).toBe(true)
    expect(clearsSessionCookie(response, `${SESSION_COOKIE}.16`)).toBe(false)
  })

  it("answers null for a valid JWE split into chunks in the wrong order", async () => {
    const jwe = await sessionCookie()
    const half = Math.floor(jwe.length / 2)
    const response = await sessionWith(`${SESSION_COOKIE}.0=${jwe.slice(half)}; ${SESSION_COOKIE}.1=${jwe.slice(0, half)}`)
    expect(await response.json()).toBeNull()
  })

  it("reads a valid JWE split into chunks in the right order", async () => {
    const jwe = await sessionCookie()
    const half = Math.floor(jwe.length / 2)
    const response = await sessionWith(`${SESSION_COOKIE}.1=${jwe.slice(half)}; ${SESSION_COOKIE}.0=${jwe.slice(0, half)}`)
    expect(await response.json()).toMatchObject({ user: { email: ada.email } })
  })
})

describe("invalid percent-encoding", () => {
  it.each([
    ["GET", "/auth/signin/%E0%A4%A"],
    ["POST", "/auth/signin/%E0%A4%A"],
    ["GET", "/auth/callback/%E0%A4%A"],
    ["POST", "/auth/callback/%E0%A4%A"],
    ["GET", "/auth/webauthn-options/%E0%A4%A"],
    ["POST", "/auth/signin/%"],
  ])("%s %s in the provider segment is a bad request", async (method, path) => {
    await expectBadRequest(await send(new Request(`${origin}${path}`, { method })))
  })

  it.each(["/auth/signin?callbackUrl=%E0%A4%A&error=%E0%A4%A&email=%", "/auth/session?%E0%A4%A=%", "/auth/csrf?%=%%", "/auth/providers?a=%ZZ"])(
    "GET %s in the query is served",
    async (path) => {
      const response = await send(get(path))
      await expectClean(response)
      expect(response.status).toBe(200)
    },
  )

  it("GET error with a broken error parameter renders a page", async () => {
    const response = await send(get("/auth/error?error=%E0%A4%A"))
    await expectClean(response)
    expect(response.status).toBe(200)
  })

  it("a form body with broken percent-encoding and no valid token is MissingCSRF", async () => {
    const response = await send(post("/auth/signout", "csrfToken=%E0%A4%A&callbackUrl=%&%%=%", { "content-type": FORM }))
    await expectClean(response)
    expectMissingCsrfRedirect(response)
  })

  it("a credentials form with broken percent-encoding in its fields fails the sign-in cleanly", async () => {
    const { client, token } = await clientWithToken()
    const response = await client.send(
      post(`/auth/callback/credentials`, `csrfToken=${token}&username=%E0%A4%A&password=%&callbackUrl=%E0%A4%A`, {
        cookie: client.jar.header(),
        "content-type": FORM,
      }),
    )
    await expectClean(response)
    expect(response.status).toBe(302)
    expect(response.headers.get("Location")).toBe(`${base}/signin?error=CredentialsSignin&code=credentials`)
    // The user name kept for the page, as the form decoder read it (U+FFFD for the broken sequence).
    expect([...new URLSearchParams(client.jar.get("__Secure-authjs.sign-in-identifier"))]).toEqual([["username", "\uFFFD%A"]])
  })

  it("a broken callbackUrl in the form of a valid sign-in falls back on-origin", async () => {
    const { client, token } = await clientWithToken()
    const response = await client.send(
      post(`/auth/callback/credentials`, `csrfToken=${token}&username=ada&password=correct+horse&callbackUrl=%E0%A4%A`, {
        cookie: client.jar.header(),
        "content-type": FORM,
      }),
    )
    await expectClean(response)
    expect(response.status).toBe(302)
    expect(new URL(response.headers.get("Location")!, origin).origin).toBe(origin)
  })
})

describe("oversized and broken bodies", () => {
  const oneMegabyte = "a".repeat(1024 * 1024)

  it("refuses a 1 MB form body", async () => {
    const { client, token } = await clientWithToken()
    const response = await send(
      post("/auth/signout", `csrfToken=${token}&pad=${oneMegabyte}`, { cookie: client.jar.header(), "content-type": FORM }),
    )
    await expectBadRequest(response)
  })

  it("refuses a 1 MB JSON body", async () => {
    const { client, token } = await clientWithToken()
    const response = await send(
      post("/auth/session", JSON.stringify({ csrfToken: token, data: oneMegabyte }), { cookie: client.jar.header(), "content-type": JSON_TYPE }),
    )
    await expectBadRequest(response)
  })

  it("refuses a body whose declared content-length is over the limit without reading it", async () => {
    const response = await send(post("/auth/signout", "csrfToken=x", { "content-type": FORM, "content-length": String(10 * 1024 * 1024) }))
    await expectBadRequest(response)
  })

  it("refuses an endless body stream, cutting it off at the limit", async () => {
    let pulled = 0
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++
        controller.enqueue(new Uint8Array(16 * 1024).fill(97))
      },
    })
    const response = await send(post("/auth/signout", endless, { "content-type": FORM }, { duplex: "half" } as RequestInit))
    await expectBadRequest(response)
    expect(pulled).toBeLessThan(100)
  })

  it("accepts a 60 KB form body (under the limit)", async () => {
    const { client, token } = await clientWithToken()
    const response = await client.postForm("signout", { csrfToken: token, pad: "a".repeat(60 * 1024) })
    await expectClean(response)
    expect(response.status).toBe(302)
    expect(response.headers.get("Location")).toBe(origin)
  })

  it.each([
    ["errors at once", () => new ReadableStream<Uint8Array>({ start: (controller) => controller.error(new Error("connection reset")) })],
    [
      "errors after a first chunk",
      () => {
        let sent = false
        return new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent) controller.error(new Error("connection reset"))
            else controller.enqueue(new TextEncoder().encode("csrfToken="))
            sent = true
          },
        })
      },
    ],
    [
      "rejects a pull",
      () =>
        new ReadableStream<Uint8Array>({
          pull: () => Promise.reject(new TypeError("socket hang up")),
        }),
    ],
  ])("a body stream that %s is a bad request", async (_label, makeStream) => {
    for (const type of [FORM, JSON_TYPE]) {
      const response = await send(post("/auth/signout", makeStream(), { "content-type": type }, { duplex: "half" } as RequestInit))
      await expectBadRequest(response)
    }
  })
})

describe("JSON bodies that are not an object", () => {
  it.each([
    ["null", "null"],
    ["an array", "[]"],
    ["an array of objects", '[{"csrfToken":"x"}]'],
    ["a string", '"str"'],
    ["a number", "42"],
    ["true", "true"],
    ["invalid JSON", "{csrfToken:"],
    ["an empty body", ""],
    ["trailing garbage", '{"csrfToken":"x"} x'],
  ])("%s is a bad request on every POST route", async (_label, body) => {
    for (const path of ["/auth/signout", "/auth/session", "/auth/callback/credentials"]) {
      const { client } = await clientWithToken()
      await expectBadRequest(await send(post(path, body, { cookie: client.jar.header(), "content-type": JSON_TYPE })))
    }
  })

  it("a byte-order mark before a JSON object is skipped, as Request.json() skips it", async () => {
    const { client, token } = await clientWithToken()
    const response = await client.send(post("/auth/signout", `\ufeff${JSON.stringify({ csrfToken: token })}`, { cookie: client.jar.header(), "content-type": JSON_TYPE }))
    await expectClean(response)
    expect(response.status).toBe(302)
    expect(response.headers.get("Location")).toBe(origin)
  })

  it.each([
    ["a non-string csrfToken", { csrfToken: { toString: "x" } }],
    ["an array csrfToken", { csrfToken: ["x"] }],
    ["a numeric csrfToken", { csrfToken: 1 }],
  ])("%s is MissingCSRF", async (_label, body) => {
    const { client } = await clientWithToken()
    const response = await client.postJson("signout", body)
    await expectClean(response)
    expectMissingCsrfRedirect(response)
  })

  it("a non-string callbackUrl is ignored", async () => {
    for (const callbackUrl of [42, { href: "https://evil.test" }, ["//evil.test"], null, true]) {
      const { client, token } = await clientWithToken()
      const response = await client.postJson("signout", { csrfToken: token, callbackUrl })
      await expectClean(response)
      expect(response.status).toBe(302)
      expect(response.headers.get("Location")).toBe(origin)
    }
  })

  it("a __proto__ key pollutes nothing", async () => {
    const { client, token } = await clientWithToken()
    const response = await client.send(
      post("/auth/signout", `{"csrfToken":"${token}","__proto__":{"polluted":1,"callbackUrl":"https://evil.test"}}`, {
        cookie: client.jar.header(),
        "content-type": JSON_TYPE,
      }),
    )
    await expectClean(response)
    expect(response.headers.get("Location")).toBe(origin)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it("deeply nested JSON (29,000 levels in 58 KB, under the size limit) is a 400 on every POST route, before any action runs", async () => {
    const arrays = `${"[".repeat(29_000)}${"]".repeat(29_000)}`
    const objects = `${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}`
    for (const nested of [arrays, objects]) {
      for (const path of ["signin/credentials", "signout", "session", "callback/credentials"]) {
        const { client, token } = await clientWithToken()
        const response = await client.send(
          post(`/auth/${path}`, `{"csrfToken":"${token}","data":${nested},"username":"ada","password":"x"}`, {
            cookie: client.jar.header(),
            "content-type": JSON_TYPE,
          }),
        )
        await expectBadRequest(response)
      }
    }
  })

  it("JSON nested as deep as the limit (32 levels) is still read", async () => {
    const { client, token } = await clientWithToken()
    const data = `${'{"a":'.repeat(31)}1${"}".repeat(31)}`
    const response = await client.send(
      post("/auth/callback/credentials", `{"csrfToken":"${token}","username":"ada","password":"correct horse","data":${data}}`, {
        cookie: client.jar.header(),
        "content-type": JSON_TYPE,
      }),
    )
    expect(response.headers.get("Location")).toBe(origin)
  })

  it("accepts JSON with a charset and an upper-case media type", async () => {
    for (const type of ["application/json; charset=utf-8", "APPLICATION/JSON"]) {
      const { client, token } = await clientWithToken()
      const response = await client.send(post("/auth/signout", JSON.stringify({ csrfToken: token }), { cookie: client.jar.header(), "content-type": type }))
      await expectClean(response)
      expect(response.headers.get("Location")).toBe(origin)
    }
  })
})

describe("repeated parameters", () => {
  it("the last csrfToken in a form wins (a valid one last verifies)", async () => {
    const { client, token } = await clientWithToken()
    const response = await client.send(post("/auth/signout", `csrfToken=bad&csrfToken=${token}`, { cookie: client.jar.header(), "content-type": FORM }))
    await expectClean(response)
    expect(response.headers.get("Location")).toBe(origin)
  })

  it("the last csrfToken in a form wins (a bad one last is MissingCSRF)", async () => {
    const { client, token } = await clientWithToken()
    const response = await client.send(post("/auth/signout", `csrfToken=${token}&csrfToken=bad`, { cookie: client.jar.header(), "content-type": FORM }))
    await expectClean(response)
    expectMissingCsrfRedirect(response)
  })

  it("the last callbackUrl in a form wins", async () => {
    const { client, token } = await clientWithToken()
    const response = await client.send(
      post("/auth/signout", `csrfToken=${token}&callbackUrl=%2Ffirst&callbackUrl=%2Fsecond`, { cookie: client.jar.header(), "content-type": FORM }),
    )
    expect(response.headers.get("Location")).toBe(`${origin}/second`)
  })

  it("the last callbackUrl in the query wins, and a hostile last one falls back to the origin", async () => {
    const client = new Client(config)
    const kept = await client.get("signin?callbackUrl=%2F%2Fevil.test&callbackUrl=%2Fok")
    await expectClean(kept)
    expect(client.jar.get(CALLBACK_COOKIE)).toBe(`${origin}/ok`)
    const dropped = await client.get("signin?callbackUrl=%2Fok&callbackUrl=%2F%2Fevil.test")
    await expectClean(dropped)
    expect(client.jar.get(CALLBACK_COOKIE)).toBe(origin)
  })

  it("a csrfToken in the query or a header does not count", async () => {
    const { client, token } = await clientWithToken()
    const response = await client.send(
      post(`/auth/signout?csrfToken=${token}`, "", { cookie: client.jar.header(), "content-type": FORM, "x-csrf-token": token }),
    )
    await expectClean(response)
    expectMissingCsrfRedirect(response)
  })

  it("the body's callbackUrl beats the query's", async () => {
    const { client, token } = await clientWithToken()
    const response = await client.postForm("signout?callbackUrl=%2Fquery", { csrfToken: token, callbackUrl: "/body" })
    expect(response.headers.get("Location")).toBe(`${origin}/body`)
  })
})

describe("methods other than GET and POST", () => {
  it.each(["PUT", "DELETE", "PATCH", "patch", "HEAD", "OPTIONS", "FOO", "get-ish"])("%s is a bad request on every route", async (method) => {
    for (const path of ["/auth/session", "/auth/signin", "/auth/signout", "/auth/callback/credentials", "/auth/csrf", "/auth/nope"]) {
      const response = await send(new Request(`${origin}${path}`, { method }))
      await expectBadRequest(response)
    }
  })

  it("lower-case get and post are the standard methods", async () => {
    const response = await send(new Request(`${origin}/auth/session`, { method: "get" }))
    await expectClean(response)
    expect(response.status).toBe(200)
  })
})

describe("unknown actions and bad paths", () => {
  const badPaths = [
    "/auth",
    "/auth/",
    "/auth//",
    "/auth/signinn",
    "/auth/signin/a/b",
    "/auth/auth/signin/credentials",
    "/authsignin",
    "/auth-signin",
    "/auth/session/x",
    "/auth/csrf/x",
    "/auth/providers/credentials",
    "/auth/signout/credentials",
    "/auth/error/x",
    "/auth/verify-request/x",
    "/api/auth/session",
    "/",
    "/AUTH/session",
    "/auth/SESSION",
    "/auth/%73ession",
    "/auth/__proto__",
    "/auth/constructor",
    "/auth/toString",
    "/auth/hasOwnProperty",
  ]

  it.each(badPaths)("GET %s is a bad request", async (path) => {
    await expectBadRequest(await send(get(path)))
  })

  it.each(badPaths)("POST %s is a bad request", async (path) => {
    await expectBadRequest(await send(post(path, "csrfToken=x", { "content-type": FORM })))
  })

  it("POST to a GET-only action is an UnknownAction error redirect, never Configuration", async () => {
    for (const action of ["providers", "csrf", "error", "verify-request", "webauthn-options"]) {
      const response = await send(post(`/auth/${action}`, null))
      await expectClean(response)
      expect(response.status).toBe(302)
      expect(response.headers.get("Location")).toBe(`${base}/error?error=UnknownAction`)
    }
  })

  it("an unknown provider is an InvalidProvider error redirect, not a throw or Configuration", async () => {
    const { client, token } = await clientWithToken()
    for (const path of ["signin/nope", "callback/nope", "signin/__proto__", "callback/constructor"]) {
      const response = await client.postForm(path, { csrfToken: token })
      await expectClean(response)
      expect(response.status).toBe(302)
      expect(response.headers.get("Location")).toBe(`${base}/error?error=InvalidProvider`)
    }
  })

  it("GET signin/<provider> is the request's own error redirect, not Configuration", async () => {
    const response = await send(get("/auth/signin/credentials"))
    await expectClean(response)
    expect(response.headers.get("Location")).toBe(`${base}/error?error=UnknownAction`)
  })
})

describe("a basePath with regular-expression metacharacters", () => {
  const metaConfig = credentialsConfig({ basePath: "/a.b+(c)" })

  it("serves its own routes", async () => {
    for (const path of ["/a.b+(c)/session", "/a.b+(c)/csrf", "/a.b+(c)/signin"]) {
      const response = await send(get(path), metaConfig)
      await expectClean(response)
      expect(response.status).toBe(200)
    }
  })

  it.each(["/aXb+(c)/session", "/a.bb(c)/session", "/a.b+c/session", "/a.b+(c)X/session", "/xa.b+(c)/session", "/a.b+(c)", "/auth/session"])(
    "does not match %s",
    async (path) => {
      await expectBadRequest(await send(get(path), metaConfig))
    },
  )

  it("signs in and out under it", async () => {
    const csrf = await send(get("/a.b+(c)/csrf"), metaConfig)
    const cookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const response = await send(
      post("/a.b+(c)/callback/credentials", new URLSearchParams({ csrfToken, username: "ada", password: "correct horse" }), {
        cookie,
        "content-type": FORM,
      }),
      metaConfig,
    )
    await expectClean(response)
    expect(response.status).toBe(302)
    expect(response.headers.get("Location")).toBe(origin)
    const failed = await send(post("/a.b+(c)/signout", new URLSearchParams({}), { cookie, "content-type": FORM }), metaConfig)
    expect(failed.headers.get("Location")).toBe(`${origin}/a.b+(c)/signin?error=MissingCSRF`)
  })
})

describe("repeated and trailing slashes", () => {
  it.each(["/auth//session/", "/auth/session///", "/auth///session", "/auth/csrf/", "/auth//providers//"])("GET %s is served", async (path) => {
    const response = await send(get(path))
    await expectClean(response)
    expect(response.status).toBe(200)
  })

  it("POST /auth/signin/credentials/// is served (back to the sign-in page)", async () => {
    const { client, token } = await clientWithToken()
    const response = await client.postForm("signin/credentials///", { csrfToken: token })
    await expectClean(response)
    expect(response.status).toBe(302)
    expect(response.headers.get("Location")).toBe(`${base}/signin`)
  })

  it("POST /auth//callback//credentials// signs in", async () => {
    const { client, token } = await clientWithToken()
    const response = await client.send(
      post("/auth//callback//credentials//", new URLSearchParams({ csrfToken: token, username: "ada", password: "correct horse" }), {
        cookie: client.jar.header(),
        "content-type": FORM,
      }),
    )
    await expectClean(response)
    expect(response.status).toBe(302)
    expect(await client.session()).toMatchObject({ user: { email: ada.email } })
  })
})

describe("arguments that are not a Request", () => {
  it.each([
    ["null", null],
    ["undefined", undefined],
    ["an empty object", {}],
    ["a URL string", `${origin}/auth/session`],
    ["a number", 42],
    ["an object with a method and url but no headers", { method: "GET", url: `${origin}/auth/session` }],
    ["an object with a bad url", { method: "GET", url: "not a url", headers: new Headers() }],
    ["a URL object", new URL(`${origin}/auth/session`)],
  ])("%s is a bad request, not a throw", async (_label, request) => {
    await expectBadRequest(await send(request))
  })

  it("a request whose headers getter throws is a bad request", async () => {
    const request = {
      method: "GET",
      url: `${origin}/auth/session`,
      get headers(): Headers {
        throw new Error("boom")
      },
    }
    await expectBadRequest(await send(request))
  })
})

describe("bodies that are not form or JSON", () => {
  it.each(["text/plain", "multipart/form-data; boundary=x", "application/xml", ""])(
    "a %j POST to signout is treated as having no body (MissingCSRF)",
    async (type) => {
      const { client, token } = await clientWithToken()
      const headers: Record<string, string> = { cookie: client.jar.header() }
      if (type) headers["content-type"] = type
      const response = await send(post("/auth/signout", `csrfToken=${token}`, headers))
      await expectClean(response)
      expectMissingCsrfRedirect(response)
    },
  )

  it("a POST to session with a text/plain body answers 400 null", async () => {
    const { client, token } = await clientWithToken()
    const response = await send(post("/auth/session", JSON.stringify({ csrfToken: token }), { cookie: client.jar.header(), "content-type": "text/plain" }))
    await expectClean(response)
    expect(response.status).toBe(400)
    expect(await response.json()).toBeNull()
  })

  it("a form POST with no body at all is MissingCSRF", async () => {
    const response = await send(post("/auth/signout", null, { "content-type": FORM }))
    await expectClean(response)
    expectMissingCsrfRedirect(response)
  })
})

describe("large and odd query strings and headers", () => {
  it("a 100 KB query string on GET session is served", async () => {
    const response = await send(get(`/auth/session?x=${"a".repeat(100_000)}`))
    await expectClean(response)
    expect(response.status).toBe(200)
  })

  it("X-Auth-Return-Redirect on a bad request still answers 400", async () => {
    await expectBadRequest(await send(get("/auth/nope", { "X-Auth-Return-Redirect": "1" })))
  })

  it("X-Auth-Return-Redirect on MissingCSRF answers the URL as JSON", async () => {
    const response = await send(post("/auth/signout", "", { "content-type": FORM, "X-Auth-Return-Redirect": "1" }))
    await expectClean(response)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ url: `${base}/signin?error=MissingCSRF` })
  })
})

describe("the documented configuration errors", () => {
  it("a null config answers 500 with the generic message", async () => {
    const response = await send(get("/auth/session"), null as unknown as AuthConfig)
    expect(response.status).toBe(500)
    await expectNoStackTrace(response)
    expect(await response.json()).toEqual({
      message: "There was a problem with the server configuration. Check the server logs for more information.",
    })
  })

  it("a config without a secret answers 500 JSON on session and the error page on signin", async () => {
    const noSecret = credentialsConfig({ secret: undefined })
    const session = await send(get("/auth/session"), noSecret)
    expect(session.status).toBe(500)
    await expectNoStackTrace(session)
    const page = await send(get("/auth/signin"), noSecret)
    expect(page.status).toBe(500)
    expect(page.headers.get("content-type")).toMatch(/^text\/html/)
    await expectNoStackTrace(page)
  })

  it("a redirect callback that throws is a Configuration redirect, not a 500", async () => {
    const throwing = credentialsConfig({
      callbacks: {
        redirect: () => {
          throw new Error("redirect callback exploded")
        },
      },
    })
    const response = await send(get("/auth/signin?callbackUrl=%2Fx"), throwing)
    await expectClean(response)
    expect(response.status).toBe(302)
    expect(response.headers.get("Location")).toBe(`${base}/error?error=Configuration`)
  })

  it("a redirect callback returning CR/LF cannot split the Location header", async () => {
    const splitting = credentialsConfig({ callbacks: { redirect: () => `${origin}/x\r\nSet-Cookie: pwned=1` } })
    const client = new Client(splitting)
    const token = await client.csrfToken().catch(() => "")
    const response = await client.postForm("signout", { csrfToken: token, callbackUrl: "/x" })
    await expectClean(response)
    for (const [name, value] of response.headers) expect(`${name}: ${value}`).not.toMatch(/[\r\n]|pwned/)
  })
})

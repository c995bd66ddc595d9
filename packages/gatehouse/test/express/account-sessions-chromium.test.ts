/**
 * The account routes in a real browser: an Express app (ServerAuth, requireAuth) with
 * `account.routes` on and an account page of plain HTML forms; the same user signs in with
 * credentials in two Chromium contexts (two browsers as far as cookies go), context A lists the
 * sessions and ends context B's, and B's next request is signed out. Database sessions on SQLite
 * (B's row goes at once) and JWT sessions with session versions (B ends within
 * `revocationCheckAge`, while A's rewritten cookie keeps A signed in).
 */
import { readFileSync } from "node:fs"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import type { Adapter } from "../../src/adapters/index.js"
import { ServerAuth, requireAuth, type ServerAuthConfig } from "../../src/express/index.js"
import { listSessions, type Session } from "../../src/index.js"
import { launchChromium } from "../support/chromium.js"
import { recordingLogger, secret } from "../flow/flow-helpers.js"
import { storedAdapters, type OpenStore } from "../flow/stored-adapters.js"
import { closeServers, expressVersions, isolateAuthEnv, listen } from "./express-apps.js"

isolateAuthEnv()

/** The browser client's account helpers as the package ships them (`npm test` builds before testing). */
const accountModule = readFileSync(new URL("../../dist/client/account.js", import.meta.url), "utf8")
const CLIENT_PAGE = `<!doctype html><title>Client</title><script type="module">import * as gatehouse from "/client/account.js"; window.gatehouse = gatehouse; document.title = "Client ready"</script>`

/** The functions of `gatehouse-auth/client/account`, as the page exposes them. */
type ClientModule = typeof import("../../src/client/account.js")

/** Opens the page that loads the client module, and waits for it. */
async function clientPage(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/client`)
  await page.waitForFunction(() => document.title === "Client ready")
}

let chromium: Browser
let store: OpenStore
let contexts: BrowserContext[] = []

beforeAll(async () => {
  chromium = await launchChromium()
})
afterAll(async () => {
  await chromium?.close()
})
beforeEach(async () => {
  store = await storedAdapters.find((candidate) => candidate.name === "SQLite file")!.open()
})
afterEach(async () => {
  await Promise.all(contexts.map((context) => context.close()))
  contexts = []
  await closeServers()
  await store?.close()
})

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/**
 * The app: ServerAuth at /auth, and /account (signed-in only) listing the sessions through the
 * `listSessions` server function, with a plain form per other session and one for all others.
 * The forms get the CSRF token from /auth/csrf, as any page of the app would.
 */
async function startApp(strategy: "database" | "jwt"): Promise<{ origin: string; errors: () => string[] }> {
  const user = await store.adapter.createUser({ id: crypto.randomUUID(), name: "Ada", email: "ada@app.test", emailVerified: null, image: null })
  const { logger, lines } = recordingLogger()
  const config: ServerAuthConfig = {
    secret,
    trustHost: true,
    logger,
    adapter: store.adapter as Adapter,
    // JWT: B's session is checked against the user's session version at most a second after its last check.
    session: { strategy, revocationCheckAge: 1 },
    account: { routes: true },
    providers: [
      {
        id: "credentials",
        name: "Password",
        type: "credentials",
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        authorize: ({ username, password }) => (username === "ada" && password === "pw" ? { id: user.id, email: user.email, name: user.name } : null),
        rateLimit: false,
      },
    ],
  }
  const app = expressVersions[0]!.express()
  app.use("/auth", ServerAuth(config))
  app.get("/client/account.js", (_req, res) => void res.type("text/javascript").send(accountModule))
  app.get("/client", (_req, res) => void res.type("html").send(CLIENT_PAGE))
  app.get("/account", requireAuth(config, { redirectTo: "/auth/signin" }), async (req, res) => {
    const request = new Request(`http://${req.headers.host}${req.originalUrl}`, { headers: { cookie: String(req.headers.cookie ?? ""), "user-agent": String(req.headers["user-agent"] ?? "") } })
    const sessions = await listSessions(request, config)
    const rows = sessions
      .map(
        (session) =>
          `<li data-id="${escape(session.id)}" data-current="${session.current}"><span class="ua">${escape(session.userAgent ?? "")}</span>` +
          (session.current
            ? " (this browser)"
            : `<form method="post" action="/auth/sessions"><input type="hidden" name="csrfToken"><input type="hidden" name="callbackUrl" value="/account"><input type="hidden" name="revoke" value="${escape(session.id)}"><button>Sign out that browser</button></form>`) +
          "</li>",
      )
      .join("")
    res.type("html").send(
      `<!doctype html><title>Account</title><h1>Signed in as ${escape(String((res.locals.session as Session | null)?.user?.email))}</h1><ul>${rows}</ul>` +
        `<form id="others" method="post" action="/auth/sessions"><input type="hidden" name="csrfToken"><input type="hidden" name="callbackUrl" value="/account"><input type="hidden" name="revokeOthers" value="true"><button>Sign out all other browsers</button></form>` +
        `<script>fetch("/auth/csrf").then((r) => r.json()).then(({ csrfToken }) => { for (const input of document.querySelectorAll('input[name="csrfToken"]')) input.value = csrfToken; document.body.dataset.ready = "yes" })</script>`,
    )
  })
  const { origin } = await listen(app)
  return { origin, errors: () => lines.filter((line) => line.level === "error").map((line) => line.code) }
}

/** A new browser (its own cookies) signed in with the built-in page; returns it on the account page. */
async function signedInBrowser(origin: string, name: string): Promise<Page> {
  const context = await chromium.newContext({ userAgent: `Gatehouse test ${name}` })
  contexts.push(context)
  const page = await context.newPage()
  await page.goto(`${origin}/auth/signin?${new URLSearchParams({ callbackUrl: `${origin}/account` })}`)
  await page.fill('input[name="username"]', "ada")
  await page.fill('input[name="password"]', "pw")
  await Promise.all([page.waitForURL(`${origin}/account`), page.click('form[action$="/callback/credentials"] button[type="submit"]')])
  await page.waitForSelector("body[data-ready=yes]")
  return page
}

async function listed(page: Page): Promise<{ id: string; current: boolean; userAgent: string }[]> {
  return page.$$eval("li", (items) =>
    items.map((item) => ({ id: item.getAttribute("data-id")!, current: item.getAttribute("data-current") === "true", userAgent: item.querySelector(".ua")!.textContent! })),
  )
}

/** Where B ends up asking for its account page again: the page, or the sign-in page when signed out. */
async function nextRequest(page: Page, origin: string): Promise<"account" | "signed out"> {
  await page.goto(`${origin}/account`)
  if (new URL(page.url()).pathname === "/account") return "account"
  expect(new URL(page.url()).pathname).toBe("/auth/signin")
  return "signed out"
}

describe("sessions across two Chromium browsers", () => {
  it("under database sessions: A lists both (itself marked), ends B's, and B's next request is signed out", async () => {
    const { origin, errors } = await startApp("database")
    const a = await signedInBrowser(origin, "A")
    const b = await signedInBrowser(origin, "B")
    await a.reload()
    await a.waitForSelector("body[data-ready=yes]")
    const sessions = await listed(a)
    expect(sessions).toHaveLength(2)
    expect(sessions.find((session) => session.current)?.userAgent).toBe("Gatehouse test A")
    const other = sessions.find((session) => !session.current)!
    expect(other.userAgent).toBe("Gatehouse test B")

    await Promise.all([a.waitForURL(`${origin}/account`), a.click(`li[data-id="${other.id}"] button`)])
    await a.waitForSelector("body[data-ready=yes]")
    expect(await listed(a)).toEqual([{ id: sessions.find((session) => session.current)!.id, current: true, userAgent: "Gatehouse test A" }])
    expect(await nextRequest(b, origin)).toBe("signed out")
    expect(await nextRequest(a, origin)).toBe("account")
    expect(errors()).toEqual([])
  })

  it("under JWT sessions: A signs out every other browser, B is signed out within revocationCheckAge and A stays signed in", async () => {
    const { origin, errors } = await startApp("jwt")
    const a = await signedInBrowser(origin, "A")
    const b = await signedInBrowser(origin, "B")
    // A JWT session has no record of the others: A sees itself only.
    expect(await listed(a)).toEqual([{ id: "current", current: true, userAgent: "Gatehouse test A" }])

    await Promise.all([a.waitForURL(`${origin}/account`), a.click("#others button")])
    // Past revocationCheckAge (1 s), every session's next request checks the user's session version.
    await new Promise((resolve) => setTimeout(resolve, 1_200))
    expect(await nextRequest(b, origin)).toBe("signed out")
    expect(await nextRequest(a, origin)).toBe("account")
    expect(errors()).toEqual([])
  })

  it("through gatehouse-auth/client/account: lists, revokes one session, refuses its own and someone's unknown account, and a signed-out browser", async () => {
    const { origin } = await startApp("database")
    const a = await signedInBrowser(origin, "A")
    const b = await signedInBrowser(origin, "B")
    await clientPage(a, origin)
    const results = await a.evaluate(async () => {
      const client = (window as unknown as { gatehouse: ClientModule }).gatehouse
      const refusal = async (run: () => Promise<unknown>) => {
        try {
          await run()
          return "accepted"
        } catch (error) {
          return `${(error as Error).name} ${(error as { status?: number }).status}`
        }
      }
      const before = await client.listSessions()
      const mine = before.find((session) => session.current)!
      const theirs = before.find((session) => !session.current)!
      const after = await client.revokeSession(theirs.id)
      return {
        before: before.map((session) => [session.userAgent, session.current]),
        after: after.map((session) => session.id),
        mine: mine.id,
        own: await refusal(() => client.revokeSession(mine.id)),
        again: await refusal(() => client.revokeSession(theirs.id)),
        accounts: await client.listAccounts(),
        unknown: await refusal(() => client.unlinkAccount({ provider: "github", providerAccountId: "someone" })),
      }
    })
    expect(results.before).toEqual([
      ["Gatehouse test A", true],
      ["Gatehouse test B", false],
    ])
    expect(results.after).toEqual([results.mine])
    expect(results.own).toBe("UnknownSession 404")
    expect(results.again).toBe("UnknownSession 404")
    expect(results.accounts).toEqual([])
    expect(results.unknown).toBe("UnknownAccount 404")
    expect(await nextRequest(b, origin)).toBe("signed out")
    await clientPage(b, origin)
    const signedOut = await b.evaluate(async () => {
      const client = (window as unknown as { gatehouse: ClientModule }).gatehouse
      return client.listSessions().then(
        () => "accepted",
        (error: { name: string; status: number }) => `${error.name} ${error.status}`,
      )
    })
    expect(signedOut).toBe("SessionRequired 401")
  })

  it("through gatehouse-auth/client/account: linkAccount posts with the CSRF token and goes where the server says (a credentials provider cannot be linked: the error page)", async () => {
    const { origin } = await startApp("database")
    const a = await signedInBrowser(origin, "A")
    await clientPage(a, origin)
    await Promise.all([
      a.waitForURL((url) => url.pathname === "/auth/error"),
      a.evaluate(() => void (window as unknown as { gatehouse: ClientModule }).gatehouse.linkAccount("credentials", { redirectTo: "/account" })),
    ])
    expect(new URL(a.url()).searchParams.get("error")).toBe("InvalidProvider")
    expect(await nextRequest(a, origin)).toBe("account")
  })
})

/**
 * gatehouse-auth/next on Next 15, which the package supports beside Next 16 (examples/next): the
 * smallest app that uses it as next-auth v5 apps do on Next 15 (./next-15-app), with the packed
 * package installed, `next build` (webpack) and `next start`. Its `middleware.js` runs on Next 15's
 * Edge runtime, so the core's Web build is what guards the protected page there; the server
 * actions and `auth()` run on Node. Chromium signs in and out through the server actions.
 */
import { fileURLToPath } from "node:url"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchChromium } from "../support/chromium.js"
import { buildExampleApp, freePort, startExampleApp, type ExampleApp, type RunningApp } from "../support/example-app.js"

const app: ExampleApp = {
  dir: fileURLToPath(new URL("./next-15-app", import.meta.url)),
  build: ["node_modules/next/dist/bin/next", "build"],
  sources: ["app", "auth.js", "middleware.js", "next.config.mjs", "package.json"],
  built: ".next/BUILD_ID",
}

const SECRET = "next-15-test-secret-0123456789abcdef0123456789"
let running: RunningApp
let browser: Browser

beforeAll(async () => {
  buildExampleApp(app)
  const port = await freePort()
  running = await startExampleApp(app, {
    port,
    command: (listen) => ["node_modules/next/dist/bin/next", "start", "-p", String(listen), "-H", "localhost"],
    // A production app behind no proxy names its address, as next-auth apps do.
    env: { AUTH_SECRET: SECRET, AUTH_URL: `http://localhost:${port}` },
    readyPath: "/api/auth/providers",
  })
  browser = await launchChromium()
}, 600_000)

afterAll(async () => {
  await browser?.close()
  await running?.stop()
})

describe("gatehouse-auth/next on Next 15", () => {
  it("runs the middleware on the Edge runtime: a signed-out visit to the protected page goes to sign in, and back after", async () => {
    const answer = await fetch(`${running.url}/protected`, { redirect: "manual" })
    expect(answer.status).toBe(307)
    const location = new URL(answer.headers.get("location")!, running.url)
    expect(location.pathname).toBe("/api/auth/signin")
    expect(location.searchParams.get("callbackUrl")).toBe(`${running.url}/protected`)
    // Built as Edge middleware (Next 15's default), not the Node middleware Next 16's proxy is.
    const { readFileSync } = await import("node:fs")
    const manifest = JSON.parse(readFileSync(`${app.dir}/.next/server/middleware-manifest.json`, "utf8")) as { middleware: Record<string, unknown> }
    expect(Object.keys(manifest.middleware)).toEqual(["/"])
  })

  it("signs in through a server action, reads the session in a server component, the middleware and a route handler, and signs out", async () => {
    const context = await browser.newContext()
    try {
      const page = await context.newPage()
      await page.goto(`${running.url}/`)
      await expect.poll(() => page.locator("#status").textContent()).toBe("Signed out")
      await page.fill("#email", "ada@example.com")
      await page.fill("#password", "correct horse battery staple")
      await page.getByRole("button", { name: "Sign in" }).click()
      await page.waitForURL(`${running.url}/protected`)
      await expect.poll(() => page.locator("#protected").textContent()).toBe("Protected page for Ada Lovelace")

      const cookies = await context.cookies()
      const session = cookies.find((cookie) => cookie.name === "authjs.session-token")
      expect(session?.httpOnly).toBe(true)
      const me = await fetch(`${running.url}/api/me`, { headers: { cookie: `authjs.session-token=${session!.value}` } })
      expect(await me.json()).toEqual({ user: { name: "Ada Lovelace", email: "ada@example.com" } })

      await page.goto(`${running.url}/`)
      await expect.poll(() => page.locator("#status").textContent()).toBe("Signed in as Ada Lovelace")
      await page.getByRole("button", { name: "Sign out" }).click()
      await expect.poll(async () => (await context.cookies()).some((cookie) => cookie.name === "authjs.session-token"), { timeout: 10_000 }).toBe(false)
      await page.goto(`${running.url}/`)
      await expect.poll(() => page.locator("#status").textContent()).toBe("Signed out")
    } finally {
      await context.close()
    }
  })

  it("refuses a wrong password, and a forged session cookie reads as no session everywhere", async () => {
    const context = await browser.newContext()
    try {
      const page = await context.newPage()
      await page.goto(`${running.url}/`)
      await page.fill("#email", "ada@example.com")
      await page.fill("#password", "wrong")
      await page.getByRole("button", { name: "Sign in" }).click()
      await page.waitForURL((url) => url.searchParams.get("error") === "CredentialsSignin")
      expect(await page.locator("#error").textContent()).toBe("Sign-in failed (CredentialsSignin).")
      expect((await context.cookies()).some((cookie) => cookie.name === "authjs.session-token")).toBe(false)
    } finally {
      await context.close()
    }
    const forged = { cookie: "authjs.session-token=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIn0..AAAA.AAAA.AAAA" }
    const me = await fetch(`${running.url}/api/me`, { headers: forged })
    expect(me.status).toBe(401)
    const guarded = await fetch(`${running.url}/protected`, { headers: forged, redirect: "manual" })
    expect(guarded.status).toBe(307)
  })

  it("in production without AUTH_URL or AUTH_TRUST_HOST: public pages answer through the middleware, only the auth routes and auth() fail, naming the fix", async () => {
    // The same build, started as a new deployment would be: NODE_ENV=production, no host settings.
    const untrusted = await startExampleApp(app, {
      command: (listen) => ["node_modules/next/dist/bin/next", "start", "-p", String(listen), "-H", "localhost"],
      env: { AUTH_SECRET: SECRET },
      unset: ["AUTH_URL", "NEXTAUTH_URL", "AUTH_TRUST_HOST", "VERCEL", "CF_PAGES"],
      readyPath: "/about",
    })
    try {
      const about = await fetch(`${untrusted.url}/about`, { redirect: "manual" })
      expect(about.status).toBe(200)
      expect(await about.text()).toContain("About this app")
      // Protected still means protected: the middleware reads it as signed out.
      const guarded = await fetch(`${untrusted.url}/protected`, { redirect: "manual" })
      expect(guarded.status).toBe(307)
      expect(new URL(guarded.headers.get("location")!, untrusted.url).pathname).toBe("/api/auth/signin")
      for (const path of ["/api/auth/session", "/"]) {
        const failed = await fetch(`${untrusted.url}${path}`, { redirect: "manual" })
        expect(failed.status, path).toBe(500)
        expect(await failed.text(), path).not.toMatch(/AUTH_URL|AUTH_TRUST_HOST|at .*\.js:\d/)
      }
      expect(untrusted.output()).toMatch(/UntrustedHost.*AUTH_URL=https:\/\/your\.site.*AUTH_TRUST_HOST=true/)
    } finally {
      await untrusted.stop()
    }
  })
})

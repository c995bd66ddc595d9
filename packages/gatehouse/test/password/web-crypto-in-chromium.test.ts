/**
 * The Web Crypto build where there is no Node at all: bundled for the browser (which fails on any
 * `node:` import) and run in headless Chromium on a localhost page (Web Crypto needs a secure
 * context), against hashes made by Node.
 */
import { build } from "esbuild"
import { fileURLToPath } from "node:url"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchChromium } from "../support/chromium.js"
import { serveWeb, type WebServer } from "../support/web-server.js"
import * as nodeBuild from "../../src/password/node.js"
import { pbkdf2HashString, scryptHashString } from "./independent-hashes.js"

const entry = fileURLToPath(new URL("../../src/password/index.ts", import.meta.url))
const password = "ünïcödé horse battery staple"

let server: WebServer
let browser: Browser
let page: Page

beforeAll(async () => {
  const bundle = await build({ entryPoints: [entry], bundle: true, platform: "browser", format: "iife", globalName: "gatehousePassword", write: false, logLevel: "silent" })
  const script = bundle.outputFiles[0]!.text
  server = await serveWeb(
    () => new Response(`<!doctype html><title>gatehouse-auth/password</title><script>${script}</script>`, { headers: { "content-type": "text/html" } }),
  )
  browser = await launchChromium()
  page = await browser.newPage()
  await page.goto(server.origin)
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

type Outcome = { verified: boolean } | { error: string; reason: string }

/** verifyPassword run in the page. */
function verifyInBrowser(text: string, hash: string): Promise<Outcome> {
  return page.evaluate(async ([text, hash]) => {
    const api = (globalThis as unknown as { gatehousePassword: typeof import("../../src/password/index.js") }).gatehousePassword
    try {
      return { verified: await api.verifyPassword(text, hash) }
    } catch (error) {
      return { error: (error as Error).name, reason: String((error as { reason?: unknown }).reason) }
    }
  }, [text, hash] as const)
}

describe("the Web Crypto build in a browser", () => {
  it("verifies a default-strength PBKDF2 hash node:crypto made, and only for its password", async () => {
    const hash = pbkdf2HashString(password.normalize("NFKC"), 600_000)
    expect(await verifyInBrowser(password, hash)).toEqual({ verified: true })
    expect(await verifyInBrowser("unicode horse battery staple", hash)).toEqual({ verified: false })
  })

  it("writes PBKDF2 hashes that the Node build verifies", async () => {
    const hash = await page.evaluate((text) => {
      const api = (globalThis as unknown as { gatehousePassword: typeof import("../../src/password/index.js") }).gatehousePassword
      return api.hashPassword(text)
    }, password)
    expect(hash).toMatch(/^\$pbkdf2-sha256\$i=600000\$/)
    expect(await nodeBuild.verifyPassword(password, hash)).toBe(true)
  })

  it("refuses a scrypt hash with a needs-node PasswordHashError", async () => {
    const hash = scryptHashString(password, { ln: 10, r: 8, p: 1 })
    expect(await verifyInBrowser(password, hash)).toEqual({ error: "PasswordHashError", reason: "needs-node" })
  })
})

/**
 * The protected page's own guard, with the proxy in front of it out of the way: the page (an async
 * server component) imported from the app and called as Next renders it, with the app's `@/auth`
 * replaced for that import only, so `auth()` answers what each test says. Signed out, it throws
 * Next's own redirect to the sign-in page and back; signed in, it renders the user's address.
 */
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { beforeAll, describe, expect, it, vi } from "vitest"
import { installExampleApp } from "../../../packages/gatehouse/test/support/example-app.js"

const dir = fileURLToPath(new URL("..", import.meta.url))

/** What the replaced `auth()` answers. */
let session: unknown = null

interface NextRedirects {
  isRedirectError(value: unknown): boolean
  getURLFromRedirectError(error: unknown): string
  getRedirectStatusCodeFromError(error: unknown): number
}
let next: NextRedirects

beforeAll(async () => {
  installExampleApp({ dir })
  // By name at run time: next is the app's dependency, installed just now.
  const [errors, redirects] = ["next/dist/client/components/redirect-error.js", "next/dist/client/components/redirect.js"]
  next = { ...((await import(errors)) as Pick<NextRedirects, "isRedirectError">), ...((await import(redirects)) as Omit<NextRedirects, "isRedirectError">) }
}, 600_000)

/** The page component, imported afresh with `@/auth` replaced; nothing else of the app or Next is. */
async function protectedPage(): Promise<() => Promise<unknown>> {
  vi.resetModules()
  vi.doMock("@/auth", () => ({ auth: async () => session }))
  try {
    return ((await import(join(dir, "app/protected/page.tsx"))) as { default: () => Promise<unknown> }).default
  } finally {
    vi.doUnmock("@/auth")
  }
}

/** What rendering the page returned or threw. */
async function render(): Promise<{ returned?: unknown; thrown?: unknown }> {
  const page = await protectedPage()
  try {
    return { returned: await page() }
  } catch (thrown) {
    return { thrown }
  }
}

describe("examples/next's protected page without the proxy in front", () => {
  it("redirects a signed-out render to the sign-in page, which returns to the page", async () => {
    for (const signedOut of [null, {}, { user: null }]) {
      session = signedOut
      const { thrown } = await render()
      expect(next.isRedirectError(thrown)).toBe(true)
      expect(next.getURLFromRedirectError(thrown)).toBe(`/signin?${new URLSearchParams({ callbackUrl: "/protected" })}`)
      expect(next.getRedirectStatusCodeFromError(thrown)).toBe(307)
    }
  })

  it("renders the signed-in user's address", async () => {
    session = { user: { email: "ada@example.com" }, expires: new Date(Date.now() + 60_000).toISOString() }
    const { returned, thrown } = await render()
    expect(thrown).toBeUndefined()
    expect(JSON.stringify(returned)).toContain("ada@example.com")
  })
})

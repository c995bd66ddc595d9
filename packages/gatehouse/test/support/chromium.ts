/**
 * Headless Chromium (Debian's `chromium`, driven by playwright-core) with the DevTools WebAuthn
 * domain's virtual authenticators: passkeys without a person touching anything.
 */
import { inject } from "vitest"
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from "playwright-core"
import { CHROMIUM_EXECUTABLE } from "./chromium-install.js"

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
]

/** Starts Chromium; close it when the tests are done. Fails with the setup's reason when it could not be installed. */
export function launchChromium(): Promise<Browser> {
  const problem = inject("chromiumError")
  if (problem) throw new Error(`Chromium did not start: ${problem}`)
  // Playwright waits 3 minutes by default for a browser that does not come up.
  return chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: FLAGS, timeout: 60_000 }).catch((error: unknown) => {
    throw new Error(`Chromium (${CHROMIUM_EXECUTABLE}) did not start: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
  })
}

/** A credential a virtual authenticator holds. */
export interface VirtualCredential {
  credentialId: string
  isResidentCredential: boolean
  signCount: number
  userHandle?: string
}

/** A platform authenticator with resident keys and user verification, always approving. */
export interface VirtualAuthenticator {
  id: string
  credentials(): Promise<VirtualCredential[]>
  remove(): Promise<void>
}

/** A page whose browser context talks to virtual authenticators only. */
export interface PasskeyPage {
  context: BrowserContext
  page: Page
  cdp: CDPSession
  /** Plugs in a new authenticator (which Chromium then uses). */
  addAuthenticator(): Promise<VirtualAuthenticator>
}

/** A new context and page, with the virtual authenticator environment on and one authenticator. */
export async function passkeyPage(browser: Browser): Promise<PasskeyPage & { authenticator: VirtualAuthenticator }> {
  const context = await browser.newContext()
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await cdp.send("WebAuthn.enable", { enableUI: false })
  const addAuthenticator = async (): Promise<VirtualAuthenticator> => {
    const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    })
    return {
      id: authenticatorId,
      credentials: async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials as VirtualCredential[],
      remove: async () => {
        await cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId })
      },
    }
  }
  return { context, page, cdp, addAuthenticator, authenticator: await addAuthenticator() }
}

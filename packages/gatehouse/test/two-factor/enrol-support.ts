/**
 * What the enrolment and management tests share: TOTP codes and base32 computed here with
 * node:crypto (never with the library under test), a credentials setup over a chosen adapter,
 * and readers for the enrolment page.
 */
import { renderSVG } from "uqr"
import { expect, vi } from "vitest"
import type { Adapter, AdapterUser } from "../../src/adapters/index.js"
import { Credentials } from "../../src/providers/credentials.js"
import type { AuthConfig, SessionStrategy, TwoFactorOptions } from "../../src/types.js"
import { Client, recordingLogger, secret } from "../flow/flow-helpers.js"
import { totpAt, currentStep, base32Decode } from "../support/totp-reference.js"
export { totpAt, currentStep, base32Decode } from "../support/totp-reference.js"

export const ORIGIN = "https://app.test"
export const SESSION = "__Secure-authjs.session-token"
export const PENDING = "__Secure-authjs.two-factor"
export const TWO_FACTOR_PAGE = `${ORIGIN}/auth/two-factor`
export const DASHBOARD = `${ORIGIN}/dashboard`

/** The current code of a key shown as base32 text. */
export const codeFor = (base32: string, step = currentStep()): string => totpAt(base32Decode(base32), step)

/** A code none of the three accepted steps of `base32` makes. */
export function wrongCodeFor(base32: string): string {
  const key = base32Decode(base32)
  const right = new Set([-1, 0, 1].map((delta) => totpAt(key, currentStep() + delta)))
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, "0")
    if (!right.has(candidate)) return candidate
  }
}

export type EnrolAdapter = Adapter & Required<Pick<Adapter, "createUser" | "getTwoFactor" | "listSessionsByUserId">>

export interface EnrolSetup {
  client: Client
  config: AuthConfig
  adapter: EnrolAdapter
  uid: string
  events: { signIn: ReturnType<typeof vi.fn>; twoFactorEnabled: ReturnType<typeof vi.fn>; twoFactorDisabled: ReturnType<typeof vi.fn> }
  notify: ReturnType<typeof vi.fn>
  /** Posts the password; the callback's response. */
  signIn: (client?: Client) => Promise<Response>
}

/** Ada, signing in with a password, under `twoFactor` with TOTP and the given options. */
export async function enrolSetup(adapter: Adapter, strategy: SessionStrategy, twoFactor: Partial<TwoFactorOptions> = {}): Promise<EnrolSetup> {
  const stored = adapter as EnrolAdapter
  const email = `ada-${Math.random().toString(36).slice(2)}@app.test`
  const user = await stored.createUser({ id: "", name: "Ada", email, emailVerified: null } as AdapterUser)
  const events = { signIn: vi.fn(), twoFactorEnabled: vi.fn(), twoFactorDisabled: vi.fn() }
  const notify = vi.fn()
  const config: AuthConfig = {
    secret,
    trustHost: true,
    logger: recordingLogger().logger,
    adapter,
    session: { strategy },
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: ({ username, password }) => (username === "ada" && password === "correct horse" ? { id: user.id, name: "Ada", email } : null),
        rateLimit: false,
      }),
    ],
    twoFactor: { totp: { issuer: "Gatehouse tests", qrCode: renderSVG }, notify, ...twoFactor },
    events,
  }
  const client = new Client(config)
  const signIn = (who: Client = client) => who.signIn({ username: "ada", password: "correct horse", callbackUrl: DASHBOARD })
  return { client, config, adapter: stored, uid: user.id, events, notify, signIn }
}

/** POSTs JSON with the CSRF token, as the browser helpers do. */
export async function postJson(client: Client, path: string, body: Record<string, unknown> = {}): Promise<Response> {
  return client.postJson(path, { csrfToken: await client.csrfToken(), ...body })
}

/** What the enrolment page shows: the secret text, the reference and CSRF token its form posts. */
export function readEnrolPage(html: string): { secret: string; ref: string; csrfToken: string; action: string } {
  const pick = (pattern: RegExp): string => {
    const found = pattern.exec(html)?.[1]
    expect(found, String(pattern)).toBeTruthy()
    return found!.replace(/&amp;/g, "&")
  }
  return {
    secret: pick(/<code id="totp-secret">([^<]+)<\/code>/),
    ref: pick(/name="ref" value="([^"]+)"/),
    csrfToken: pick(/name="csrfToken" value="([^"]+)"/),
    action: pick(/<form method="post" action="([^"]+)"/),
  }
}

/** The recovery codes a codes page lists. */
export function readRecoveryCodes(html: string): string[] {
  return [...html.matchAll(/<li><code>([^<]+)<\/code><\/li>/g)].map((match) => match[1]!)
}

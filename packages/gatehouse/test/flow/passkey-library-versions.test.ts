/**
 * Passkeys with each `@simplewebauthn/server` major the package's peer range names, installed from
 * the registry (kept in the temp directory between runs): a passkey made and used with real
 * signatures through `Auth()` on 10 to 13 (14 is the workspace's, which every other passkey test
 * uses), and 9, which Auth.js apps have, refused before any request is served, as is a library
 * that answers in a shape no supported version has.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Passkey } from "../../src/providers/passkey.js"
import type { SimpleWebAuthnServer } from "../../src/providers/types.js"
import type { AuthConfig } from "../../src/types.js"
import { importPackageVersion, installedVersion } from "../support/npm-package.js"
import { SoftwareAuthenticator } from "../support/software-authenticator.js"
import { Client, failureMessage, isFailure, recordingLogger, secret } from "./flow-helpers.js"

const ORIGIN = "https://app.test"
const LIBRARY = "@simplewebauthn/server"

/** The four functions of `@simplewebauthn/server@^major`. */
async function library(major: number): Promise<SimpleWebAuthnServer> {
  const { generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse } =
    await importPackageVersion<SimpleWebAuthnServer>(LIBRARY, `^${major}`)
  return { generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse }
}

function passkeyConfig(simpleWebAuthn: SimpleWebAuthnServer) {
  const log = recordingLogger()
  const config: AuthConfig = {
    secret,
    trustHost: true,
    logger: log.logger,
    adapter: MemoryAdapter(),
    experimental: { enableWebAuthn: true },
    providers: [Passkey({ simpleWebAuthn })],
  }
  return { config, log }
}

interface OptionsAnswer {
  options: { challenge: string; allowCredentials?: { id: string }[]; user?: { id: string } }
}

async function options(client: Client, query: Record<string, string>): Promise<OptionsAnswer["options"]> {
  const response = await client.get(`webauthn-options/passkey?${new URLSearchParams(query)}`)
  expect(response.status, await response.clone().text()).toBe(200)
  return ((await response.json()) as OptionsAnswer).options
}

describe.each([10, 11, 12, 13])(`${LIBRARY} %i`, (major) => {
  it("creates a passkey, then signs in with it, with real signatures", { timeout: 120_000 }, async () => {
    const { config, log } = passkeyConfig(await library(major))
    expect(installedVersion(LIBRARY, `^${major}`)).toMatch(new RegExp(`^${major}\\.`))
    const authenticator = new SoftwareAuthenticator()
    const ceremony = { origin: ORIGIN, rpId: "app.test" }

    const signUp = new Client(config, ORIGIN)
    const creation = await options(signUp, { action: "register", email: `v${major}@example.com` })
    // The handle is 32 random bytes, base64url, whatever the version does with it.
    expect(creation.user?.id).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const created = await signUp.postForm("callback/passkey", { action: "register", data: JSON.stringify(authenticator.register({ ...ceremony, challenge: creation.challenge })) })
    expect(created.headers.get("location"), JSON.stringify(log.lines.filter(isFailure).map(failureMessage))).toBe(ORIGIN)
    const stored = await config.adapter!.getAuthenticator!(authenticator.credentialId.toString("base64"))
    expect(stored).toMatchObject({ credentialID: authenticator.credentialId.toString("base64"), counter: 0 })

    // Signed in, the sign-in options list the passkey by its base64url id.
    expect((await options(signUp, { action: "authenticate" })).allowCredentials).toEqual([expect.objectContaining({ id: authenticator.id })])

    const signIn = new Client(config, ORIGIN)
    for (let round = 1; round <= 2; round++) {
      const request = await options(signIn, { action: "authenticate" })
      const answered = await signIn.postForm("callback/passkey", { action: "authenticate", data: JSON.stringify(authenticator.authenticate({ ...ceremony, challenge: request.challenge })) })
      expect(answered.headers.get("location"), JSON.stringify(log.lines.filter(isFailure).map(failureMessage))).toBe(ORIGIN)
      expect(((await signIn.session()) as { user: { email: string } }).user.email).toBe(`v${major}@example.com`)
      expect((await config.adapter!.getAuthenticator!(authenticator.credentialId.toString("base64")))?.counter).toBe(round)
    }
  })
})

describe("an unsupported @simplewebauthn/server", () => {
  /** What the configuration answers and logs before anyone starts a ceremony. */
  async function refusal(simpleWebAuthn: SimpleWebAuthnServer) {
    const { config, log } = passkeyConfig(simpleWebAuthn)
    const client = new Client(config, ORIGIN)
    const ceremony = await client.get("webauthn-options/passkey?action=register&email=someone%40example.com")
    const session = await client.get("session")
    const lines = log.lines.filter(isFailure).map(failureMessage)
    return { ceremony, session, lines }
  }

  it("refuses 9 (Auth.js's) at the first request, with one line naming 10 to 14, and hands out no ceremony", { timeout: 120_000 }, async () => {
    const { ceremony, session, lines } = await refusal(await library(9))
    expect(installedVersion(LIBRARY, "^9")).toMatch(/^9\./)
    expect(ceremony.status).toBe(500)
    expect(await ceremony.json()).toEqual({ message: expect.stringContaining("server configuration") })
    expect(ceremony.headers.getSetCookie().join()).not.toContain("authjs.challenge")
    // Every route refuses, as with any other configuration error.
    expect(session.status).toBe(500)
    expect(lines[0]).toBe(
      "Passkeys need @simplewebauthn/server 10 to 14 (npm install @simplewebauthn/server@^14); found 9 or older, whose signature check refuses about one valid passkey sign-in in 150",
    )
    expect(lines.every((line) => !line.includes("\n"))).toBe(true)
  })

  it("refuses a version whose options come back in a shape no supported version has", async () => {
    // The workspace's own (14), with its user handle answered otherwise.
    const base: SimpleWebAuthnServer = await import("@simplewebauthn/server")
    const { ceremony, lines } = await refusal({
      ...base,
      // A future major that, say, hex-encodes the user handle.
      generateRegistrationOptions: async (options) => ({ ...(await base.generateRegistrationOptions(options)), user: { id: Buffer.from(options.userID!).toString("hex") } }),
    })
    expect(ceremony.status).toBe(500)
    expect(ceremony.headers.getSetCookie().join()).not.toContain("authjs.challenge")
    expect(lines[0]).toBe(
      "Passkeys need @simplewebauthn/server 10 to 14 (npm install @simplewebauthn/server@^14); found a version that answers in a shape none of them has",
    )
  })

  it("declares the proven majors as the package's peer range, and the workspace's own is one of them", () => {
    const manifest = (path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), "utf8")) as Record<string, Record<string, string>>
    const range = manifest("../../package.json").peerDependencies![LIBRARY]
    expect(range).toBe("^10.0.0 || ^11.0.0 || ^12.0.0 || ^13.0.0 || ^14.0.0")
    const workspace = manifest("../../../../node_modules/@simplewebauthn/server/package.json").version as unknown as string
    const majors = [...range!.matchAll(/\^(\d+)/g)].map((match) => Number(match[1]))
    expect(majors).toContain(Number(workspace.split(".")[0]))
  })
})

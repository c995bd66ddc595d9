/**
 * The steps the adapter fault matrix breaks, each through `Auth()` as a browser would take it:
 * signing in with credentials, by email link, through an OAuth server (the GitHub-like one in
 * test/support, over real HTTP), with a passkey (a software authenticator), and reading,
 * updating and ending a session. A step is prepared against a healthy store; then only its last
 * request runs with the fault.
 */
import { expect } from "vitest"
import type { AuthConfig, SessionStrategy } from "../../src/types.js"
import { Credentials } from "../../src/providers/credentials.js"
import { Passkey } from "../../src/providers/passkey.js"
import type { EmailConfig, OAuthConfig } from "../../src/providers/types.js"
import { githubLikeProvider, type GitHubLikeServer } from "../support/github-like-server.js"
import { SoftwareAuthenticator } from "../support/software-authenticator.js"
import { Client, recordingLogger, secret } from "../flow/flow-helpers.js"
import { faultyAdapter, type AdapterMethod, type FaultStore, type FaultyAdapter, type StoreKind, type StoreSnapshot } from "./faulty-adapter-support.js"

export const ORIGIN = "https://app.test"
export const DASHBOARD = `${ORIGIN}/dashboard`
export const VERIFY_REQUEST = `${ORIGIN}/auth/verify-request?provider=email&type=email`
export const SESSION_COOKIE = "__Secure-authjs.session-token"
/** The address the GitHub-like server gives its user. */
export const GITHUB_EMAIL = "octocat@users.example"

/** Everything one run of a step works on: a fresh store, the adapter around it, the app's configuration. */
export interface World {
  store: FaultStore
  faulty: FaultyAdapter
  config: AuthConfig
  log: ReturnType<typeof recordingLogger>
  /** Sign-in emails "sent", oldest first. */
  mailbox: { identifier: string; url: string }[]
  /** Users the test stored itself, who may have no account. */
  seeded: Set<string>
}

/** A fresh world on a new store of `kind`, signing in through `github`. */
export function newWorld(kind: StoreKind, strategy: SessionStrategy, github: GitHubLikeServer): World {
  const store = kind.open()
  const faulty = faultyAdapter(store.real)
  const log = recordingLogger()
  const mailbox: World["mailbox"] = []
  const email: EmailConfig = {
    id: "email",
    type: "email",
    name: "Email",
    sendVerificationRequest: ({ identifier, url }) => {
      mailbox.push({ identifier, url })
    },
  }
  const config: AuthConfig = {
    secret,
    trustHost: true,
    logger: log.logger,
    adapter: faulty.adapter,
    // Every read extends the row, so a read writes too and both can be broken.
    session: { strategy, updateAge: 0 },
    experimental: { enableWebAuthn: true },
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        // The app's own lookup, outside the adapter under test.
        authorize: async ({ username }) => {
          const user = typeof username === "string" ? await store.real.getUserByEmail(username) : null
          return user && { id: user.id, email: user.email, name: user.name ?? null }
        },
      }),
      email,
      githubProvider(github),
      Passkey(),
    ],
  }
  return { store, faulty, config, log, mailbox, seeded: new Set() }
}

/** A GitHub-shaped provider written out by hand against the test server: explicit endpoints, no discovery. */
function githubProvider(github: GitHubLikeServer): OAuthConfig {
  return githubLikeProvider(github, {
    profile: (profile) => ({
      id: String(profile.id),
      name: typeof profile.name === "string" ? profile.name : null,
      email: typeof profile.email === "string" ? profile.email : null,
    }),
  })
}

/** How a step ends when all is well, which decides how a failure is judged. */
export type StepKind = "sign-in" | "email-request" | "session-read" | "sign-out"

/** The fault a run had, as far as the step's checks need to know. */
export interface AppliedFault {
  kind: "throw" | "garbage"
  method: AdapterMethod
}

export interface Prepared {
  client: Client
  /** The request under test. */
  send(): Promise<Response>
  /** Where a success redirects to (sign-ins, email requests, sign-outs). */
  landing: string
  /** The address of whoever should be signed in after a success. */
  email: string
  /** The address of whoever was signed in before the step, if anyone. */
  before: string | null
  /** Extra checks after the faulted request; `failed` says whether it ended in an error. */
  afterAttempt?(snapshot: StoreSnapshot, failed: boolean, fault: AppliedFault): void
  /** The step again once the store works, from where the failure left the browser. */
  retry(fault: AppliedFault): Promise<Response>
  /** Extra checks once the retry succeeded. */
  afterRetry?(snapshot: StoreSnapshot): void
}

export interface Step {
  name: string
  kind: StepKind
  strategy: SessionStrategy
  prepare(world: World): Promise<Prepared>
}

/** Stores a user as an app's own admin code would; they need no account. */
export async function seedUser(world: World, email: string): Promise<string> {
  const user = await world.store.real.createUser({ email, emailVerified: null, name: "Ada Lovelace" })
  world.seeded.add(user.id)
  return user.id
}

export async function credentialsSignIn(client: Client, email: string): Promise<Response> {
  return client.postForm("callback/credentials", { csrfToken: await client.csrfToken(), username: email, password: "any", callbackUrl: DASHBOARD })
}

export async function requestLink(world: World, client: Client, email: string): Promise<string> {
  const response = await client.postForm("signin/email", { csrfToken: await client.csrfToken(), email, callbackUrl: DASHBOARD })
  if (response.headers.get("location") !== VERIFY_REQUEST) throw new Error(`the link request failed: ${response.headers.get("location")}`)
  return world.mailbox.at(-1)!.url
}

/** Follows "Sign in with GitHub" to the server and back; returns the callback's path under /auth/, unvisited. */
export async function authorizeAtGitHub(client: Client): Promise<string> {
  const start = await client.postForm("signin/github", { csrfToken: await client.csrfToken(), callbackUrl: DASHBOARD })
  const authorize = start.headers.get("location")
  if (!authorize?.startsWith("http://127.0.0.1")) throw new Error(`the sign-in did not go to the server: ${authorize}`)
  const back = await fetch(authorize, { redirect: "manual" })
  const callback = back.headers.get("location")
  if (!callback?.startsWith(`${ORIGIN}/auth/`)) throw new Error(`the server did not send the browser back: ${callback}`)
  return callback.slice(`${ORIGIN}/auth/`.length)
}

async function passkeyOptions(client: Client, email?: string): Promise<{ action: "register" | "authenticate"; challenge: string }> {
  // An address asks to create a passkey (a new account); none signs in with one on the device.
  const response = await client.get(`webauthn-options/passkey${email ? `?action=register&email=${encodeURIComponent(email)}` : ""}`)
  const { action, options } = (await response.json()) as { action: "register" | "authenticate"; options: { challenge: string } }
  return { action, challenge: options.challenge }
}

/** What the browser's passkey buttons do: sign up (with an address) or sign in, asking for the options first. */
async function passkeyCeremony(client: Client, authenticator: SoftwareAuthenticator, email?: string): Promise<Response> {
  const { action, challenge } = await passkeyOptions(client, email)
  const input = { challenge, origin: ORIGIN, rpId: "app.test" }
  return passkeyAnswer(client, action, action === "register" ? authenticator.register(input) : authenticator.authenticate(input))
}

/**
 * What someone whose sign-up failed does next: the device holds the new passkey either way, so
 * they sign in with it, and sign up again only when the site does not know it.
 */
async function signInElseSignUp(client: Client, authenticator: SoftwareAuthenticator, email: string): Promise<Response> {
  const signedIn = await passkeyCeremony(client, authenticator)
  return signedIn.headers.get("location") === ORIGIN ? signedIn : passkeyCeremony(client, authenticator, email)
}

function passkeyAnswer(client: Client, action: "register" | "authenticate", credential: unknown): Promise<Response> {
  return client.postForm("callback/passkey", { action, data: JSON.stringify(credential) })
}

const count = <T>(rows: T[], match: (row: T) => boolean) => rows.filter(match).length

const ada = "ada@app.test"

/** The steps of the matrix. */
export const STEPS: readonly Step[] = [
  {
    name: "credentials sign-in",
    kind: "sign-in",
    strategy: "database",
    async prepare(world) {
      await seedUser(world, ada)
      const client = new Client(world.config, ORIGIN)
      const csrfToken = await client.csrfToken()
      const send = () => client.postForm("callback/credentials", { csrfToken, username: ada, password: "any", callbackUrl: DASHBOARD })
      return { client, send, landing: DASHBOARD, email: ada, before: null, retry: send }
    },
  },
  {
    name: "credentials sign-in over an existing session",
    kind: "sign-in",
    strategy: "database",
    async prepare(world) {
      await seedUser(world, ada)
      const client = new Client(world.config, ORIGIN)
      await credentialsSignIn(client, ada)
      const csrfToken = await client.csrfToken()
      const send = () => client.postForm("callback/credentials", { csrfToken, username: ada, password: "any", callbackUrl: DASHBOARD })
      return {
        client,
        send,
        landing: DASHBOARD,
        email: ada,
        before: ada,
        retry: send,
      }
    },
  },
  {
    name: "email link request",
    kind: "email-request",
    strategy: "database",
    async prepare(world) {
      const client = new Client(world.config, ORIGIN)
      const csrfToken = await client.csrfToken()
      const send = () => client.postForm("signin/email", { csrfToken, email: "grace@example.com", callbackUrl: DASHBOARD })
      return {
        client,
        send,
        landing: VERIFY_REQUEST,
        email: "grace@example.com",
        before: null,
        // A link is stored only if it went out, and nothing else is.
        afterAttempt: (snapshot, failed) => {
          expect(world.mailbox.length, "emails sent").toBe(failed ? 0 : 1)
          expect(snapshot.verificationTokens.length, "stored links against sent ones").toBe(world.mailbox.length)
          expect(snapshot.users.length, "users made by asking for a link").toBe(0)
        },
        retry: send,
        afterRetry: (snapshot) => expect(snapshot.verificationTokens.length, "stored links against sent ones").toBe(world.mailbox.length),
      }
    },
  },
  ...(["a new address", "a known address"] as const).map(
    (whose): Step => ({
      name: `email link click for ${whose}`,
      kind: "sign-in",
      strategy: "database",
      async prepare(world) {
        const email = whose === "a new address" ? "grace@example.com" : ada
        if (whose === "a known address") await seedUser(world, email)
        const client = new Client(world.config, ORIGIN)
        let link = await requestLink(world, client, email)
        const path = () => link.slice(`${ORIGIN}/auth/`.length)
        return {
          client,
          send: () => client.get(path()),
          landing: DASHBOARD,
          email,
          before: null,
          afterAttempt: (snapshot, failed, fault) => {
            // Spent only by a sign-in, or by a store that spent it and then answered garbage.
            const spent = !failed || (fault.kind === "garbage" && fault.method === "useVerificationToken")
            expect(snapshot.verificationTokens.length, "stored links").toBe(spent ? 0 : 1)
          },
          async retry(fault) {
            if (fault.kind === "garbage" && fault.method === "useVerificationToken") {
              const refused = await client.get(path())
              expect(refused.headers.get("location"), "the spent link, clicked again").toBe(`${ORIGIN}/auth/error?error=Verification`)
              link = await requestLink(world, client, email)
            }
            return client.get(path())
          },
          afterRetry: (snapshot) => {
            expect(count(snapshot.users, (user) => user.email === email && user.verified), `verified users with ${email}`).toBe(1)
            expect(snapshot.verificationTokens.length, "stored links after signing in").toBe(0)
          },
        }
      },
    }),
  ),
  ...(["database", "jwt"] as const).map(
    (strategy): Step => ({
      name: `OAuth sign-up${strategy === "jwt" ? " (JWT sessions)" : ""}`,
      kind: "sign-in",
      strategy,
      async prepare(world) {
        const client = new Client(world.config, ORIGIN)
        const callback = await authorizeAtGitHub(client)
        return {
          client,
          send: () => client.get(callback),
          landing: DASHBOARD,
          email: GITHUB_EMAIL,
          before: null,
          retry: async () => client.get(await authorizeAtGitHub(client)),
          afterRetry: (snapshot) => {
            expect(snapshot.users.length, "users after the sign-up").toBe(1)
            expect(snapshot.accounts.length, "accounts after the sign-up").toBe(1)
          },
        }
      },
    }),
  ),
  {
    name: "OAuth sign-in of a returning user",
    kind: "sign-in",
    strategy: "database",
    async prepare(world) {
      const first = new Client(world.config, ORIGIN)
      await first.get(await authorizeAtGitHub(first))
      const client = new Client(world.config, ORIGIN)
      const callback = await authorizeAtGitHub(client)
      return {
        client,
        send: () => client.get(callback),
        landing: DASHBOARD,
        email: GITHUB_EMAIL,
        before: null,
        retry: async () => client.get(await authorizeAtGitHub(client)),
        afterRetry: (snapshot) => {
          expect(snapshot.users.length, "users after signing in again").toBe(1)
          expect(snapshot.accounts.length, "accounts after signing in again").toBe(1)
        },
      }
    },
  },
  {
    name: "OAuth account linked while signed in",
    kind: "sign-in",
    strategy: "database",
    async prepare(world) {
      const adaId = await seedUser(world, ada)
      const client = new Client(world.config, ORIGIN)
      await credentialsSignIn(client, ada)
      const callback = await authorizeAtGitHub(client)
      return {
        client,
        send: () => client.get(callback),
        landing: DASHBOARD,
        email: ada,
        before: ada,
        retry: async () => client.get(await authorizeAtGitHub(client)),
        afterRetry: (snapshot) => {
          expect(snapshot.users.length, "users after linking").toBe(1)
          expect(snapshot.accounts.map((account) => account.userId).join(), "owner of the linked account").toBe(adaId)
        },
      }
    },
  },
  {
    name: "passkey sign-up",
    kind: "sign-in",
    strategy: "database",
    async prepare(world) {
      const client = new Client(world.config, ORIGIN)
      const authenticator = new SoftwareAuthenticator()
      const email = "grace@example.com"
      const { challenge } = await passkeyOptions(client, email)
      const credential = authenticator.register({ challenge, origin: ORIGIN, rpId: "app.test" })
      return {
        client,
        send: () => passkeyAnswer(client, "register", credential),
        landing: ORIGIN,
        email,
        before: null,
        // The button again: a sign-up that failed after storing everything but the session is now a
        // sign-in with the stored passkey; a half-stored one would be neither.
        retry: () => signInElseSignUp(client, authenticator, email),
        afterRetry: (snapshot) => {
          expect(snapshot.users.length, "users after the passkey sign-up").toBe(1)
          expect(snapshot.authenticators.length, "passkeys after the sign-up").toBe(1)
        },
      }
    },
  },
  {
    name: "passkey sign-in",
    kind: "sign-in",
    strategy: "database",
    async prepare(world) {
      const authenticator = new SoftwareAuthenticator()
      const email = "grace@example.com"
      const first = new Client(world.config, ORIGIN)
      await passkeyCeremony(first, authenticator, email)
      const client = new Client(world.config, ORIGIN)
      const { challenge } = await passkeyOptions(client)
      const credential = authenticator.authenticate({ challenge, origin: ORIGIN, rpId: "app.test" })
      return {
        client,
        send: () => passkeyAnswer(client, "authenticate", credential),
        landing: ORIGIN,
        email,
        before: null,
        retry: () => passkeyCeremony(client, authenticator),
        afterRetry: (snapshot) => expect(snapshot.authenticators.length, "passkeys after signing in").toBe(1),
      }
    },
  },
  ...(["read", "update"] as const).map(
    (what): Step => ({
      name: `session ${what}`,
      kind: "session-read",
      strategy: "database",
      async prepare(world) {
        await seedUser(world, ada)
        const client = new Client(world.config, ORIGIN)
        await credentialsSignIn(client, ada)
        const csrfToken = await client.csrfToken()
        // A read in the very millisecond of the sign-in would have nothing to extend.
        await new Promise((resolve) => setTimeout(resolve, 2))
        const send = () => (what === "read" ? client.get("session") : client.postJson("session", { csrfToken, data: { theme: "dark" } }))
        return { client, send, landing: "", email: ada, before: ada, retry: send }
      },
    }),
  ),
  {
    name: "sign-out",
    kind: "sign-out",
    strategy: "database",
    async prepare(world) {
      await seedUser(world, ada)
      const client = new Client(world.config, ORIGIN)
      await credentialsSignIn(client, ada)
      const csrfToken = await client.csrfToken()
      return {
        client,
        send: () => client.postForm("signout", { csrfToken, callbackUrl: DASHBOARD }),
        landing: DASHBOARD,
        email: ada,
        before: ada,
        // Signed out either way; what must work afterwards is signing in again.
        retry: () => credentialsSignIn(client, ada),
      }
    },
  },
]

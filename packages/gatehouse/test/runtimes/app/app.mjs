// The app every runtime serves: `Auth(request, config)` for the auth routes and `getToken` on
// /token, written as a user of the published package writes it (plain JavaScript, the package's
// public entry points only), so each runtime runs this same file unchanged. A second
// configuration under /mfa asks every user for a second factor (enrolling an authenticator app
// first), on the memory adapter, its QR code drawn by uqr.
import { Auth, setEnvDefaults } from "gatehouse-auth"
import { MemoryAdapter } from "gatehouse-auth/adapters/memory"
import { renderSVG } from "uqr"
import { getToken } from "gatehouse-auth/jwt"
import Credentials from "gatehouse-auth/providers/credentials"
import GitHub from "gatehouse-auth/providers/github"

/** The request handler, configured from `env`: the runtime's environment or a Worker's bindings. */
export function createApp(env) {
  const config = {
    session: { strategy: "jwt" },
    providers: [
      Credentials({
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        authorize: ({ username, password }) =>
          username === "ada" && password === "correct horse battery" ? { id: "1", name: "Ada", email: "ada@example.test" } : null,
      }),
      // A GitHub Enterprise Server address: the test's GitHub-shaped server on loopback.
      GitHub({ enterprise: { baseUrl: env.GITHUB_URL } }),
    ],
  }
  // AUTH_SECRET, AUTH_URL, AUTH_GITHUB_ID, AUTH_GITHUB_SECRET
  setEnvDefaults(env, config)

  const adapter = MemoryAdapter()
  const twoFactorConfig = {
    basePath: "/mfa",
    adapter,
    session: { strategy: "jwt" },
    twoFactor: { totp: { issuer: "Runtime app", qrCode: renderSVG }, require: "always" },
    providers: [
      Credentials({
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        // A second factor belongs to a stored user: Ada is stored on her first sign-in.
        authorize: async ({ username, password }) => {
          if (username !== "ada" || password !== "correct horse battery") return null
          return (await adapter.getUserByEmail("ada@example.test")) ?? (await adapter.createUser({ name: "Ada", email: "ada@example.test", emailVerified: null }))
        },
      }),
    ],
  }
  setEnvDefaults(env, twoFactorConfig)

  return async (request) => {
    const { pathname } = new URL(request.url)
    if (pathname.startsWith("/mfa/")) return Auth(request, twoFactorConfig)
    if (pathname === "/token") {
      const token = await getToken({ req: request, secret: env.AUTH_SECRET })
      return Response.json(token)
    }
    if (pathname.startsWith(`${config.basePath}/`)) return Auth(request, config)
    if (pathname === "/dashboard") return new Response("dashboard")
    return new Response("not found", { status: 404 })
  }
}

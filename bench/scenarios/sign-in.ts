/**
 * Scenario 4: credentials sign-in end to end, as a browser does it: GET /auth/csrf, then POST
 * /auth/callback/credentials with the CSRF cookie and token, ending in a 302 that sets the session
 * cookie (JWT sessions). `authorize` is trivially cheap, so the library is timed, not a password hash.
 */
import { Auth as authjsAuth } from "@auth/core"
import authjsCredentials from "@auth/core/providers/credentials"
import { Auth as gatehouseAuth } from "gatehouse-auth"
import gatehouseCredentials from "gatehouse-auth/providers/credentials"
import { expectSignIn } from "../expect.js"
import { basePath, claims, origin, secret, sessionCookieName } from "../fixtures.js"
import { compare, timingAtScale } from "../measure.js"
import type { Scenario } from "../scenario.js"

const password = "correct horse battery staple"
const user = { id: claims.sub, name: claims.name, email: claims.email, image: claims.picture }

/** Both providers take the same options; `authorize` compares two strings. */
const credentialsOptions = {
  credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
  authorize: (input: Partial<Record<string, unknown>>) => (input.email === user.email && input.password === password ? { ...user } : null),
}

function credentialsConfig<Provider, Options>(Credentials: (options: Options) => Provider, options: Options) {
  return { secret, basePath, trustHost: true, providers: [Credentials(options)] }
}

/** One whole sign-in through `handler`, checked at each step. */
function signIn(handler: (request: Request) => Promise<Response>, library: string) {
  return async () => {
    const csrf = await handler(new Request(`${origin}${basePath}/csrf`))
    const { csrfToken } = (await csrf.json()) as { csrfToken?: unknown }
    if (csrf.status !== 200 || typeof csrfToken !== "string") throw new Error(`${library}: GET /auth/csrf answered ${csrf.status} without a token`)
    const cookie = csrf.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ")
    const response = await handler(
      new Request(`${origin}${basePath}/callback/credentials`, {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, email: user.email, password, callbackUrl: `${origin}/` }),
      }),
    )
    await response.arrayBuffer()
    expectSignIn(response, library, sessionCookieName)
  }
}

export const signInScenario: Scenario = {
  name: "sign-in",
  title: "4. Credentials sign-in: GET /auth/csrf → POST /auth/callback/credentials → 302 + session cookie",
  async run({ report, scale }) {
    // The same user signs in thousands of times a second, which Gatehouse's throttle (10 attempts
    // per identifier per 15 minutes by default; Auth.js has none) would refuse: off, so the
    // sign-in itself is timed on both sides.
    const gatehouseConfig = credentialsConfig(gatehouseCredentials, { ...credentialsOptions, rateLimit: false as const })
    const authjsConfig = credentialsConfig(authjsCredentials, credentialsOptions)
    const timings = await compare(
      {
        gatehouse: signIn((request) => gatehouseAuth(request, gatehouseConfig), "gatehouse"),
        authjs: signIn((request) => authjsAuth(request, authjsConfig), "auth.js"),
      },
      timingAtScale(scale, 1),
    )
    report.throughput("sign-ins, sequential (ops/s = sign-ins/s; latency = both requests)", timings)
  },
}

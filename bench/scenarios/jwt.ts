/** Scenario 2: the session token alone, without the handler: getToken, decode, encode. */
import * as authjs from "@auth/core/jwt"
import * as gatehouse from "gatehouse-auth/jwt"
import { claims, origin, secret, sessionCookieName as salt } from "../fixtures.js"
import { compare, timingAtScale } from "../measure.js"
import type { Scenario } from "../scenario.js"

type JwtModule = typeof gatehouse | typeof authjs

function expectClaims(token: { email?: unknown } | null, library: string, what: string): void {
  if (token?.email !== claims.email) throw new Error(`${library}: ${what} did not return the token's claims: ${JSON.stringify(token)}`)
}

/** The three operations of one library, each on a token that library encoded itself. */
async function operations(lib: JwtModule, library: string) {
  const token = await lib.encode({ token: claims, secret, salt })
  // getToken only reads headers, so one request serves every call.
  const request = new Request(`${origin}/`, { headers: { cookie: `${salt}=${token}` } })
  return {
    getToken: async () => expectClaims(await lib.getToken({ req: request, secret }), library, "getToken"),
    decode: async () => expectClaims(await lib.decode({ token, secret, salt }), library, "decode"),
    encode: async () => {
      const encoded = await lib.encode({ token: claims, secret, salt })
      if (typeof encoded !== "string" || !encoded.startsWith("eyJ")) throw new Error(`${library}: encode returned ${String(encoded)}`)
    },
  }
}

export const jwt: Scenario = {
  name: "jwt",
  title: "2. Session token alone: getToken, decode, encode (gatehouse-auth/jwt vs @auth/core/jwt)",
  async run({ report, scale }) {
    const ours = await operations(gatehouse, "gatehouse")
    const theirs = await operations(authjs, "auth.js")
    for (const name of ["getToken", "decode", "encode"] as const) {
      const timings = await compare({ gatehouse: ours[name], authjs: theirs[name] }, timingAtScale(scale, 1))
      report.throughput(`${name}, sequential`, timings)
    }
  },
}

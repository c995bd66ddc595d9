/**
 * The cold-start child (run by ./cold-start.ts, one fresh process per run): loads one library and
 * its GitHub provider, builds the config and answers one session request, then prints when each
 * step was reached, in ms since `performance.timeOrigin` (the process's start).
 *
 * It is its own esbuild entry point and imports neither library statically: the clock must be
 * running before either is loaded. Arguments: the library ("gatehouse" | "authjs"); the session
 * cookie's value comes in BENCH_SESSION_COOKIE.
 */
// Bundled into this file (a few constants and functions), so nothing is loaded before the clock starts.
import { expectSession } from "../expect.js"
import { claims, jwtSessionConfig, sessionRequest } from "../fixtures.js"

const scriptMs = performance.now()

async function handlerFor(library: string | undefined): Promise<(request: Request) => Promise<Response>> {
  if (library === "gatehouse") {
    const [{ Auth }, { default: GitHub }] = await Promise.all([import("gatehouse-auth"), import("gatehouse-auth/providers/github")])
    const config = jwtSessionConfig(GitHub)
    return (request) => Auth(request, config)
  }
  if (library === "authjs") {
    const [{ Auth }, { default: GitHub }] = await Promise.all([import("@auth/core"), import("@auth/core/providers/github")])
    const config = jwtSessionConfig(GitHub)
    return (request) => Auth(request, config)
  }
  throw new Error(`cold-start child: unknown library ${String(library)}`)
}

const library = process.argv[2]
const cookie = process.env.BENCH_SESSION_COOKIE ?? ""
const handler = await handlerFor(library)
const loadedMs = performance.now()
await expectSession(await handler(sessionRequest(cookie)), library ?? "", claims.email)
const answeredMs = performance.now()
process.stdout.write(JSON.stringify({ scriptMs, loadedMs, answeredMs }))

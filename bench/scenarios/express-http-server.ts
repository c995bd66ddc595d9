/**
 * The servers of the express-http scenario, in a worker thread of their own so that the load
 * generator (autocannon, on the main thread) does not share their event loop: two Express apps on
 * 127.0.0.1, one with Gatehouse's `ServerAuth` at /auth and one with `ExpressAuth` from
 * @auth/express at /auth, each with scenario 1's configuration, and a session cookie each
 * library's own `encode` made. Posts {@link ServerReady} once both listen; answers "gc" with a
 * full collection (between rounds, as measure.ts does on the main thread).
 *
 * It is its own esbuild entry point (see the root "bench" script), so it does not import
 * ../paths.js, whose addresses are relative to the main bundle: the parent passes what it needs.
 */
import { encode as authjsEncode } from "@auth/core/jwt"
import authjsGitHub from "@auth/core/providers/github"
import express, { type RequestHandler } from "express"
import { ServerAuth } from "gatehouse-auth/express"
import { encode as gatehouseEncode } from "gatehouse-auth/jwt"
import gatehouseGitHub from "gatehouse-auth/providers/github"
import { createRequire } from "node:module"
import type { AddressInfo } from "node:net"
import { pathToFileURL } from "node:url"
import { parentPort, workerData } from "node:worker_threads"
import { basePath, claims, jwtSessionConfig, secret, sessionCookieName } from "../fixtures.js"

export interface ServerWorkerData {
  /** bench/package.json, whose node_modules holds @auth/express (installed for the benchmarks alone). */
  benchPackage: string
}

export interface ServerTarget {
  name: "gatehouse" | "auth.js"
  url: string
  /** The session cookie's value, made by this library's `encode`. */
  cookie: string
}

export interface ServerReady {
  type: "ready"
  targets: ServerTarget[]
}

type ExpressAuthFactory = (config: ReturnType<typeof jwtSessionConfig>) => RequestHandler

/**
 * `ExpressAuth` from @auth/express, loaded from the bench's install at run time rather than
 * imported, so the workspace's type check passes without that install.
 */
async function loadExpressAuth(benchPackage: string): Promise<ExpressAuthFactory> {
  let resolved: string
  try {
    resolved = createRequire(benchPackage).resolve("@auth/express")
  } catch {
    throw new Error("@auth/express is not installed: run `npm install --prefix bench` (npm run bench does)")
  }
  return ((await import(pathToFileURL(resolved).href)) as { ExpressAuth: ExpressAuthFactory }).ExpressAuth
}

async function listen(app: express.Express): Promise<string> {
  const server = app.listen(0, "127.0.0.1")
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve).once("error", reject)
  })
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const port = parentPort
if (!port) throw new Error("express-http-server runs as a worker thread of the bench")
const { benchPackage } = workerData as ServerWorkerData
const ExpressAuth = await loadExpressAuth(benchPackage)

const gatehouseApp = express()
gatehouseApp.use(basePath, ServerAuth(jwtSessionConfig(gatehouseGitHub)))
const authjsApp = express()
// Mounted as Gatehouse is: Auth.js's documented "/auth/*" is not a valid path in Express 5.
authjsApp.use(basePath, ExpressAuth(jwtSessionConfig(authjsGitHub)))

const ready: ServerReady = {
  type: "ready",
  targets: [
    { name: "gatehouse", url: await listen(gatehouseApp), cookie: await gatehouseEncode({ token: claims, secret, salt: sessionCookieName }) },
    { name: "auth.js", url: await listen(authjsApp), cookie: await authjsEncode({ token: claims, secret, salt: sessionCookieName }) },
  ],
}
port.on("message", (message: unknown) => {
  if (message !== "gc") return
  ;(globalThis as { gc?: () => void }).gc?.()
  port.postMessage("gc done")
})
port.postMessage(ready)

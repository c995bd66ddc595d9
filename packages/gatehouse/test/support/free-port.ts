/** A free loopback TCP port, and listening on one, for the throwaway servers the tests start. */
import { createServer, type Server } from "node:net"

/** A TCP port nothing listens on right now on 127.0.0.1 (the OS picks it), never one of `avoid`. */
export async function freePort(avoid: readonly number[] = []): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer()
      server.once("error", reject)
      server.listen(0, "127.0.0.1", () => {
        const address = server.address()
        server.close(() => resolve(typeof address === "object" && address ? address.port : 0))
      })
    })
    if (port !== 0 && !avoid.includes(port)) return port
  }
}

/**
 * Starts `server` listening on 127.0.0.1 at a port the OS picks and resolves to that port; a
 * failure to listen rejects naming `what` (else it is an unhandled `error` event).
 *
 * @example
 * ```ts
 * const port = await listenOnLoopback(createServer(handler), "the OpenID provider")
 * ```
 */
export function listenOnLoopback(server: Server, what: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const failed = (error: Error) => reject(new Error(`${what} did not start: cannot listen on 127.0.0.1: ${error.message}`, { cause: error }))
    server.once("error", failed)
    server.listen(0, "127.0.0.1", () => {
      server.off("error", failed)
      const address = server.address()
      resolve(typeof address === "object" && address ? address.port : 0)
    })
  })
}

/** A free loopback TCP port, for the throwaway servers the tests start. */
import { createServer } from "node:net"

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

import { createServer, type Server } from "node:http"
import { tmpdir } from "node:os"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startExampleApp, type ExampleApp } from "./example-app.js"

/**
 * An app whose build fixed its port (SvelteKit 3's `paths.origin`) cannot move when another
 * process holds that port: the start must say so, never take whatever answers there for the app.
 */
describe("startExampleApp on a port given by the caller", () => {
  let squatter: Server
  let port: number
  // Never built: the start fails before it would run anything of the app.
  const app: ExampleApp = { dir: tmpdir(), build: [], sources: [], built: "" }

  beforeAll(async () => {
    squatter = createServer((_, response) => response.end("not the app"))
    await new Promise<void>((resolve) => squatter.listen(0, "127.0.0.1", resolve))
    port = (squatter.address() as { port: number }).port
  })

  afterAll(() => new Promise<void>((resolve) => squatter.close(() => resolve())))

  it("fails naming the port when another process listens there", async () => {
    const start = startExampleApp(app, { port, command: () => ["-e", "setTimeout(() => {}, 60_000)"], env: {} })
    await expect(start).rejects.toThrow(`port ${port} is taken`)
  })
})

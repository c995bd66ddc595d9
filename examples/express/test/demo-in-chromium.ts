/**
 * The demo started as `npm run demo` starts it (a free port, a fresh data directory and its own
 * `AUTH_SECRET`) with a headless Chromium beside it, for the browser tests: started before the
 * file's tests, stopped and removed after them.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll } from "vitest"
import { launchChromium } from "../../../packages/gatehouse/test/support/chromium.js"
import { startDemo, type Demo } from "../src/demo.js"
import { loadEnvFile } from "../src/env-file.js"

/** The running demo and browser of a test file (read them inside tests, once `beforeAll` ran). */
export interface DemoInChromium {
  readonly browser: Browser
  readonly demo: Demo
  readonly dataDir: string
}

/** Starts the demo and Chromium for the calling test file; `prefix` names its data directory. */
export function useDemoInChromium(prefix: string): DemoInChromium {
  let browser: Browser | undefined
  let demo: Demo | undefined
  let dataDir: string | undefined
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), prefix))
    const env: Record<string, string | undefined> = {}
    loadEnvFile(join(dataDir, ".env"), env)
    process.env.AUTH_SECRET = env.AUTH_SECRET
    demo = await startDemo({ port: 0, dataDir })
    browser = await launchChromium()
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await demo?.close()
    delete process.env.AUTH_SECRET
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })
  return {
    get browser() {
      return browser!
    },
    get demo() {
      return demo!
    },
    get dataDir() {
      return dataDir!
    },
  }
}

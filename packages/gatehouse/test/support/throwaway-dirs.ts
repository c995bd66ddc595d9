/**
 * Temp folders of the servers the tests start (`gatehouse-pg-*`, `gatehouse-redis-*`), removed
 * however the process ends: by their owner (teardown, a failed start), at exit, or on SIGINT or
 * SIGTERM, which skip the global teardown and, when nothing else listens for them, the `exit`
 * event too. A folder's owner may register a synchronous stop (kill a server) to run first.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/** Live folders and what stops their server before the folder goes. */
const live = new Map<string, () => void>()
let installed = false

function removeAll(): void {
  for (const [dir, stop] of live) {
    try {
      stop()
    } catch {
      // Best effort on the way out: the folder goes even if its server could not be stopped.
    }
    try {
      // A server just killed may still be closing files in it (EBUSY, ENOTEMPTY): a few retries.
      rmSync(dir, { recursive: true, force: true, maxRetries: 3, retryDelay: 50 })
    } catch {
      // On the way out a folder left behind beats a throw that stops the other folders' removal.
    }
  }
  live.clear()
}

function onSignal(signal: NodeJS.Signals): void {
  removeAll()
  // Listening for the signal cancelled its default (the process ending): when nobody else (vitest)
  // handles it, raise it again without us, so the process still ends as interrupted.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal)
}

function install(): void {
  if (installed) return
  installed = true
  process.on("exit", removeAll)
  process.once("SIGINT", onSignal)
  process.once("SIGTERM", onSignal)
}

/**
 * A new `<tmpdir>/<prefix>XXXXXX` folder, removed at exit or interrupt unless released first.
 *
 * @example
 * ```ts
 * const dir = throwawayDir("gatehouse-redis-")
 * onInterrupt(dir, () => child.kill("SIGKILL"))
 * // … and when done:
 * removeThrowawayDir(dir)
 * ```
 */
export function throwawayDir(prefix: string): string {
  install()
  const dir = mkdtempSync(join(tmpdir(), prefix))
  live.set(dir, () => {})
  return dir
}

/** What stops the server living in `dir` (synchronously) before the folder is removed on the way out. */
export function onInterrupt(dir: string, stop: () => void): void {
  if (live.has(dir)) live.set(dir, stop)
}

/** Removes `dir` now (its owner has stopped its server) and forgets it. */
export function removeThrowawayDir(dir: string): void {
  live.delete(dir)
  rmSync(dir, { recursive: true, force: true })
}

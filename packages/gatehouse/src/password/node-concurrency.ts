/**
 * The Node build's default limit on concurrent password hashing, from the size of libuv's thread
 * pool and the machine's cores.
 * @module
 */
import { availableParallelism } from "node:os"

/** libuv's own bounds: 4 threads unless UV_THREADPOOL_SIZE says otherwise, at most 1024. */
const LIBUV_DEFAULT_THREADS = 4
const LIBUV_MAX_THREADS = 1024

/**
 * `max(1, min(threadpool − 2, availableParallelism − 1))`: two pool threads stay free for Web
 * Crypto (JWE session checks), file and DNS work, and one core for the event loop. With a pool of
 * two or fewer threads the one derivation still allowed may hold half of it or all of it.
 */
export function nodeDefaultConcurrency(): number {
  const configured = Number.parseInt(process.env.UV_THREADPOOL_SIZE ?? "", 10)
  const threadpool = configured > 0 ? Math.min(configured, LIBUV_MAX_THREADS) : LIBUV_DEFAULT_THREADS
  return Math.max(1, Math.min(threadpool - 2, availableParallelism() - 1))
}

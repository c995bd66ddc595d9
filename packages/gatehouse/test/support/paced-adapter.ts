/**
 * A test device for races between requests: the same adapter, every call reaching the real store
 * and answered by it, with a pause the test chooses before and after each call. Concurrent requests
 * then interleave their adapter calls in an order the test forces (barriers) or varies (random
 * pauses), instead of whatever order the event loop happens to give. Nothing is answered or
 * changed by the wrapper.
 */

/** What to wait for around one adapter call; `method` is the adapter method's name. */
export interface Pacing {
  /** Awaited before the call reaches the store. */
  before?(method: string, args: readonly unknown[]): Promise<void> | void
  /** Awaited after the store answered, before the caller sees the answer. */
  after?(method: string, args: readonly unknown[]): Promise<void> | void
}

/**
 * `adapter` with `pacing()` (read at each call, so a test can switch it on for the race only)
 * around every method.
 *
 * @example
 * ```ts
 * let pacing: Pacing | undefined
 * const paced = pacedAdapter(adapter, () => pacing)
 * pacing = { before: (method) => (method === "unlinkAccount" ? bothArrived() : undefined) }
 * ```
 */
export function pacedAdapter<A extends object>(adapter: A, pacing: () => Pacing | undefined): A {
  return new Proxy(adapter, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver)
      if (typeof value !== "function" || typeof name !== "string") return value
      return async (...args: unknown[]) => {
        const pace = pacing()
        await pace?.before?.(name, args)
        const result: unknown = await value.apply(target, args)
        await pace?.after?.(name, args)
        return result
      }
    },
  })
}

/**
 * A barrier for `parties` callers: each call waits until that many have called, or `giveUpMs` have
 * passed since the first call. Giving up turns a caller that never comes (the code under test took
 * another path) into a wrong answer the test reports, not a test timeout.
 */
export function barrier(parties: number, giveUpMs = GIVE_UP_MS): () => Promise<void> {
  let arrived = 0
  let waiting: ReturnType<typeof gate> | undefined
  return () => {
    waiting ??= gate(giveUpMs)
    arrived += 1
    if (arrived >= parties) waiting.open()
    return waiting.opened
  }
}

/** A promise that `open()` resolves, or that resolves by itself `giveUpMs` after this call (see {@link barrier}). */
export function gate(giveUpMs = GIVE_UP_MS): { open: () => void; opened: Promise<void> } {
  let open!: () => void
  const opened = new Promise<void>((resolve) => {
    open = resolve
    setTimeout(resolve, giveUpMs).unref()
  })
  return { open, opened }
}

/** Far longer than any store takes to answer here, well within the tests' timeout. */
const GIVE_UP_MS = 4_000

/** A pause of 0 to `maxMs` milliseconds (a timer, so other requests' I/O and timers may run). */
export function randomPause(maxMs: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * maxMs))
}

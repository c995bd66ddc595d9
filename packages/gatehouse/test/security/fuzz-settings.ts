/**
 * How many runs the fuzz properties make, from which seed, and the time bound on every `Auth()`
 * call.
 *
 * - `GATEHOUSE_FUZZ_RUNS=5000` sets every property's number of runs; `GATEHOUSE_FUZZ_RUNS=x20`
 *   multiplies each property's default instead. Unset, the defaults keep the whole fuzz suite to a
 *   few seconds so it can run in `npm test`.
 * - `GATEHOUSE_FUZZ_SEED=<integer>` replays a run: fast-check prints the seed (and the shrink
 *   path) of every failure it reports.
 */
import type { Parameters } from "fast-check"

/** How long one `Auth()` call may take before the fuzz suite calls it a hang. */
export const SETTLE_BOUND_MS = 5_000

function positiveNumber(text: string): number {
  const value = Number(text)
  if (!Number.isFinite(value) || value <= 0) throw new Error(`GATEHOUSE_FUZZ_RUNS must be a positive number or xN; received ${JSON.stringify(text)}`)
  return value
}

/** The number of runs for a property whose default is `defaultRuns`, after `GATEHOUSE_FUZZ_RUNS`. */
export function fuzzRuns(defaultRuns: number): number {
  const setting = process.env.GATEHOUSE_FUZZ_RUNS?.trim()
  if (!setting) return defaultRuns
  if (/^x/i.test(setting)) return Math.max(1, Math.round(defaultRuns * positiveNumber(setting.slice(1))))
  return Math.max(1, Math.round(positiveNumber(setting)))
}

/** The seed from `GATEHOUSE_FUZZ_SEED`, if set. */
export function fuzzSeed(): number | undefined {
  const setting = process.env.GATEHOUSE_FUZZ_SEED?.trim()
  if (!setting) return undefined
  const seed = Number(setting)
  if (!Number.isInteger(seed)) throw new Error(`GATEHOUSE_FUZZ_SEED must be an integer; received ${JSON.stringify(setting)}`)
  return seed
}

/** fast-check parameters for a property with `defaultRuns` runs by default. */
export function fuzzParameters<T>(defaultRuns: number): Parameters<T> {
  const seed = fuzzSeed()
  return { numRuns: fuzzRuns(defaultRuns), ...(seed !== undefined && { seed }) }
}

/**
 * A vitest timeout for a property: generous per run, so a long `GATEHOUSE_FUZZ_RUNS` session is
 * not cut short by the default test timeout. Not a performance bound; the per-call bound is
 * {@link SETTLE_BOUND_MS}.
 */
export function fuzzTimeout(defaultRuns: number): number {
  return 60_000 + fuzzRuns(defaultRuns) * 100
}

/**
 * `pending`, or a rejection naming `what` when it has not settled within `boundMs` (default
 * {@link SETTLE_BOUND_MS}).
 * The timer is cleared as soon as the call settles, so a run leaves nothing behind.
 */
export async function settleWithin<T>(pending: Promise<T>, what: () => string, boundMs: number = SETTLE_BOUND_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Auth() did not settle within ${boundMs} ms for ${what()}`)), boundMs)
  })
  try {
    return await Promise.race([pending, bound])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Runs `run` and returns its value with the promise rejections nobody handled meanwhile (each one would end a
 * Node process that runs with the default `--unhandled-rejections=throw`). The usual listeners
 * (vitest's) are set aside for the duration and put back afterwards.
 */
export async function unhandledRejectionsDuring<T>(run: () => Promise<T>): Promise<{ value: T; unhandled: unknown[] }> {
  const seen: unknown[] = []
  const usual = process.listeners("unhandledRejection")
  const listener = (reason: unknown) => void seen.push(reason)
  process.removeAllListeners("unhandledRejection")
  process.on("unhandledRejection", listener)
  try {
    const value = await run()
    // Node reports an unhandled rejection once the microtasks after the macrotask that made it have run.
    await new Promise((resolve) => setImmediate(resolve))
    await new Promise((resolve) => setImmediate(resolve))
    return { value, unhandled: seen }
  } finally {
    process.off("unhandledRejection", listener)
    for (const other of usual) process.on("unhandledRejection", other as (reason: unknown) => void)
  }
}

/**
 * Interleaved timing. The contenders take turns in short rounds (A then B, then B then A, …) for
 * many rounds, so a burst of machine noise, a CPU frequency change or a neighbour's load lands on
 * every contender alike instead of on whichever happened to be running at the time.
 */

/** One library's operation. It must throw when the answer is wrong: a wrong answer is a broken run. */
export interface Contender {
  name: string
  op: () => Promise<unknown>
}

export interface TimingOptions {
  /** Rounds per contender. */
  rounds: number
  /** Length of one round of one contender. */
  roundMs: number
  /** Calls kept in flight at once (1: sequential). */
  concurrency: number
  /** Untimed running per contender first, so the JIT and the libraries' caches are warm. */
  warmupMs: number
}

export interface Timing {
  name: string
  ops: number
  seconds: number
  opsPerSecond: number
  /** Latency of one call, in microseconds (under concurrency: including the wait for its turn). */
  p50Us: number
  p95Us: number
  p99Us: number
}

/** Rounds at scale 1: 40 rounds of 150 ms per contender, about 12 s per pair of libraries. */
export function timingAtScale(scale: number, concurrency: number): TimingOptions {
  return { rounds: Math.max(3, Math.round(40 * scale)), roundMs: 150, concurrency, warmupMs: Math.max(100, Math.round(500 * scale)) }
}

/** The value at quantile `q` (0..1) by nearest rank. */
export function quantile(values: ArrayLike<number>, q: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = Float64Array.from(values).sort()
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))
  return sorted[rank]!
}

/** Growable list of latencies: millions of plain-array pushes would churn the heap being measured. */
export class Samples {
  private data = new Float64Array(1 << 16)
  length = 0
  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = new Float64Array(this.data.length * 2)
      bigger.set(this.data)
      this.data = bigger
    }
    this.data[this.length++] = value
  }
  values(): Float64Array {
    return this.data.subarray(0, this.length)
  }
}

/** Thrown by {@link interleave} once {@link stopTiming} was called. */
export class TimingStopped extends Error {
  constructor() {
    super("timing stopped")
  }
}

let stopping = false
let activeRound: Promise<unknown> | undefined

/**
 * Ends timing for good (the run was interrupted): the current round stops issuing calls, and this
 * resolves once the calls in flight are done, so teardown never closes a pool under them.
 */
export async function stopTiming(): Promise<void> {
  stopping = true
  await activeRound?.catch(() => {})
}

/** Runs `op` with `concurrency` calls in flight until `ms` have passed; returns calls completed and time taken. */
function round(op: Contender["op"], concurrency: number, ms: number, samples?: Samples): Promise<{ ops: number; ms: number }> {
  if (stopping) throw new TimingStopped()
  const running = runRound(op, concurrency, ms, samples)
  activeRound = running
  return running
}

async function runRound(op: Contender["op"], concurrency: number, ms: number, samples?: Samples): Promise<{ ops: number; ms: number }> {
  const started = performance.now()
  const deadline = started + ms
  let ops = 0
  const worker = async () => {
    while (!stopping && performance.now() < deadline) {
      const t = performance.now()
      await op()
      samples?.push(performance.now() - t)
      ops++
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return { ops, ms: performance.now() - started }
}

/** A full collection between rounds, so one contender's garbage is not collected on another's clock. */
export function collectGarbage(): void {
  ;(globalThis as { gc?: () => void }).gc?.()
}

/** Times every contender in alternating rounds; returns one {@link Timing} per contender, in order. */
export async function interleave(contenders: Contender[], options: TimingOptions): Promise<Timing[]> {
  for (const contender of contenders) await round(contender.op, options.concurrency, options.warmupMs)
  const totals = contenders.map(() => ({ ops: 0, ms: 0, samples: new Samples() }))
  for (let r = 0; r < options.rounds; r++) {
    // Every other round in reverse order: whoever runs second in a pair never always inherits the first's state.
    const order = r % 2 === 0 ? contenders.map((_, i) => i) : contenders.map((_, i) => contenders.length - 1 - i)
    for (const i of order) {
      collectGarbage()
      const total = totals[i]!
      const result = await round(contenders[i]!.op, options.concurrency, options.roundMs, total.samples)
      total.ops += result.ops
      total.ms += result.ms
    }
  }
  return contenders.map((contender, i) => {
    const { ops, ms, samples } = totals[i]!
    const latencies = samples.values()
    return {
      name: contender.name,
      ops,
      seconds: ms / 1000,
      opsPerSecond: (ops * 1000) / ms,
      p50Us: quantile(latencies, 0.5) * 1000,
      p95Us: quantile(latencies, 0.95) * 1000,
      p99Us: quantile(latencies, 0.99) * 1000,
    }
  })
}

/** The usual case: Gatehouse against Auth.js, interleaved. */
export async function compare(
  ops: { gatehouse: Contender["op"]; authjs: Contender["op"] },
  options: TimingOptions,
): Promise<{ gatehouse: Timing; authjs: Timing }> {
  const [gatehouse, authjs] = await interleave(
    [
      { name: "gatehouse", op: ops.gatehouse },
      { name: "auth.js", op: ops.authjs },
    ],
    options,
  )
  return { gatehouse: gatehouse!, authjs: authjs! }
}

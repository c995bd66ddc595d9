/**
 * Scenario 7: heap growth over many session checks (scenario 1's setup, sequential). Heap used is
 * read after full collections before and after; a library that keeps something per request grows
 * by about its size times the count. The bound is a verdict in the output, never an exit code.
 */
import { formatLatency } from "../report.js"
import type { Scenario } from "../scenario.js"
import { jwtSessionChecks, type SessionCheck } from "../session-checks.js"

const BOUND_MB = 16
const MB = 1024 * 1024

function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc
  if (!gc) throw new Error("the memory scenario needs node --expose-gc (npm run bench passes it)")
  // Twice: the first collection may leave objects that only the second finds unreachable (weak refs, finalizers).
  gc()
  gc()
}

async function growth(check: SessionCheck, count: number) {
  for (let i = 0; i < 1_000; i++) await check() // first-use allocations (caches, JIT) are not growth
  collect()
  const before = process.memoryUsage().heapUsed
  const started = performance.now()
  for (let i = 0; i < count; i++) await check()
  const perCallUs = ((performance.now() - started) * 1000) / count
  collect()
  const after = process.memoryUsage().heapUsed
  return { beforeMB: before / MB, afterMB: after / MB, growthMB: (after - before) / MB, perCallUs }
}

export const memory: Scenario = {
  name: "memory",
  title: "7. Memory: heap used after gc, before and after many session checks",
  async run({ report, scale }) {
    const count = Math.max(1_000, Math.round(100_000 * scale))
    const checks = await jwtSessionChecks()
    const gatehouse = await growth(checks.gatehouse, count)
    const authjs = await growth(checks.authjs, count)
    const figure = (g: typeof gatehouse) => ({
      value: g.growthMB,
      aside: `(heap ${g.beforeMB.toFixed(1)} → ${g.afterMB.toFixed(1)} MB; ${g.growthMB <= BOUND_MB ? "PASS" : "FAIL"}: bound ${BOUND_MB} MB; ${formatLatency(g.perCallUs)}/check)`,
      detail: { ...g, boundMB: BOUND_MB, withinBound: g.growthMB <= BOUND_MB },
    })
    // Growth of a few hundred KB is the collector's bookkeeping, not the library: a ratio of two such figures means nothing.
    const noise = Math.abs(gatehouse.growthMB) < 1 || Math.abs(authjs.growthMB) < 1
    report.figure(`heap growth over ${count.toLocaleString("en-US")} session checks (bound: ${BOUND_MB} MB each)`, {
      unit: "MB",
      better: "lower",
      quantity: "heap growth",
      gatehouse: figure(gatehouse),
      authjs: figure(authjs),
      ratioNote: noise ? "not meaningful: a growth under 1 MB is within GC noise (lower is better)" : undefined,
    })
  },
}

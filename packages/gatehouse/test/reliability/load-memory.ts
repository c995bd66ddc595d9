/**
 * Heap and RSS over a load run. The heap figures are taken after full collections when V8's `gc`
 * can be had (under `--expose-gc`, or by setting that flag at run time); otherwise they are the
 * medians of samples from the first and the second half of the run, which is noisier but still
 * shows memory kept per request.
 */
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"

export interface MemoryFigures {
  /** How the heap figures were taken: after forced full collections, or medians of samples. */
  method: "after-gc" | "sample-median"
  heapBeforeMB: number
  heapAfterMB: number
  heapGrowthMB: number
  rssBeforeMB: number
  rssAfterMB: number
  rssPeakMB: number
}

const MB = 1024 * 1024
const inMB = (bytes: number) => Number((bytes / MB).toFixed(1))

/** `global.gc` under `--expose-gc`; otherwise the flag is set now and V8's `gc` fetched from a fresh context. */
function garbageCollector(): (() => void) | undefined {
  const exposed = (globalThis as { gc?: unknown }).gc
  if (typeof exposed === "function") return exposed as () => void
  try {
    setFlagsFromString("--expose-gc")
    const gc: unknown = runInNewContext("gc")
    return typeof gc === "function" ? (gc as () => void) : undefined
  } catch {
    return undefined
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

/** Takes the "before" figure now and samples every `everyMs` until `stop`, which returns the figures. */
export function watchMemory(everyMs = 250): { stop(): MemoryFigures } {
  const gc = garbageCollector()
  // Twice: the first collection may leave what only the second finds unreachable (weak refs, finalizers).
  const collect = () => {
    gc?.()
    gc?.()
  }
  collect()
  const before = process.memoryUsage()
  const samples: { heap: number; rss: number }[] = []
  const sampler = setInterval(() => {
    const { heapUsed, rss } = process.memoryUsage()
    samples.push({ heap: heapUsed, rss })
  }, everyMs)
  return {
    stop() {
      clearInterval(sampler)
      collect()
      const after = process.memoryUsage()
      const rss = { rssBeforeMB: inMB(before.rss), rssAfterMB: inMB(after.rss), rssPeakMB: inMB(Math.max(before.rss, after.rss, ...samples.map((s) => s.rss))) }
      if (gc) {
        return { method: "after-gc", heapBeforeMB: inMB(before.heapUsed), heapAfterMB: inMB(after.heapUsed), heapGrowthMB: inMB(after.heapUsed - before.heapUsed), ...rss }
      }
      const half = Math.floor(samples.length / 2)
      const first = median(samples.slice(0, half).map((s) => s.heap))
      const last = median(samples.slice(half).map((s) => s.heap))
      return { method: "sample-median", heapBeforeMB: inMB(first), heapAfterMB: inMB(last), heapGrowthMB: inMB(last - first), ...rss }
    },
  }
}

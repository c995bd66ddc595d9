/**
 * Scenario 1: the JWT session check. Through each library's handler (`GET /auth/session` via
 * `Auth()`), one at a time and 64 in flight; Gatehouse's in-process read (the integration kernel's
 * `getSession`) against Auth.js's handler; and Gatehouse against two floors measured in the same
 * run: a minimal handler around a `node:crypto` decrypt, and that decrypt alone.
 */
import { cryptoFloor, handlerFloor } from "../floors.js"
import { compare, interleave, timingAtScale, type TimingOptions } from "../measure.js"
import type { Scenario } from "../scenario.js"
import { jwtSessionChecks } from "../session-checks.js"

async function againstFloor(op: () => Promise<void>, floor: () => Promise<void>, options: TimingOptions) {
  const [gatehouse, floorTiming] = await interleave(
    [
      { name: "gatehouse", op },
      { name: "floor", op: floor },
    ],
    options,
  )
  return { gatehouse: gatehouse!, floor: floorTiming! }
}

export const sessionJwt: Scenario = {
  name: "session-jwt",
  title: "1. JWT session check: GET /auth/session through Auth(), and in-process",
  async run({ report, scale }) {
    const checks = await jwtSessionChecks()
    for (const concurrency of [1, 64]) {
      const timings = await compare(checks, timingAtScale(scale, concurrency))
      report.throughput(concurrency === 1 ? "sequential" : `concurrency ${concurrency} (in process)`, timings, { concurrency })
    }
    const sequential = timingAtScale(scale, 1)
    const inProcess = await compare({ gatehouse: checks.inProcess, authjs: checks.authjs }, sequential)
    report.throughput("in-process read (gatehouse-auth/framework getSession) vs Auth.js's session route, sequential", inProcess)
    report.cost("Auth() session route vs the handler floor, sequential", await againstFloor(checks.gatehouse, handlerFloor(checks.gatehouseCookie), sequential), "handler floor")
    report.cost("in-process read vs the node:crypto decrypt, sequential", await againstFloor(checks.inProcess, cryptoFloor(checks.gatehouseCookie), sequential), "decrypt")
  },
}

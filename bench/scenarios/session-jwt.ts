/** Scenario 1: the JWT session check through the handler, one at a time and 64 in flight. */
import { compare, timingAtScale } from "../measure.js"
import type { Scenario } from "../scenario.js"
import { jwtSessionChecks } from "../session-checks.js"

export const sessionJwt: Scenario = {
  name: "session-jwt",
  title: "1. JWT session check: GET /auth/session through Auth()",
  async run({ report, scale }) {
    const checks = await jwtSessionChecks()
    for (const concurrency of [1, 64]) {
      const timings = await compare(checks, timingAtScale(scale, concurrency))
      report.throughput(concurrency === 1 ? "sequential" : `concurrency ${concurrency} (in process)`, timings, { concurrency })
    }
  },
}

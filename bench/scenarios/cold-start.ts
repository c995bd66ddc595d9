/**
 * Scenario 5: cold start. Fresh Node processes, the libraries alternating, each loading its
 * library, building the config and answering one session request (./cold-start-child.ts).
 * Medians, because one slow spawn should not move the figure.
 */
import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { encode as authjsEncode } from "@auth/core/jwt"
import { encode as gatehouseEncode } from "gatehouse-auth/jwt"
import { claims, secret, sessionCookieName } from "../fixtures.js"
import { quantile } from "../measure.js"
import { coldStartChild } from "../paths.js"
import type { Scenario } from "../scenario.js"

const run = promisify(execFile)

interface ChildTimes {
  /** ms since process start when the child's script began (Node's own start-up before it). */
  scriptMs: number
  /** … when the library and provider were imported and the config built. */
  loadedMs: number
  /** … when the first session request was answered and checked. */
  answeredMs: number
  /** The parent's view: spawn to exit. */
  wallMs: number
}

type Library = "gatehouse" | "authjs"

async function coldStart(library: Library, cookie: string): Promise<ChildTimes> {
  const started = performance.now()
  const { stdout } = await run(process.execPath, [coldStartChild, library], { env: { ...process.env, BENCH_SESSION_COOKIE: cookie } })
  const wallMs = performance.now() - started
  return { ...(JSON.parse(stdout) as Omit<ChildTimes, "wallMs">), wallMs }
}

const median = (values: number[]) => quantile(values, 0.5)

export const coldStartScenario: Scenario = {
  name: "cold-start",
  title: "5. Cold start: a fresh node process until its first session request is answered",
  async run({ report, scale }) {
    const runs = Math.max(3, Math.round(10 * scale))
    const cookies: Record<Library, string> = {
      gatehouse: await gatehouseEncode({ token: claims, secret, salt: sessionCookieName }),
      authjs: await authjsEncode({ token: claims, secret, salt: sessionCookieName }),
    }
    // One untimed run each, so both find their files in the OS page cache.
    for (const library of ["gatehouse", "authjs"] as const) await coldStart(library, cookies[library])
    const samples: Record<Library, ChildTimes[]> = { gatehouse: [], authjs: [] }
    for (let i = 0; i < runs; i++) {
      const order: Library[] = i % 2 === 0 ? ["gatehouse", "authjs"] : ["authjs", "gatehouse"]
      for (const library of order) samples[library].push(await coldStart(library, cookies[library]))
    }
    report.note(`${runs} runs per library, alternating; medians; node ${process.version}, no flags`)
    const figure = (library: Library) => {
      const s = samples[library]
      const answered = median(s.map((t) => t.answeredMs))
      const load = median(s.map((t) => t.loadedMs - t.scriptMs))
      const firstAnswer = median(s.map((t) => t.answeredMs - t.loadedMs))
      return { answered, wall: median(s.map((t) => t.wallMs)), aside: `(import + config ${load.toFixed(1)} ms, first answer ${firstAnswer.toFixed(1)} ms)`, samples: s }
    }
    const gatehouse = figure("gatehouse")
    const authjs = figure("authjs")
    report.figure("whole process, spawn to exit, measured by the parent (median)", {
      unit: "ms",
      better: "lower",
      quantity: "time",
      gatehouse: { value: gatehouse.wall },
      authjs: { value: authjs.wall },
    })
    report.figure("process start to first session answered, measured in the child (median)", {
      unit: "ms",
      better: "lower",
      quantity: "time",
      gatehouse: { value: gatehouse.answered, aside: gatehouse.aside, detail: { samples: gatehouse.samples } },
      authjs: { value: authjs.answered, aside: authjs.aside, detail: { samples: authjs.samples } },
    })
  },
}

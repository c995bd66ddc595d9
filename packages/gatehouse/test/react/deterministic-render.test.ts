/**
 * `SessionProvider` and `useSession` render from their props and state alone: no clock and no
 * random numbers while rendering. Next's prerender with Cache Components (create-next-app's
 * default since 16.4) fails the build on a client component that reads `Date.now()`,
 * `new Date()` or `Math.random()` during render outside a Suspense boundary, and such a read
 * would differ between the server's HTML and the browser's hydration anyway. Rendered here with
 * react-dom/server, every such read from the module's code recorded: seeded and unseeded, signed
 * in and out.
 */
import { createElement as h } from "react"
import { renderToString } from "react-dom/server"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { SessionProvider, useSession, type SessionData } from "../../src/react/index.js"

const ada: SessionData = { user: { name: "Ada Lovelace", email: "ada@example.com" }, expires: "2100-01-01T00:00:00.000Z" }

function View({ required }: { required?: boolean }) {
  const { data, status } = useSession(required ? { required: true } : {})
  return h("p", null, `${status}:${data?.user?.name ?? ""}`)
}

/** Every read of the clock or of randomness the React module made while rendering. */
let reads: string[]

/** Whether the caller of the stubbed function is gatehouse-auth/react's code (React's renderer reads the clock itself). */
const fromModule = () => (new Error().stack ?? "").split("\n").slice(2).some((line) => line.includes("src/react/index.ts"))

beforeEach(() => {
  reads = []
  const RealDate = Date
  const real = { now: Date.now, random: Math.random, perf: performance.now.bind(performance) }
  const watch = <T>(what: string, original: () => T) => (): T => {
    if (fromModule()) reads.push(what)
    return original()
  }
  vi.spyOn(Date, "now").mockImplementation(watch("Date.now()", real.now))
  vi.spyOn(Math, "random").mockImplementation(watch("Math.random()", real.random))
  vi.spyOn(performance, "now").mockImplementation(watch("performance.now()", real.perf))
  // `new Date()` without arguments reads the clock; a date from a given value does not.
  vi.stubGlobal(
    "Date",
    new Proxy(RealDate, {
      construct(target, args: unknown[]) {
        if (args.length === 0 && fromModule()) reads.push("new Date()")
        return Reflect.construct(target, args) as object
      },
    }),
  )
})

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe("SessionProvider and useSession render deterministically", () => {
  it.each([
    ["seeded with a session", { session: ada }, "authenticated:Ada Lovelace"],
    ["seeded signed out", { session: null }, "unauthenticated:"],
    ["without a seed", {}, "loading:"],
    ["with polling and focus refetching set", { session: ada, refetchInterval: 60, refetchOnWindowFocus: true }, "authenticated:Ada Lovelace"],
  ] as const)("%s: no clock or random read, and the same markup twice", (_, props, shown) => {
    const render = () => renderToString(h(SessionProvider, props, h(View), h(View, { required: true })))
    const first = render()
    expect(reads).toEqual([])
    expect(first).toContain(shown)
    expect(render()).toBe(first)
  })
})

/**
 * The adapter's schema, checked on the first request that uses a database: a database that lacks
 * migrations this version needs is logged (`schema-outdated`, naming the command that applies
 * them), never a reason to refuse a request. The adapter serves what it can, and a feature whose
 * table is missing fails alone.
 * @module
 */
import type { Adapter } from "../adapters/index.js"
import { schemaSourceOf } from "../adapters/schema-source.js"
import type { LoggerInstance } from "../types.js"
import { callAdapter } from "./adapter-call.js"
import { WARNING_MESSAGES } from "./logger.js"

/**
 * What this process has checked and logged, on `globalThis` under a registered symbol like the
 * shown configuration warnings: a bundler may load several copies of the core. Versioned, so
 * another release loaded beside this one keeps its own.
 */
const STATE = Symbol.for("gatehouse-auth.schema-check.v2")

interface SchemaCheckState {
  /** The databases (an adapter's marked pool or connection, else the adapter itself) asked. */
  readonly asked: WeakSet<object>
  /** The warnings logged, by their text: the same missing steps are logged once per process. */
  readonly shown: Set<string>
  /** When an adapter that names no database was last asked (ms), for {@link UNNAMED_INTERVAL_MS}. */
  unnamedAskedAt: number
}

/**
 * How often a fresh adapter object that does not name its database (a custom adapter, or one
 * wrapped without its mark) is asked: a configuration built per request makes one per request, and
 * a query on every request would cost more than the warning is worth.
 */
const UNNAMED_INTERVAL_MS = 10 * 60 * 1000

function checkState(): SchemaCheckState {
  const holder = globalThis as unknown as Record<symbol, SchemaCheckState | undefined>
  let state = holder[STATE]
  if (!state) holder[STATE] = state = { asked: new WeakSet(), shown: new Set(), unnamedAskedAt: Number.NEGATIVE_INFINITY }
  return state
}

/**
 * Asks `adapter.missingMigrations()` the first time its database is seen (the pool or connection
 * the SQL adapters mark, so a new adapter per request over one pool is asked once), without
 * waiting for the answer (the request goes on at once), and logs `schema-outdated` with the
 * missing ids when there are any, once per process for the same ids. A failure (the database
 * unreachable at that moment) is left to the requests that need the database, which report it
 * themselves.
 */
export function checkAdapterSchema(adapter: Adapter | undefined, logger: LoggerInstance, now = Date.now()): void {
  if (!adapter || typeof adapter.missingMigrations !== "function") return
  const state = checkState()
  const source = schemaSourceOf(adapter)
  const key = source ?? adapter
  if (state.asked.has(key)) return
  state.asked.add(key)
  if (source === undefined) {
    if (now - state.unnamedAskedAt < UNNAMED_INTERVAL_MS) return
    state.unnamedAskedAt = now
  }
  // Nothing here may reject unhandled: an adapter answering junk (an id String() cannot print)
  // or a throwing logger would otherwise end the process.
  callAdapter(adapter, "missingMigrations")
    .then((missing) => {
      if (!Array.isArray(missing) || missing.length === 0) return
      const text = `${WARNING_MESSAGES["schema-outdated"]} Missing: ${missing.map(String).join(", ")}.`
      if (state.shown.has(text)) return
      state.shown.add(text)
      logger.warn("schema-outdated", text)
    })
    .catch(() => {})
}

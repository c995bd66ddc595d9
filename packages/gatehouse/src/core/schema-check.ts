/**
 * The adapter's schema, checked once: a database that lacks migrations this version needs is
 * logged (`schema-outdated`, naming the command that applies them), never a reason to refuse a
 * request. The adapter serves what it can, and a feature whose table is missing fails alone.
 * @module
 */
import type { Adapter } from "../adapters/index.js"
import type { LoggerInstance } from "../types.js"
import { callAdapter } from "./adapter-call.js"
import { WARNING_MESSAGES } from "./logger.js"

/**
 * The adapters asked in this process, on `globalThis` under a registered symbol like the shown
 * configuration warnings: a bundler may load several copies of the core, and one adapter object
 * (one pool) is asked once. Versioned, so another release loaded beside this one keeps its own.
 */
const CHECKED = Symbol.for("gatehouse-auth.schema-checked.v1")

function checkedAdapters(): WeakSet<object> {
  const holder = globalThis as unknown as Record<symbol, WeakSet<object> | undefined>
  let checked = holder[CHECKED]
  if (!(checked instanceof WeakSet)) holder[CHECKED] = checked = new WeakSet()
  return checked
}

/**
 * Asks `adapter.missingMigrations()` the first time an adapter is seen, without waiting for the
 * answer (the request goes on at once), and logs `schema-outdated` with the missing ids when
 * there are any. A failure (the database unreachable at that moment) is left to the requests
 * that need the database, which report it themselves.
 */
export function checkAdapterSchema(adapter: Adapter | undefined, logger: LoggerInstance): void {
  if (!adapter || typeof adapter.missingMigrations !== "function") return
  const checked = checkedAdapters()
  if (checked.has(adapter)) return
  checked.add(adapter)
  callAdapter(adapter, "missingMigrations").then(
    (missing) => {
      if (!Array.isArray(missing) || missing.length === 0) return
      logger.warn("schema-outdated", `${WARNING_MESSAGES["schema-outdated"]} Missing: ${missing.map(String).join(", ")}.`)
    },
    () => {},
  )
}

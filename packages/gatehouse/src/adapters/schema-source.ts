/**
 * The database an adapter reads its schema from, marked on the adapter object: a config built per
 * request makes a new adapter per request over the same pool or connection, and the core's schema
 * check asks each database once, not each adapter object.
 * @module
 */

/**
 * Registered, so every copy of the package a bundler loads reads the same key; versioned, so
 * another release loaded beside this one keeps its own.
 */
const SCHEMA_SOURCE = Symbol.for("gatehouse-auth.schema-source.v1")

/**
 * Marks `adapter` as reading its schema from `source` (the pool, the connection). Enumerable, so
 * an adapter spread into a wrapper (`{ ...PostgresAdapter(pool), getUser }`) keeps the mark.
 */
export function markSchemaSource<T extends object>(adapter: T, source: object): T {
  Object.defineProperty(adapter, SCHEMA_SOURCE, { value: source, enumerable: true })
  return adapter
}

/** The database `adapter` was marked with, or undefined for an adapter that names none. */
export function schemaSourceOf(adapter: object): object | undefined {
  const source: unknown = (adapter as Record<symbol, unknown>)[SCHEMA_SOURCE]
  return typeof source === "object" && source !== null ? source : undefined
}

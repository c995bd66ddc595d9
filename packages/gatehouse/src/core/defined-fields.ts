/**
 * Objects without their `undefined` entries: a key given as `undefined` must neither blank out a
 * default nor be written to a store as a column's value.
 * @module
 */

/** The entries of `value` whose value is not `undefined` (`{}` for `undefined` itself). */
export function withoutUndefined<T extends object>(value: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(value ?? {}).filter(([, field]) => field !== undefined)) as Partial<T>
}

/**
 * Laying a provider's options over its defaults, the way Auth.js does: plain objects merge key
 * by key (so `authorization: { params: { scope } }` keeps the default URL), anything else, arrays
 * included, is replaced whole, and `undefined` options are skipped. Shared by the provider
 * factories and by the core, which applies the `options` an Auth.js-style custom provider returns.
 * @module
 */

/** `override` laid over `base`, into a new object; neither is changed. */
export function mergeOptions(base: object, override: object): Record<string, unknown> {
  const result: Record<string, unknown> = { ...base }
  // Symbol keys too: Auth.js's `[customFetch]` option is one.
  for (const key of Reflect.ownKeys(override) as (keyof typeof override & string)[]) {
    const value: unknown = (override as Record<string, unknown>)[key]
    if (value === undefined || key === "__proto__" || !Object.prototype.propertyIsEnumerable.call(override, key)) continue
    const current = result[key]
    result[key] = isPlainObject(current) && isPlainObject(value) ? mergeOptions(current, value) : value
  }
  return result
}

/** Whether `value` is an object literal (or has no prototype): what merges key by key. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false
  const prototype: unknown = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

/**
 * The one way the core calls an adapter: a missing adapter or method is reported by name, and
 * whatever the adapter throws arrives as an {@link AdapterError} with the original as its cause,
 * so a driver's message (which may name tables, hosts or values) is logged but never shown.
 * @module
 */
import type { Adapter } from "../adapters/index.js"
import { AdapterError, AuthError, MissingAdapter, MissingAdapterMethods } from "../errors.js"

type AdapterMethod = keyof Adapter
type MethodOf<M extends AdapterMethod> = Extract<NonNullable<Adapter[M]>, (...args: never[]) => unknown>

/**
 * Calls `adapter[method](...args)` with the adapter as `this` (class-based adapters need it).
 *
 * @example
 * ```ts
 * const found = await callAdapter(config.adapter, "getSessionAndUser", sessionToken)
 * ```
 */
export async function callAdapter<M extends AdapterMethod>(
  adapter: Adapter | undefined,
  method: M,
  ...args: Parameters<MethodOf<M>>
): Promise<Awaited<ReturnType<MethodOf<M>>>> {
  if (!adapter) throw new MissingAdapter(`This operation needs an adapter (it calls ${method}); set \`adapter\` in the configuration`)
  const fn: unknown = adapter[method]
  if (typeof fn !== "function") {
    throw new MissingAdapterMethods(`The adapter does not implement ${method}, which this operation needs`)
  }
  try {
    return (await fn.apply(adapter, args)) as Awaited<ReturnType<MethodOf<M>>>
  } catch (error) {
    // An AuthError thrown on purpose (say, from an overridden method) keeps its meaning.
    if (error instanceof AuthError) throw error
    throw new AdapterError(`Adapter method ${method} failed`, { cause: error })
  }
}

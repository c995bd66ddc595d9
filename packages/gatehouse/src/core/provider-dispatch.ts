/**
 * Running the handler for a provider's type, so the core branches on what a provider is and
 * never on which provider it is.
 * @module
 */
import type { ProviderConfig, ProviderOfType, ProviderType } from "../providers/types.js"

/** One handler per provider type, each typed for its own provider shape. */
export type ProviderHandlers<Context, Result> = {
  [T in ProviderType]: (ctx: Context, provider: ProviderOfType<T>) => Result
}

/** Calls the handler for `provider.type` with `provider`. */
export function dispatchByType<Context, Result>(
  handlers: ProviderHandlers<Context, Result>,
  ctx: Context,
  provider: ProviderConfig,
): Result {
  // The table is keyed by type, so the handler picked always receives its own provider shape.
  const handler = handlers[provider.type] as (ctx: Context, provider: ProviderConfig) => Result
  return handler(ctx, provider)
}

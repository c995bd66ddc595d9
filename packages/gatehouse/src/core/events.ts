/**
 * Delivering audit events. An event handler is the application's code running after the fact:
 * whatever it throws is logged as an {@link EventError} and never fails the request.
 * @module
 */
import { EventError } from "../errors.js"
import type { EventCallbacks } from "../types.js"
import type { ResolvedConfig } from "./config.js"
import { logError } from "./logger.js"

/** Calls the `name` event handler, if configured, with `message`. */
export async function emitEvent<Name extends keyof EventCallbacks>(
  config: ResolvedConfig,
  name: Name,
  message: Parameters<EventCallbacks[Name]>[0],
): Promise<void> {
  const handler = config.events[name] as ((message: unknown) => unknown) | undefined
  if (typeof handler !== "function") return
  try {
    await handler(message)
  } catch (error) {
    logError(config.logger, new EventError(`The ${name} event handler threw`, { cause: error }))
  }
}

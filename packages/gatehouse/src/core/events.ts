/**
 * Delivering audit events. An event handler is the application's code running after the fact:
 * whatever it throws is logged as an {@link EventError} and never fails the request.
 * @module
 */
import { EventError } from "../errors.js"
import type { EventCallbacks } from "../types.js"
import type { ResolvedConfig } from "./config.js"
import { logError } from "./logger.js"

/**
 * Calls the `name` event handler, if configured, with `message`. Without a handler nothing is
 * awaited at all: the `session` event is asked on every session read.
 */
export function emitEvent<Name extends keyof EventCallbacks>(
  config: ResolvedConfig,
  name: Name,
  message: Parameters<EventCallbacks[Name]>[0],
): Promise<void> | undefined {
  const handler = config.events[name] as ((message: unknown) => unknown) | undefined
  return typeof handler === "function" ? delivered(config, name, handler, message) : undefined
}

async function delivered(config: ResolvedConfig, name: string, handler: (message: unknown) => unknown, message: unknown): Promise<void> {
  try {
    await handler(message)
  } catch (error) {
    logError(config.logger, new EventError(`The ${name} event handler threw`, { cause: error }))
  }
}

/**
 * The logger an integration writes its own lines through, as the core writes its own.
 * @module
 */
import { createLogger, requestLogger } from "../core/logger.js"
import type { AuthConfig, LoggerInstance, LogRequest } from "../types.js"

/**
 * The logger for an integration's own lines (a throwing `authorized` callback, a request outside
 * the route's prefix): the app's levels where its `logger` has them, the built-in one-line console
 * levels elsewhere, and, given the request, the logger's view of that request (its id).
 *
 * @example
 * ```ts
 * import { appLogger } from "gatehouse-auth/framework"
 *
 * appLogger(config, request).error("authorized", error)
 * ```
 */
export function appLogger(config: Pick<AuthConfig, "debug" | "logger">, request?: LogRequest): LoggerInstance {
  const logger = createLogger(config)
  return request === undefined ? logger : requestLogger(logger, request)
}

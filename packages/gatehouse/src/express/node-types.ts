/**
 * The parts of Express's request and response the integration uses, as structural types, so
 * `gatehouse-auth/express` needs neither `express` nor `@types/express` to compile and works with
 * Express 4 and 5 alike.
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Session } from "../types.js"

/** An Express request (4 or 5): Node's request plus what Express's router and settings add. */
export interface ExpressRequest extends IncomingMessage {
  /** The path and query as received, whatever the mount point. */
  originalUrl: string
  /** The path the router or `app.use` matched before this middleware. */
  baseUrl: string
  /** `https` or `http`, from `X-Forwarded-Proto` only when the app trusts the proxy. */
  protocol: string
  /** Route parameters: a wildcard's capture is `0` in Express 4, a named array in Express 5. */
  params: Record<string, string | string[] | undefined>
  /** The client's address: the socket's, or from `X-Forwarded-For` when the app trusts the proxy. */
  ip?: string | undefined
  /** Set by a body parser that ran before the integration. */
  body?: unknown
  /** The app's settings; the integration reads `trust proxy fn`. */
  app: {
    /** The value of an app setting. */
    get(setting: string): unknown
  }
  /** Express's content negotiation. */
  accepts(types: string[]): string | false
}

/** An Express response: Node's response plus per-request `locals`. */
export interface ExpressResponse extends ServerResponse {
  /** Per-request values for later handlers; `authSession` and `requireAuth` put `session` here. */
  locals: Record<string, unknown>
}

/** Express's `next`: no argument continues, an error goes to the error handlers. */
export type NextFunction = (error?: unknown) => void

/** A middleware as the integration returns it. */
export type Middleware = (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => Promise<void>


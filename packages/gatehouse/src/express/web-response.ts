/**
 * A Web `Response` written to Node's response: status, every header (each `Set-Cookie` kept
 * apart, after any the app set already), and the body streamed as it comes.
 * @module
 */
import type { ServerResponse } from "node:http"
import { Readable } from "node:stream"
import { pipeline } from "node:stream/promises"
import type { ReadableStream as NodeReadableStream } from "node:stream/web"

export async function writeWebResponse(response: Response, res: ServerResponse): Promise<void> {
  res.statusCode = response.status
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie") res.setHeader(name, value)
  }
  appendSetCookies(response.headers.getSetCookie(), res)
  if (!response.body) {
    res.end()
    return
  }
  await pipeline(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), res)
}

/** Adds `Set-Cookie` headers to `res`, keeping those already there. */
export function appendSetCookies(cookies: string[], res: ServerResponse): void {
  if (cookies.length > 0) res.appendHeader("set-cookie", cookies)
}

/** A small JSON answer written directly. */
export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.statusCode = status
  res.setHeader("content-type", "application/json; charset=utf-8")
  res.end(JSON.stringify(value))
}

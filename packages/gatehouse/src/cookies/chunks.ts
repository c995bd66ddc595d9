/**
 * Session cookies longer than one cookie can hold are split into `name.0`, `name.1`, … chunks.
 * This module reassembles them.
 * @module
 */

/** Characters of value per chunk, as in Auth.js (4096 bytes less room for name and attributes). */
export const CHUNK_SIZE = 3936

/**
 * Whether `cookieName` is `name` itself or one of its chunks, `name.<digits>`.
 *
 * Auth.js takes any cookie whose name merely starts with `name`, which lets an unrelated
 * `name-foo` cookie corrupt the session.
 */
export function isChunkName(cookieName: string, name: string): boolean {
  return cookieName === name || (cookieName.startsWith(`${name}.`) && /^\d{1,4}$/.test(cookieName.slice(name.length + 1)))
}

/** The session value stored under `name`, either whole or in numbered chunks, or `undefined`. */
export function readChunkedCookie(cookies: ReadonlyMap<string, string>, name: string): string | undefined {
  const whole = cookies.get(name)
  const chunks: [number, string][] = []
  for (const [cookieName, value] of cookies) {
    if (!value || cookieName === name || !isChunkName(cookieName, name)) continue
    chunks.push([Number(cookieName.slice(name.length + 1)), value])
  }
  if (chunks.length === 0) return whole || undefined
  chunks.sort((a, b) => a[0] - b[0])
  return chunks.map(([, value]) => value).join("")
}

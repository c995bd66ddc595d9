/**
 * The whole audit log, a page at a time, for admins (`GET admin/audit`): newest first, filtered by
 * action, actor or organization, continued by an opaque cursor (the last entry's time and id).
 * @module
 */
import type { AuditCursor } from "../../adapters/index.js"
import { decodeBase64url, encodeBase64url } from "../../encoding/base64.js"
import { InvalidRequest } from "../../errors.js"
import type { AuditEvent } from "../../types.js"
import { callAdapter } from "../adapter-call.js"
import type { RequestContext } from "../request-context.js"
import { actingAdmin } from "./acting-admin.js"

/** A page of the audit log as the admin route answers it. */
export interface AdminAuditPage {
  /** The entries, newest first; dates as ISO strings. */
  entries: (Omit<AuditEvent, "createdAt"> & { createdAt: string })[]
  /** Pass as `before` for the next page; `null` on the last one. */
  next: string | null
}

const DEFAULT_LIMIT = 50
const MAX_LIMIT = 100
const MAX_FILTER = 255

/**
 * A page of the audit log for the request's admin, from `query` (`before`, `limit`, `action`,
 * `actorId`, `organizationId`: strings, as a URL carries them).
 * @throws {PermissionDenied} for a non-admin; {@link InvalidRequest} for a bad limit, filter or cursor.
 */
export async function auditPage(ctx: RequestContext, query: Readonly<Record<string, string>>): Promise<AdminAuditPage> {
  await actingAdmin(ctx)
  const limit = query.limit === undefined || query.limit === "" ? DEFAULT_LIMIT : /^\d{1,3}$/.test(query.limit) ? Number(query.limit) : NaN
  if (!(limit >= 1 && limit <= MAX_LIMIT)) throw new InvalidRequest(`limit must be a whole number from 1 to ${MAX_LIMIT}`)
  const filters: { action?: string; actorId?: string; organizationId?: string } = {}
  for (const name of ["action", "actorId", "organizationId"] as const) {
    const value = query[name]
    if (value === undefined || value === "") continue
    if (value.length > MAX_FILTER) throw new InvalidRequest(`${name} is too long`)
    filters[name] = value
  }
  const before = query.before ? readCursor(query.before) : undefined
  const found = await callAdapter(ctx.config.adapter, "listAuditEntries", { ...filters, ...(before && { before }), limit: limit + 1 })
  const entries = found.slice(0, limit)
  const last = entries[entries.length - 1]
  return {
    entries: entries.map((entry) => ({ ...entry, action: entry.action as AuditEvent["action"], createdAt: new Date(entry.createdAt).toISOString() })),
    next: found.length > limit && last ? writeCursor({ createdAt: new Date(last.createdAt), id: last.id }) : null,
  }
}

function writeCursor(cursor: AuditCursor): string {
  return encodeBase64url(new TextEncoder().encode(JSON.stringify([cursor.createdAt.getTime(), cursor.id])))
}

function readCursor(text: string): AuditCursor {
  const bytes = text.length <= 1024 ? decodeBase64url(text) : undefined
  try {
    const [time, id] = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)) as unknown[]
    if (bytes && typeof time === "number" && Number.isSafeInteger(time) && typeof id === "string" && id !== "") return { createdAt: new Date(time), id }
  } catch {
    // Falls through to the refusal: a cursor this route did not write.
  }
  throw new InvalidRequest("before is not a cursor of this log")
}

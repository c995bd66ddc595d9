/**
 * The audit log: one row per organization or admin action, with who did it, to what, from where,
 * and the `audit` event for each. Written after the action succeeded; a log that cannot be
 * written fails the call (an admin action nobody can trace is worse than one that did not happen),
 * but the action itself is not undone.
 * @module
 */
import type { JsonValue } from "../adapters/index.js"
import type { AuditAction, AuditEvent } from "../types.js"
import { callAdapter } from "./adapter-call.js"
import { emitEvent } from "./events.js"
import type { RequestContext } from "./request-context.js"
import { clientIp } from "./throttle.js"

/** What an action records besides its actor and the request. */
export interface AuditRecord {
  action: AuditAction
  organizationId?: string | null
  targetType?: "user" | "member" | "invitation" | "organization" | "session"
  targetId?: string | null
  details?: JsonValue
}

/** A user agent longer than this is cut: the column is for reading, not for replaying. */
const MAX_USER_AGENT = 512

/**
 * Appends `record` as done by `actorId` (`null`: the system) for the request of `ctx`, and fires
 * `events.audit` with the stored row.
 *
 * @throws {AdapterError | MissingAdapterMethods} when the row cannot be written.
 */
export async function recordAudit(ctx: RequestContext, actorId: string | null, record: AuditRecord): Promise<AuditEvent> {
  const userAgent = ctx.request.headers.get("user-agent")
  const stored = await callAdapter(ctx.config.adapter, "appendAuditEntry", {
    actorId,
    action: record.action,
    organizationId: record.organizationId ?? null,
    targetType: record.targetType ?? null,
    targetId: record.targetId ?? null,
    ip: clientIp(ctx, undefined) ?? null,
    userAgent: userAgent ? userAgent.slice(0, MAX_USER_AGENT) : null,
    details: record.details ?? null,
  })
  const entry = { ...stored, action: stored.action as AuditAction }
  await emitEvent(ctx.config, "audit", entry)
  return entry
}

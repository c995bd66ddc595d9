/**
 * What the three stores share about a session's context (Gatehouse's own, beside the session
 * row): the fields a patch may name and their check, so memory and SQL refuse the same bad input.
 * @module
 */
import type { AdapterSessionContext } from "./index.js"

/** The fields of a session context, in the order the SQL tables keep them. */
export const SESSION_CONTEXT_FIELDS = ["activeOrganizationId", "impersonatorId", "signInProvider"] as const satisfies readonly (keyof AdapterSessionContext)[]

/** A context with nothing set: what a session without a stored context reads as. */
export const EMPTY_SESSION_CONTEXT: Readonly<AdapterSessionContext> = Object.freeze({ activeOrganizationId: null, impersonatorId: null, signInProvider: null })

/**
 * The fields `patch` sets (`undefined` ones left out), each a non-empty string or `null`.
 *
 * @throws {TypeError} naming the adapter and the field for any other value.
 */
export function checkSessionContextPatch(patch: Partial<AdapterSessionContext>, adapter: string): Partial<AdapterSessionContext> {
  if (patch === null || typeof patch !== "object") throw new TypeError(`${adapter}: a session context patch must be an object`)
  const checked: Partial<AdapterSessionContext> = {}
  for (const field of SESSION_CONTEXT_FIELDS) {
    const value: unknown = patch[field]
    if (value === undefined) continue
    if (value !== null && (typeof value !== "string" || value === "")) {
      throw new TypeError(`${adapter}: session context ${field} must be a non-empty string or null`)
    }
    checked[field] = value
  }
  return checked
}

/** The context of a joined row's columns (`ctx_org`, `ctx_imp`, `ctx_prv`), `null` when the row had none (`ctx_found` false). */
export function sessionContextFromRow(row: Record<string, unknown>): AdapterSessionContext | null {
  if (!row.ctx_found) return null
  const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value))
  return { activeOrganizationId: text(row.ctx_org), impersonatorId: text(row.ctx_imp), signInProvider: text(row.ctx_prv) }
}

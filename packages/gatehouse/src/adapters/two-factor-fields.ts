/**
 * Checks and conversions of the two-factor values Gatehouse's own adapters store: the same bad
 * input is refused the same way by the memory, SQLite and PostgreSQL adapters, before any write.
 * @module
 */
import type { AdapterSessionAuthentication, AdapterSessionDetails, AdapterTwoFactor } from "./index.js"

/** RFC 8176 values are registered tokens; a space would break the space-joined column. */
const AMR_VALUE = /^[\x21-\x7e]{1,64}$/

/**
 * A TOTP time step as an adapter takes it: a non-negative safe integer. Anything else could
 * compare wrongly (NaN, a string) and let a used code through.
 */
export function checkTotpStep(step: unknown, adapter: string): number {
  if (typeof step !== "number" || !Number.isSafeInteger(step) || step < 0) {
    throw new RangeError(`${adapter}: a TOTP step must be a non-negative integer, got ${String(step)}`)
  }
  return step
}

/** A non-empty string argument (a sealed secret, a code hash). */
export function checkText(value: unknown, field: string, adapter: string): string {
  if (typeof value !== "string" || value === "") throw new TypeError(`${adapter}: ${field} must be a non-empty string`)
  return value
}

/** A list of recovery-code hashes, each a non-empty string, without repeats. */
export function checkHashes(hashes: unknown, adapter: string): string[] {
  if (!Array.isArray(hashes)) throw new TypeError(`${adapter}: recovery code hashes must be an array`)
  for (const hash of hashes) checkText(hash, "a recovery code hash", adapter)
  const unique = [...new Set(hashes as string[])]
  if (unique.length !== hashes.length) throw new TypeError(`${adapter}: recovery code hashes must not repeat`)
  return unique
}

/**
 * How a session was authenticated, checked: `aal` 1, 2 or null, `amr` tokens or null,
 * `secondFactorAt` a valid Date or null. `undefined` fields (a caller that records none) are null.
 */
export function checkAuthentication(
  value: Partial<AdapterSessionAuthentication> | Pick<AdapterSessionDetails, "aal" | "amr" | "secondFactorAt">,
  adapter: string,
): AdapterSessionAuthentication {
  const aal = value.aal ?? null
  if (aal !== null && aal !== 1 && aal !== 2) throw new RangeError(`${adapter}: aal must be 1, 2 or null, got ${String(aal)}`)
  const amr = value.amr ?? null
  if (amr !== null && (!Array.isArray(amr) || !amr.every((entry) => typeof entry === "string" && AMR_VALUE.test(entry)))) {
    throw new TypeError(`${adapter}: amr must be null or an array of tokens without spaces`)
  }
  const at = value.secondFactorAt ?? null
  if (at !== null && (Object.prototype.toString.call(at) !== "[object Date]" || Number.isNaN(at.getTime()))) {
    throw new TypeError(`${adapter}: secondFactorAt must be a valid Date or null`)
  }
  return { aal, amr: amr === null ? null : [...amr], secondFactorAt: at === null ? null : new Date(at.getTime()) }
}

/** Whether the details carry anything about authentication (else no row is written for it). */
export function recordsAuthentication(details: Pick<AdapterSessionDetails, "aal" | "amr" | "secondFactorAt">): boolean {
  return (details.aal ?? null) !== null || (details.amr ?? null) !== null || (details.secondFactorAt ?? null) !== null
}

/** `amr` as its text column holds it: space-joined (`""` for `[]`), `null` for `null`. */
export function amrText(amr: string[] | null): string | null {
  return amr === null ? null : amr.join(" ")
}

/** The column read back: `null`, or the space-joined values split again (`""` is `[]`). */
export function amrFromText(value: unknown): string[] | null {
  if (value === null || value === undefined) return null
  const text = String(value)
  return text === "" ? [] : text.split(" ")
}

/** An `aal` column read back (drivers may give a string or a bigint); anything but 1 or 2 is "not recorded". */
export function aalFromColumn(value: unknown): 1 | 2 | null {
  const aal = value === null || value === undefined ? null : Number(value)
  return aal === 1 || aal === 2 ? aal : null
}

/** A row's column as the SQL adapters read it: SQL NULL (or a column the row lacks) is `null`. */
type Column = unknown

/**
 * A `two_factor` row joined with its recovery-code count, as both SQL adapters read it;
 * `toDate` is the adapter's own reading of its timestamp columns. BIGINT and count(*) may arrive
 * as text (pg), so numbers are read with `Number`.
 */
export function twoFactorFromRow(row: Record<string, Column>, toDate: (value: unknown) => Date): AdapterTwoFactor {
  const text = (value: Column): string | null => (value === null || value === undefined ? null : String(value))
  return {
    userId: String(row.userId),
    totpSecret: text(row.totp_secret),
    totpPendingSecret: text(row.totp_pending_secret),
    totpLastStep: row.totp_last_step === null || row.totp_last_step === undefined ? null : Number(row.totp_last_step),
    enabledAt: row.enabled_at === null || row.enabled_at === undefined ? null : toDate(row.enabled_at),
    trustVersion: Number(row.trust_version),
    recoveryCodesLeft: Number(row.codes_left ?? 0),
  }
}

/**
 * The session_authentication columns of a joined row, as both SQL adapters read them; `null` when
 * the session has no such row (`authenticated`, the join's marker, is NULL or false).
 */
export function authenticationFromRow(row: Record<string, Column>, toDate: (value: unknown) => Date): AdapterSessionAuthentication | null {
  if (row.authenticated === null || row.authenticated === undefined || row.authenticated === false) return null
  return {
    aal: aalFromColumn(row.aal),
    amr: amrFromText(row.amr),
    secondFactorAt: row.second_factor_at === null || row.second_factor_at === undefined ? null : toDate(row.second_factor_at),
  }
}

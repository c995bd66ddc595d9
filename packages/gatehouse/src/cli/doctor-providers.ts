/**
 * The doctor's provider check: which `AUTH_<PROVIDER>_ID` / `_SECRET` / `_ISSUER` / `_KEY`
 * variables are set (read through the library's `providerEnv`, so an empty one counts as unset as
 * it does for the app), and an id without its secret or the reverse. Never prints a value.
 * @module
 */
import { providerEnv } from "../core/env-defaults.js"
import { named, type DoctorEnv, type Finding } from "./doctor-findings.js"

const CHECK = "providers"

/**
 * A provider variable: `AUTH_<NAME>_<FIELD>`. The name is greedy, so `AUTH_MICROSOFT_ENTRA_ID_ID`
 * is the id of `MICROSOFT_ENTRA_ID`. `AUTH_SECRET`, `AUTH_URL`, `AUTH_TRUST_HOST` and the rotation
 * secrets do not end in a field and so are not taken for providers.
 */
const PROVIDER_VARIABLE = /^AUTH_([A-Z0-9_]+)_(ID|SECRET|ISSUER|KEY)$/

/** The findings about providers' credentials in the environment. */
export function checkProviders(env: DoctorEnv): Finding[] {
  const names = new Set<string>()
  for (const variable of Object.keys(env.env)) {
    const match = PROVIDER_VARIABLE.exec(variable)
    if (match) names.add(match[1]!)
  }
  const findings: Finding[] = []
  for (const name of [...names].sort()) {
    // providerEnv spells the id back the way the library does (`microsoft_entra_id` → MICROSOFT_ENTRA_ID).
    const found = providerEnv(env.env, name.toLowerCase())
    const variable = (field: string) => `AUTH_${name}_${field}`
    const set = [
      found.clientId !== undefined && "ID",
      found.clientSecret !== undefined && "SECRET",
      found.issuer !== undefined && "ISSUER",
      found.apiKey !== undefined && "KEY",
    ].filter((field): field is string => field !== false)
    if (set.length === 0) continue
    const provider = name.toLowerCase()
    if (found.clientId !== undefined && found.clientSecret === undefined) {
      findings.push({ check: CHECK, level: "warn", message: `${provider}: ${named(env, variable("ID"))} is set without ${variable("SECRET")}` })
    } else if (found.clientSecret !== undefined && found.clientId === undefined) {
      findings.push({ check: CHECK, level: "warn", message: `${provider}: ${named(env, variable("SECRET"))} is set without ${variable("ID")}` })
    } else if (found.issuer !== undefined && !isHttpUrl(found.issuer)) {
      findings.push({ check: CHECK, level: "warn", message: `${provider}: ${named(env, variable("ISSUER"))} is not an http(s) URL` })
    } else {
      findings.push({ check: CHECK, level: "ok", message: `${provider}: ${set.map((field) => named(env, variable(field))).join(", ")}` })
    }
  }
  if (findings.length === 0) {
    findings.push({ check: CHECK, level: "ok", message: "no AUTH_<PROVIDER>_ID/_SECRET/_ISSUER/_KEY variables set (providers given their credentials in code need none)" })
  }
  return findings
}

function isHttpUrl(value: string): boolean {
  try {
    return /^https?:$/.test(new URL(value).protocol)
  } catch {
    return false
  }
}

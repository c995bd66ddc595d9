/**
 * The doctor's secret check: which variables hold the secrets the library will use (through the
 * library's own `envSecrets`), whether each is long enough (the core's `secret-too-short` rule),
 * and the rotation order. Never prints a value.
 * @module
 */
import { isSecretTooShort } from "../core/assert-config.js"
import { envSecrets, ROTATION_SECRET_VARIABLES, SECRET_VARIABLES } from "../core/env-defaults.js"
import { WARNING_MESSAGES } from "../core/logger.js"
import { isSet, named, type DoctorEnv, type Finding } from "./doctor-findings.js"

const CHECK = "secret"

/** Rotation numbers the library does not read: a secret put there is silently ignored. */
const UNREAD_ROTATION = /^AUTH_SECRET_(?:0|[4-9]|[1-9]\d+)$/

/** The findings about the secret. */
export function checkSecret(env: DoctorEnv): Finding[] {
  const findings: Finding[] = []
  // The variables the library reads, in its order (newest first): the rotation ones that are set,
  // then the first base name that is set. envSecrets gives the values in the same order.
  const rotation = ROTATION_SECRET_VARIABLES.filter((name) => isSet(env, name))
  const base = SECRET_VARIABLES.find((name) => isSet(env, name))
  const used = base === undefined ? rotation : [...rotation, base]
  const secrets = envSecrets(env.env)
  if (secrets.length !== used.length) throw new Error("doctor: the secret variables disagree with envSecrets")

  if (used.length === 0) {
    findings.push({
      check: CHECK,
      level: "error",
      message: `no secret: none of ${[...SECRET_VARIABLES, ...ROTATION_SECRET_VARIABLES].join(", ")} is set, so every auth request fails (MissingSecret) unless the config passes \`secret\`; run \`npx gatehouse-auth secret\``,
    })
  } else {
    const [first, ...rest] = used
    const older = rest.length === 0 ? "" : `; ${rest.map((name) => named(env, name)).join(", ")} still ${rest.length === 1 ? "decrypts" : "decrypt"} older tokens (rotation)`
    findings.push({ check: CHECK, level: "ok", message: `${named(env, first!)} encrypts${older}` })
  }
  for (const [i, name] of used.entries()) {
    if (isSecretTooShort(secrets[i]!)) findings.push({ check: CHECK, level: "warn", message: `${named(env, name)}: ${WARNING_MESSAGES["secret-too-short"]}` })
    else if (secrets.indexOf(secrets[i]!) !== i) findings.push({ check: CHECK, level: "warn", message: `${named(env, name)} repeats an earlier secret of the list; it adds nothing to the rotation` })
  }
  for (const name of SECRET_VARIABLES.filter((name) => name !== base && isSet(env, name))) {
    findings.push({ check: CHECK, level: "warn", message: `${named(env, name)} is ignored: ${base} is used; remove one of them` })
  }
  for (const name of Object.keys(env.env).filter((name) => UNREAD_ROTATION.test(name) && isSet(env, name)).sort()) {
    findings.push({ check: CHECK, level: "warn", message: `${named(env, name)} is not read: rotation takes AUTH_SECRET_1 to AUTH_SECRET_3` })
  }
  return findings
}

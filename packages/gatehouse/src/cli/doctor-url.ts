/**
 * The doctor's URL check: the public URL (`AUTH_URL` or an older name), whether the Host header is
 * trusted, the base path and the cookie prefixes that follow, each decided by the library's own
 * functions (`envDefaults`, `envTrustHost`, `createActionURL`, `defaultCookies`), not re-derived.
 * @module
 */
import { defaultCookies } from "../cookies/defaults.js"
import { envDefaults, URL_VARIABLES } from "../core/env-defaults.js"
import { WARNING_MESSAGES } from "../core/logger.js"
import { createActionURL } from "../env.js"
import { isSet, named, type DoctorEnv, type Finding } from "./doctor-findings.js"

const CHECK = "url"

/** Host names a development machine answers on, where plain http is expected. */
const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/

/** The findings about the public URL, the trusted host, the base path and the cookies. */
export function checkUrl(env: DoctorEnv): Finding[] {
  const findings: Finding[] = []
  const production = env.env.NODE_ENV === "production"
  // What the app gets from the environment when its config sets none of these (`{}`).
  const defaults = envDefaults(env.env, { providers: [] })
  const urlName = URL_VARIABLES.find((name) => isSet(env, name))
  for (const name of URL_VARIABLES.filter((name) => name !== urlName && isSet(env, name))) {
    findings.push({ check: CHECK, level: "warn", message: `${named(env, name)} is ignored: ${urlName} is used; remove one of them` })
  }

  const trust = trustReason(env, urlName, defaults.trustHost)
  if (defaults.trustHost) findings.push({ check: CHECK, level: "ok", message: `the Host header is trusted (${trust})` })
  else {
    // Unless the config says otherwise in code, which the doctor cannot see: hence a warning.
    const remedy = isSet(env, "AUTH_TRUST_HOST") ? "set AUTH_TRUST_HOST=true, or remove it and set AUTH_URL" : "set AUTH_URL to the public URL"
    findings.push({
      check: CHECK,
      level: "warn",
      message: `the Host header is not trusted (${trust}): unless the config sets \`trustHost: true\`, auth routes answer UntrustedHost; ${remedy}`,
    })
  }
  if (defaults.warnings.includes("trust-host-without-url")) {
    findings.push({ check: CHECK, level: "warn", message: `trust-host-without-url: ${WARNING_MESSAGES["trust-host-without-url"]}` })
  }

  if (urlName === undefined) {
    findings.push({
      check: CHECK,
      level: "ok",
      message: `no AUTH_URL: each request's own host and protocol make the URLs; base path ${defaults.basePath} unless the config sets \`basePath\` (Next.js, SolidStart and TanStack Start default to /api/auth)`,
    })
    const http = defaultCookies(false)
    const https = defaultCookies(true)
    findings.push({
      check: CHECK,
      level: "ok",
      message: `cookie names follow each request's protocol: ${https.sessionToken.name} and ${https.csrfToken.name} on https, ${http.sessionToken.name} and ${http.csrfToken.name} on http (unless the config sets \`useSecureCookies\`)`,
    })
    return findings
  }

  let signIn: URL
  try {
    // The URL the library would build for the sign-in page: it refuses an AUTH_URL no request could use.
    signIn = createActionURL("signin", undefined, new Headers(), env.env, defaults.basePath)
  } catch (error) {
    // The library's message names the variable and the rule, never the value (which may hold credentials).
    const reason = error instanceof Error ? error.message.replace(/^Cannot build an auth URL: /, "") : String(error)
    findings.push({ check: CHECK, level: "error", message: `${named(env, urlName)} is not usable: ${reason}` })
    return findings
  }
  const base = signIn.href.slice(0, -"/signin".length)
  findings.push({ check: CHECK, level: "ok", message: `${named(env, urlName)}: auth routes at ${base}/… (base path ${defaults.basePath}, unless the config sets \`basePath\`)` })

  const secure = signIn.protocol === "https:"
  const cookies = defaultCookies(secure)
  if (secure) {
    findings.push({ check: CHECK, level: "ok", message: `cookies are Secure and prefixed: ${cookies.sessionToken.name}, ${cookies.csrfToken.name}` })
  } else {
    const loopback = LOOPBACK.test(signIn.hostname)
    findings.push({
      check: CHECK,
      level: production && !loopback ? "warn" : "ok",
      message: `${urlName} is http: cookies are neither Secure nor prefixed (${cookies.sessionToken.name}, ${cookies.csrfToken.name})${production && !loopback ? "; in production, serve and set an https URL" : ""}`,
    })
  }
  return findings
}

/** Why the Host header is or is not trusted, in the terms of `envTrustHost`'s rule. */
function trustReason(env: DoctorEnv, urlName: string | undefined, trusted: boolean): string {
  if (isSet(env, "AUTH_TRUST_HOST")) return `${named(env, "AUTH_TRUST_HOST")} is "${env.env.AUTH_TRUST_HOST}"`
  if (urlName !== undefined) return `${urlName} is set`
  // On a platform that sets Host itself; not named when it did not count (VERCEL=0).
  const platform = ["VERCEL", "CF_PAGES"].find((name) => isSet(env, name))
  if (platform !== undefined && trusted && env.env.NODE_ENV === "production") return `AUTH_TRUST_HOST is unset, ${platform} is set`
  return `AUTH_TRUST_HOST is unset, NODE_ENV is ${env.env.NODE_ENV === undefined ? "unset" : `"${env.env.NODE_ENV}"`}`
}

/**
 * The variables the app reads, declared as Kit 3 asks: only these reach `$app/env/private`, from
 * `.env` under `vite dev` and `vite preview` and from the process's environment under `node build`.
 * Gatehouse reads AUTH_SECRET and AUTH_TRUST_HOST from there too (declared so `.env` can hold
 * them); what is not declared, as AUTH_URL here, it reads from the process's environment.
 */
import { defineEnvVars } from "@sveltejs/kit/env"

/** Set or not: a missing value is the app's (or Gatehouse's) to report, at the first request. */
const optional = { schema: (value: string | undefined) => value }

export const variables = defineEnvVars({
  AUTH_SECRET: optional,
  AUTH_TRUST_HOST: optional,
  SESSION_STRATEGY: optional,
  DATABASE_PATH: optional,
  OIDC_ISSUER: optional,
  OIDC_CLIENT_ID: optional,
  OIDC_CLIENT_SECRET: optional,
  SMTP_URL: optional,
})

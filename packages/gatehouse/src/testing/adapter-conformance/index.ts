/**
 * Every conformance test, grouped by resource in the order of the adapter contract.
 * @module
 */
import { accountCases } from "./accounts.js"
import { adminCases } from "./admin.js"
import { authenticatorCases } from "./authenticators.js"
import type { ConformanceCase } from "./case.js"
import { organizationCases } from "./organizations.js"
import { rateLimitCases } from "./rate-limits.js"
import { revocationCases } from "./revocation.js"
import { sessionCases } from "./sessions.js"
import { sessionAuthenticationCases } from "./session-authentication.js"
import { sessionContextCases } from "./session-context.js"
import { sessionDetailCases } from "./session-details.js"
import { twoFactorCases } from "./two-factor.js"
import { userCases } from "./users.js"
import { verificationTokenCases } from "./verification-tokens.js"

export const conformanceCases: readonly ConformanceCase[] = [
  ...userCases,
  ...accountCases,
  ...sessionCases,
  ...sessionDetailCases,
  ...revocationCases,
  ...verificationTokenCases,
  ...rateLimitCases,
  ...authenticatorCases,
  ...sessionAuthenticationCases,
  ...twoFactorCases,
  ...organizationCases,
  // The session context beside a database session.
  ...sessionContextCases,
  ...adminCases,
]

/**
 * The account routes' answers are declared twice on purpose: by the core, which serves them, and
 * by the browser client, which imports nothing (so it bundles to itself alone). Checked by
 * `npm run check` (tsc over the tests): a field added, removed or retyped on one side only is a
 * compile error here. Nothing runs.
 */
import { expectTypeOf } from "vitest"
import type { AccountListing, SessionListing } from "../../src/client/account.js"
import type { ActiveSession } from "../../src/core/account/active-sessions.js"
import type { LinkedAccount } from "../../src/core/account/linked-accounts.js"

expectTypeOf<SessionListing>().toEqualTypeOf<ActiveSession>()
expectTypeOf<AccountListing>().toEqualTypeOf<LinkedAccount>()

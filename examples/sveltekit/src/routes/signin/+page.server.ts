import { signIn } from "#lib/server/auth.ts"
import type { PageServerLoad } from "./$types"

// The app's sign-in page (`pages.signIn`): Gatehouse sends people here with `callbackUrl`, and
// back here with `error` (and `code`) when a sign-in fails.
export const load: PageServerLoad = ({ url }) => ({
  callbackUrl: url.searchParams.get("callbackUrl") ?? "/",
  error: url.searchParams.get("error"),
  code: url.searchParams.get("code"),
})

export const actions = { default: signIn }

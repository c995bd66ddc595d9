import type { LayoutServerLoad } from "./$types"

// Every page gets the session in its data (read once per request, however many loads ask).
// Only to show it: a layout does not guard the pages under it.
export const load: LayoutServerLoad = async ({ locals }) => ({ session: await locals.auth() })

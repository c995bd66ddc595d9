import { signOut } from "#lib/server/auth.ts"

// Where SignOut posts (`signOutPage`, default /signout). A GET shows nothing to do here.
export const actions = { default: signOut }

// src/lib/session.ts
import { createServerFn } from "@tanstack/react-start"
import { getSession } from "~/lib/auth"
import { authMiddleware } from "~/lib/auth-middleware"

// For loaders and beforeLoad: the signed-in user's name and email, or null.
export const getUser = createServerFn().handler(async () => {
  const user = (await getSession())?.user
  return user ? { name: user.name ?? null, email: user.email ?? null } : null
})

// Only for signed-in users, however it is called.
export const getSecret = createServerFn({ method: "POST" })
  .middleware([authMiddleware])
  .handler(({ context }) => `The secret of ${context.session.user.email}`)

// src/lib/auth-middleware.ts
import { createMiddleware } from "@tanstack/react-start"
import { requireSession } from "~/lib/auth"

// Guards every server function that lists it: signed out, the call is answered 401.
export const authMiddleware = createMiddleware({ type: "function" }).server(async ({ next }) =>
  next({ context: { session: await requireSession() } }),
)

// What `authSession` and `requireAuth` put on `res.locals`, typed for the pages below them
// (`gatehouse-auth/express` leaves Express's own types alone, as @auth/express does).
import type { Session } from "gatehouse-auth/express"

declare global {
  namespace Express {
    interface Locals {
      /** The session, or `null` when signed out. */
      session?: Session | null
    }
  }
}

export {}

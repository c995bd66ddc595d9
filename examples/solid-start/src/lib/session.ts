import { query } from "@solidjs/router"
import { readProtectedUser, readSession } from "./session-server"

/** The session, cached per navigation (components calling it share one read). */
export const getSessionQuery = query(readSession, "session")

/** The signed-in user; redirects to `/` when there is none. */
export const getProtectedUser = query(readProtectedUser, "protected-user")

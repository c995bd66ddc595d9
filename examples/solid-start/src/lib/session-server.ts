"use server"
/**
 * Server functions reading the session of the request they run in: in the page's server render,
 * or as a call from the browser on client-side navigation. Authorization is decided here, in
 * each function, since the middleware does not see client-side navigations.
 */
import { redirect } from "@solidjs/router"
import { getSession } from "gatehouse-auth/solid-start"
import { getRequestEvent } from "solid-js/web"
import { authConfig } from "./auth"

/** The session, or `null`. Given the event, refreshed session cookies go out with its response. */
export async function readSession() {
  return getSession(getRequestEvent()!, authConfig)
}

/** The signed-in user, or a redirect to the home page. */
export async function readProtectedUser() {
  const session = await getSession(getRequestEvent()!, authConfig)
  if (!session?.user) throw redirect("/")
  return session.user
}

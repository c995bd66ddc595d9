import { createFileRoute, redirect } from "@tanstack/react-router"
import { getUser } from "~/lib/session"

// beforeLoad guards navigation to this page only; the data behind it is guarded by its server functions.
export const Route = createFileRoute("/account")({
  beforeLoad: async () => {
    const user = await getUser()
    if (!user) throw redirect({ to: "/signin", search: { callbackUrl: "/account" } })
    return { user }
  },
  component: Account,
})

function Account() {
  const { user } = Route.useRouteContext()
  return <p id="account">Account of {user.email}.</p>
}

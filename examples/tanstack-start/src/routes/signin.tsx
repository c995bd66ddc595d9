import { createFileRoute } from "@tanstack/react-router"
import { signIn } from "gatehouse-auth/react"
import type { FormEvent } from "react"

export const Route = createFileRoute("/signin")({
  validateSearch: (search: Record<string, unknown>): { error?: string; callbackUrl?: string } => ({
    error: typeof search.error === "string" ? search.error : undefined,
    callbackUrl: typeof search.callbackUrl === "string" ? search.callbackUrl : undefined,
  }),
  component: SignIn,
})

function SignIn() {
  const { error, callbackUrl } = Route.useSearch()
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    void signIn("credentials", { email: String(form.get("email")), password: String(form.get("password")), redirectTo: callbackUrl ?? "/" })
  }
  return (
    <form onSubmit={submit}>
      {error && <p id="error">Sign-in failed ({error})</p>}
      <input id="email" name="email" type="email" />
      <input id="password" name="password" type="password" />
      <button type="submit">Sign in with password</button>
    </form>
  )
}

import { useSearchParams } from "@solidjs/router"
import { signIn } from "gatehouse-auth/solid-start/client"
import { signIn as passkeySignIn } from "gatehouse-auth/webauthn"
import { createSignal, Show } from "solid-js"

/**
 * The app's own sign-in page (`pages.signIn`). Each form signs in through the browser client at
 * the prefix: it fetches a CSRF token, posts, and navigates where the server says (an error comes
 * back here as ?error=…). Passkeys run their ceremony in the browser.
 */
export default function SignIn() {
  const [params] = useSearchParams()
  const callbackUrl = () => (typeof params.callbackUrl === "string" ? params.callbackUrl : "/")
  const [problem, setProblem] = createSignal("")
  const field = (form: HTMLFormElement, name: string) => String(new FormData(form).get(name) ?? "")
  const run = (attempt: Promise<unknown>) => attempt.catch((error: Error) => setProblem(error.message))

  return (
    <main>
      <h1>Sign in</h1>
      <Show when={params.error}>
        <p id="error">Sign-in failed ({params.error}).</p>
      </Show>
      <form
        onSubmit={(event) => {
          event.preventDefault()
          const form = event.currentTarget
          run(signIn("credentials", { email: field(form, "email"), password: field(form, "password"), redirectTo: callbackUrl() }))
        }}
      >
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username" />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" />
        <button type="submit">Sign in with password</button>
      </form>
      <button type="button" onClick={() => run(signIn("local-oidc", { redirectTo: callbackUrl() }))}>
        Sign in with Local OpenID
      </button>
      <form
        onSubmit={(event) => {
          event.preventDefault()
          run(signIn("nodemailer", { email: field(event.currentTarget, "email"), redirectTo: callbackUrl() }))
        }}
      >
        <label for="link-email">Email for a sign-in link</label>
        <input id="link-email" name="email" type="email" />
        <button type="submit">Email me a link</button>
      </form>
      <section>
        <button type="button" onClick={() => run(passkeySignIn("passkey", { redirectTo: callbackUrl() }))}>
          Sign in with a passkey
        </button>
        <label for="passkey-label">Name for a new passkey</label>
        <input id="passkey-label" />
        <button
          type="button"
          onClick={() => {
            const name = (document.getElementById("passkey-label") as HTMLInputElement).value
            run(passkeySignIn("passkey", { action: "register", name, redirectTo: callbackUrl() }))
          }}
        >
          Create a passkey
        </button>
      </section>
      <Show when={problem()}>
        <p id="problem">{problem()}</p>
      </Show>
    </main>
  )
}

import { redirect } from "next/navigation"
import { CredentialsSignin } from "gatehouse-auth"
import { signIn } from "@/auth"
import { PasskeyButtons } from "./passkey-buttons"

/**
 * The app's own sign-in page (`pages.signIn`), built from server actions. `signIn` redirects by
 * throwing Next's redirect, so a `try` around it must rethrow everything it does not handle.
 */
export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string; error?: string }> }) {
  const { callbackUrl = "/", error } = await searchParams

  async function withPassword(form: FormData) {
    "use server"
    try {
      await signIn("credentials", form)
    } catch (failure) {
      if (failure instanceof CredentialsSignin) redirect(`/signin?error=CredentialsSignin&callbackUrl=${encodeURIComponent(String(form.get("redirectTo") ?? "/"))}`)
      throw failure
    }
  }

  async function withOpenId(form: FormData) {
    "use server"
    await signIn("local-oidc", { redirectTo: String(form.get("redirectTo") ?? "/") })
  }

  async function withEmail(form: FormData) {
    "use server"
    await signIn("nodemailer", form)
  }

  return (
    <main>
      <h1>Sign in</h1>
      {error ? <p id="error">Sign-in failed ({error}).</p> : null}
      <form action={withPassword}>
        <input type="hidden" name="redirectTo" value={callbackUrl} />
        <label htmlFor="email">Email</label>
        <input id="email" name="email" type="email" autoComplete="username" />
        <label htmlFor="password">Password</label>
        <input id="password" name="password" type="password" autoComplete="current-password" />
        <button type="submit">Sign in with password</button>
      </form>
      <form action={withOpenId}>
        <input type="hidden" name="redirectTo" value={callbackUrl} />
        <button type="submit">Sign in with Local OpenID</button>
      </form>
      <form action={withEmail}>
        <input type="hidden" name="redirectTo" value={callbackUrl} />
        <label htmlFor="link-email">Email for a sign-in link</label>
        <input id="link-email" name="email" type="email" />
        <button type="submit">Email me a link</button>
      </form>
      <PasskeyButtons callbackUrl={callbackUrl} />
    </main>
  )
}

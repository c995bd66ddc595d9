import { redirect } from "next/navigation"
import { CredentialsSignin } from "gatehouse-auth"
import { auth, signIn, signOut } from "../auth.js"

export default async function Home({ searchParams }) {
  const { error } = await searchParams
  const session = await auth()
  if (session?.user) {
    return (
      <main>
        <p id="status">Signed in as {session.user.name}</p>
        <form
          action={async () => {
            "use server"
            await signOut({ redirectTo: "/" })
          }}
        >
          <button type="submit">Sign out</button>
        </form>
      </main>
    )
  }
  return (
    <main>
      <p id="status">Signed out</p>
      {error ? <p id="error">Sign-in failed ({error}).</p> : null}
      <form
        action={async (formData) => {
          "use server"
          try {
            await signIn("credentials", { email: formData.get("email"), password: formData.get("password"), redirectTo: "/protected" })
          } catch (failure) {
            // signIn redirects by throwing Next's redirect: rethrow all but the refusal.
            if (failure instanceof CredentialsSignin) redirect("/?error=CredentialsSignin")
            throw failure
          }
        }}
      >
        <input id="email" name="email" />
        <input id="password" name="password" type="password" />
        <button type="submit">Sign in</button>
      </form>
    </main>
  )
}

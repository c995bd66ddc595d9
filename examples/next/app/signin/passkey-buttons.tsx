"use client"
import { useEffect, useState } from "react"
import { signIn } from "gatehouse-auth/webauthn"

/** Passkeys run in the browser (the authenticator is there): gatehouse-auth/webauthn's signIn does the ceremony. */
export function PasskeyButtons({ callbackUrl }: { callbackUrl: string }) {
  const [label, setLabel] = useState("")
  const [problem, setProblem] = useState("")
  // These buttons do nothing until React has hydrated them; the tests wait for this mark first.
  useEffect(() => {
    document.body.dataset.hydrated = "true"
  }, [])
  const run = (options: Record<string, string>) => signIn("passkey", { redirectTo: callbackUrl, ...options }).catch((error: Error) => setProblem(error.message))
  return (
    <section>
      <button type="button" onClick={() => run({})}>
        Sign in with a passkey
      </button>
      <label htmlFor="passkey-label">Name for a new passkey</label>
      <input id="passkey-label" value={label} onChange={(event) => setLabel(event.target.value)} />
      <button type="button" onClick={() => run({ action: "register", name: label })}>
        Create a passkey
      </button>
      {problem ? <p id="passkey-problem">{problem}</p> : null}
    </section>
  )
}

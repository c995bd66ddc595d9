// src/lib/auth.ts
import Credentials from "gatehouse-auth/providers/credentials"
import { TanStackAuth } from "gatehouse-auth/tanstack-start"
import { checkPassword } from "./users" // your own user store

export const { handlers, getSession, requireSession } = TanStackAuth({
  providers: [
    Credentials({
      credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
      authorize: ({ email, password }) => checkPassword(email, password),
    }),
  ],
  pages: { signIn: "/signin" }, // a failed sign-in comes back here, with ?error=
})

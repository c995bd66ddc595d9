// Gatehouse as a Next 15 app configures it: JWT sessions and a password form, nothing Node-only,
// so that middleware.js can import it on the Edge runtime (Next 15's default for middleware).
import NextAuth from "gatehouse-auth/next"
import Credentials from "gatehouse-auth/providers/credentials"

export const { handlers, auth, signIn, signOut } = NextAuth({
  providers: [
    Credentials({
      credentials: { email: {}, password: { type: "password" } },
      authorize: ({ email, password }) =>
        email === "ada@example.com" && password === "correct horse battery staple" ? { id: "ada", name: "Ada Lovelace", email } : null,
      revokeCredentials: () => false,
    }),
  ],
  callbacks: {
    authorized: ({ auth, request }) => !request.nextUrl.pathname.startsWith("/protected") || !!auth?.user,
  },
})

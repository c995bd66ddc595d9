/**
 * Module augmentation as Auth.js apps write it, with the module specifiers renamed: `declare
 * module "gatehouse-auth/next" { interface Session { … } }` (was `"next-auth"`),
 * `"gatehouse-auth/jwt"`'s `JWT` (was `"next-auth/jwt"`), `"gatehouse-auth/types"` (was
 * `"@auth/core/types"`), and the other integrations' (`"@auth/sveltekit"`, `"@auth/express"`,
 * `"@auth/solid-start"`). Each must extend the one type that `auth()`, the `signIn`, `jwt`,
 * `session` and `authorized` callbacks, `useSession`, `getToken` and every integration's session
 * read use, not declare a new one beside it. Each case is compiled on its own against the packed
 * package, as an application's `tsc` would.
 */
import { describe, expect, it } from "vitest"
import { typeCheck } from "../support/type-check.js"

const ROLE = `type Role = "admin" | "member"`

/** Augments Session and User through `specifier`, as Auth.js's guides do. */
const sessionAugmentation = (specifier: string) => `
import type { DefaultSession } from "${specifier}"
declare module "${specifier}" {
  interface Session {
    accessToken?: string
    user: { role: "admin" | "member" } & DefaultSession["user"]
  }
  interface User {
    role?: "admin" | "member"
  }
}
export {}
`

/** Every place an app reads the session or the user: each must see the augmented fields. */
const sessionReads = `
import { expectTypeOf } from "expect-type"
import NextAuth from "gatehouse-auth/next"
import { getSession as browserSession, useSession } from "gatehouse-auth/react"
import { getSession as expressSession } from "gatehouse-auth/express"
import { getSession as solidSession } from "gatehouse-auth/solid-start"
import { KitAuth } from "gatehouse-auth/sveltekit"
import type { Session, User } from "gatehouse-auth/types"
${ROLE}

export const { auth, unstable_update } = NextAuth({
  providers: [],
  callbacks: {
    signIn({ user }) {
      expectTypeOf(user.role).toEqualTypeOf<Role | undefined>()
      return true
    },
    jwt({ token, user, account }) {
      if (account) expectTypeOf(user.role).toEqualTypeOf<Role | undefined>()
      return token
    },
    session({ session, user }) {
      expectTypeOf(session.accessToken).toEqualTypeOf<string | undefined>()
      expectTypeOf(session.user.role).toEqualTypeOf<Role>()
      expectTypeOf(user.role).toEqualTypeOf<Role | undefined>()
      return session
    },
    authorized({ auth }) {
      expectTypeOf(auth?.accessToken).toEqualTypeOf<string | undefined>()
      return !!auth
    },
  },
})

export async function onTheServer() {
  const session = await auth()
  expectTypeOf(session?.user.role).toEqualTypeOf<Role | undefined>()
  expectTypeOf(session?.accessToken).toEqualTypeOf<string | undefined>()
  expectTypeOf((await unstable_update({ accessToken: "t" }))?.user.role).toEqualTypeOf<Role | undefined>()
  expectTypeOf<NonNullable<Awaited<ReturnType<typeof expressSession>>>["user"]["role"]>().toEqualTypeOf<Role>()
  expectTypeOf<NonNullable<Awaited<ReturnType<typeof solidSession>>>["accessToken"]>().toEqualTypeOf<string | undefined>()
  expectTypeOf<NonNullable<Awaited<ReturnType<App.Locals["auth"]>>>["user"]["role"]>().toEqualTypeOf<Role>()
  expectTypeOf<Session["user"]["role"]>().toEqualTypeOf<Role>()
  expectTypeOf<User["role"]>().toEqualTypeOf<Role | undefined>()
}

export const kit = KitAuth({
  providers: [],
  callbacks: {
    session({ session }) {
      expectTypeOf(session.user.role).toEqualTypeOf<Role>()
      return session
    },
  },
})

export async function inTheBrowser() {
  const { data, status } = useSession()
  if (status === "authenticated") expectTypeOf(data.user.role).toEqualTypeOf<Role>()
  expectTypeOf((await browserSession())?.accessToken).toEqualTypeOf<string | undefined>()
}
`

const jwtAugmentation = `
declare module "gatehouse-auth/jwt" {
  interface JWT {
    role?: "admin" | "member"
  }
}
export {}
`

/** Every place an app reads the token: the callbacks and getToken. */
const tokenReads = `
import { expectTypeOf } from "expect-type"
import NextAuth from "gatehouse-auth/next"
import { getToken, type JWT } from "gatehouse-auth/jwt"
${ROLE}

export const { auth } = NextAuth({
  providers: [],
  callbacks: {
    jwt({ token }) {
      expectTypeOf(token.role).toEqualTypeOf<Role | undefined>()
      return token
    },
    session({ session, token }) {
      expectTypeOf(token.role).toEqualTypeOf<Role | undefined>()
      return session
    },
  },
  events: {
    session({ token }) {
      expectTypeOf(token.role).toEqualTypeOf<Role | undefined>()
    },
  },
})

export async function api(request: Request) {
  const token = await getToken({ req: request, secret: "s" })
  expectTypeOf(token?.role).toEqualTypeOf<Role | undefined>()
  expectTypeOf<JWT["role"]>().toEqualTypeOf<Role | undefined>()
}
`

describe("module augmentation under the renamed specifiers", () => {
  for (const [was, specifier] of [
    ["next-auth", "gatehouse-auth/next"],
    ["@auth/core/types", "gatehouse-auth/types"],
    ["@auth/sveltekit", "gatehouse-auth/sveltekit"],
    ["@auth/express", "gatehouse-auth/express"],
    ["@auth/solid-start", "gatehouse-auth/solid-start"],
  ] as const) {
    it(`declare module "${specifier}" (was "${was}") extends the Session and User that every read uses`, () => {
      expect(typeCheck({ "augment.ts": sessionAugmentation(specifier), "reads.ts": sessionReads })).toEqual([])
    })
  }

  it('declare module "gatehouse-auth/jwt" (was "next-auth/jwt") extends the JWT of the callbacks, the session event and getToken', () => {
    expect(typeCheck({ "augment.ts": jwtAugmentation, "reads.ts": tokenReads })).toEqual([])
  })

  it("the reads above fail without an augmentation (the checks can fail)", () => {
    const errors = typeCheck({ "reads.ts": sessionReads, "tokens.ts": tokenReads })
    expect(errors.some((line) => line.startsWith("reads.ts") && line.includes("role"))).toBe(true)
    expect(errors.some((line) => line.startsWith("tokens.ts"))).toBe(true)
  })
})

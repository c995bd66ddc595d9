/**
 * Type-level checks of `gatehouse-auth/next`'s universal `auth()` and of `Session` augmentation,
 * checked by `npm run check` (tsc over the tests). Nothing here runs: a wrong overload is a
 * compile error. The example app (examples/next) runs every overload for real.
 */
import { expectTypeOf } from "vitest"
import type { AuthFunction, NextAuthRequest, NextAuthResult, NextRequestLike, PagesContext, PagesRequest, PagesResponse } from "../../src/next/types.js"
import type { Session } from "../../src/types.js"

declare module "../../src/types.js" {
  interface Session {
    /** An application's own field, added by its `session` callback. */
    role?: "admin" | "member"
  }
}

declare const auth: AuthFunction
declare const request: NextRequestLike
declare const pages: PagesContext
declare const req: PagesRequest
declare const res: PagesResponse
declare const result: NextAuthResult

// Server components, route handlers, server actions: the session or null.
expectTypeOf(auth()).toEqualTypeOf<Promise<Session | null>>()
// The augmented field is there.
expectTypeOf<NonNullable<Awaited<ReturnType<typeof result.unstable_update>>>["role"]>().toEqualTypeOf<"admin" | "member" | undefined>()
// As the proxy: a response.
expectTypeOf(auth(request)).toEqualTypeOf<Promise<Response>>()
// Wrapping a handler: the wrapped request carries auth, and the result is a handler taking the context.
const wrapped = auth((wrappedRequest: NextAuthRequest, context: { params: Promise<{ id: string }> }) => {
  expectTypeOf(wrappedRequest.auth).toEqualTypeOf<Session | null>()
  expectTypeOf(context.params).toEqualTypeOf<Promise<{ id: string }>>()
  return Response.json(wrappedRequest.auth?.role ?? null)
})
expectTypeOf(wrapped).toEqualTypeOf<(request: NextRequestLike, context: { params: Promise<{ id: string }> }) => Promise<Response>>()
// Pages Router: getServerSideProps' context, or an API route's req and res.
expectTypeOf(auth(pages)).toEqualTypeOf<Promise<Session | null>>()
expectTypeOf(auth(req, res)).toEqualTypeOf<Promise<Session | null>>()
// Server actions return the URL when not redirecting.
expectTypeOf(result.signIn("github", { redirect: false })).toEqualTypeOf<Promise<string>>()
expectTypeOf(result.signOut({ redirect: false })).toEqualTypeOf<Promise<string>>()
// @ts-expect-error: a number is no provider id
void result.signIn(42)

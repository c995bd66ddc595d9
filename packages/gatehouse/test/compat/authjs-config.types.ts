/**
 * A configuration written for Auth.js type-checks as Gatehouse's, checked by `npm run check` (tsc
 * over the tests) against `@auth/core`'s own declarations: every option a user writes (`pages`,
 * `session`, `jwt`, `cookies`, `theme`, `events`, `callbacks`, …) and every callback and event
 * parameter. Options are compared by assignability: an Auth.js config value, callbacks included,
 * must be a Gatehouse config value, which for a callback means Gatehouse hands it at least what
 * Auth.js's type promised (parameters are contravariant). Where Auth.js types a parameter `any`,
 * code reads anything from it, so Gatehouse's must be `any` too. Nothing runs.
 *
 * Not compared here: `providers` (the provider catalogue's own tests), `adapter` (the adapter
 * contract's), and `logger`, whose levels Gatehouse calls as `(code, ...message)`: an Auth.js
 * `error(error: Error)` level is a deliberate gap, a compile error that points at the change.
 */
import type { AuthConfig as AuthJsConfig } from "@auth/core"
import type { Account as AuthJsAccount, Profile as AuthJsProfile, Session as AuthJsSession, User as AuthJsUser } from "@auth/core/types"
import type { JWT as AuthJsJWT } from "@auth/core/jwt"
import type { OAuthUserConfig as AuthJsOAuthUserConfig } from "@auth/core/providers"
import type { OAuthUserConfig } from "../../src/providers/oauth-user-config.js"
import { expectTypeOf } from "vitest"
import type { Account, AuthConfig, CallbacksOptions, EventCallbacks, JWT, Profile, Session, User } from "../../src/types.js"


type AuthJsCallbacks = Required<NonNullable<AuthJsConfig["callbacks"]>>
type AuthJsEvents = Required<NonNullable<AuthJsConfig["events"]>>
type Params<F> = F extends (params: infer P) => unknown ? P : never
type Returned<F> = F extends (...args: never[]) => infer R ? R : never

/** The keys `T` names (not its index signatures'). */
type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: unknown }
/** The keys of `T` typed `any`. */
type AnyKeys<T> = { [K in KnownKeys<T>]-?: 0 extends 1 & T[K] ? K : never }[KnownKeys<T>]
/** Auth.js's `any` parameters that Gatehouse types more narrowly: must be none. */
type NarrowedAny<AuthJs, Gatehouse> = Exclude<AnyKeys<AuthJs>, AnyKeys<Gatehouse>>

// The options a user writes, one by one so a failure names the option.
expectTypeOf<NonNullable<AuthJsConfig["pages"]>>().toExtend<NonNullable<AuthConfig["pages"]>>()
expectTypeOf<NonNullable<AuthJsConfig["session"]>>().toExtend<NonNullable<AuthConfig["session"]>>()
expectTypeOf<NonNullable<AuthJsConfig["jwt"]>>().toExtend<NonNullable<AuthConfig["jwt"]>>()
expectTypeOf<NonNullable<AuthJsConfig["cookies"]>>().toExtend<NonNullable<AuthConfig["cookies"]>>()
expectTypeOf<NonNullable<AuthJsConfig["theme"]>>().toExtend<NonNullable<AuthConfig["theme"]>>()
expectTypeOf<NonNullable<AuthJsConfig["experimental"]>>().toExtend<NonNullable<AuthConfig["experimental"]>>()
// The rest at once (`raw` and `skipCSRFCheck` are each library's own symbols, imported with it).
type Rest = "providers" | "adapter" | "logger" | "callbacks" | "events" | "raw" | "skipCSRFCheck"
expectTypeOf<Omit<AuthJsConfig, Rest>>().toExtend<Omit<AuthConfig, Rest>>()

// Callbacks and events: Gatehouse hands each at least what Auth.js's type promises (a callback
// written for Auth.js reads nothing Gatehouse lacks), and takes what it returns. Two deliberate
// gaps: the signIn callback's `credentials` are the posted values (`unknown`, where Auth.js types
// them as the form's input definitions), and the session callback's `session` never carries the
// database row's `sessionToken`, which stays in its HttpOnly cookie.
type AuthJsSessionParams = Params<AuthJsCallbacks["session"]>
expectTypeOf<Params<CallbacksOptions["signIn"]>>().toExtend<Omit<Params<AuthJsCallbacks["signIn"]>, "credentials">>()
expectTypeOf<Params<CallbacksOptions["redirect"]>>().toExtend<Params<AuthJsCallbacks["redirect"]>>()
expectTypeOf<Params<CallbacksOptions["jwt"]>>().toExtend<Params<AuthJsCallbacks["jwt"]>>()
expectTypeOf<Params<CallbacksOptions["session"]>>().toExtend<
  Omit<AuthJsSessionParams, "session"> & { session: Omit<AuthJsSessionParams["session"], "sessionToken"> }
>()
expectTypeOf<Returned<AuthJsCallbacks["signIn"]>>().toExtend<Returned<CallbacksOptions["signIn"]>>()
expectTypeOf<Returned<AuthJsCallbacks["redirect"]>>().toExtend<Returned<CallbacksOptions["redirect"]>>()
expectTypeOf<Returned<AuthJsCallbacks["jwt"]>>().toExtend<Returned<CallbacksOptions["jwt"]>>()
expectTypeOf<Returned<AuthJsCallbacks["session"]>>().toExtend<Returned<CallbacksOptions["session"]>>()
expectTypeOf<AuthJsEvents["signIn"]>().toExtend<EventCallbacks["signIn"]>()
expectTypeOf<AuthJsEvents["signOut"]>().toExtend<EventCallbacks["signOut"]>()
expectTypeOf<AuthJsEvents["createUser"]>().toExtend<EventCallbacks["createUser"]>()
expectTypeOf<AuthJsEvents["updateUser"]>().toExtend<EventCallbacks["updateUser"]>()
expectTypeOf<AuthJsEvents["linkAccount"]>().toExtend<EventCallbacks["linkAccount"]>()
expectTypeOf<AuthJsEvents["session"]>().toExtend<EventCallbacks["session"]>()

// `any` stays `any`: `session.user.name` on the jwt callback's `session` compiles there.
expectTypeOf<NarrowedAny<Params<AuthJsCallbacks["jwt"]>, Params<CallbacksOptions["jwt"]>>>().toBeNever()
expectTypeOf<NarrowedAny<AuthJsSessionParams, Params<CallbacksOptions["session"]>>>().toBeNever()
expectTypeOf<NarrowedAny<Params<AuthJsCallbacks["signIn"]>, Params<CallbacksOptions["signIn"]>>>().toBeNever()
// The checks above can fail: Auth.js's callbacks do have `any` parameters.
expectTypeOf<AnyKeys<Params<AuthJsCallbacks["jwt"]>>>().toEqualTypeOf<"session">()
expectTypeOf<AnyKeys<AuthJsSessionParams>>().toEqualTypeOf<"newSession">()

// The resources the callbacks are handed: each has what Auth.js's promised, `any` kept `any`
// (a profile's `picture`, which Facebook sends as an object).
expectTypeOf<Profile>().toExtend<AuthJsProfile>()
expectTypeOf<Account>().toExtend<AuthJsAccount>()
expectTypeOf<User>().toExtend<AuthJsUser>()
expectTypeOf<Session>().toExtend<AuthJsSession>()
expectTypeOf<JWT>().toExtend<AuthJsJWT>()
expectTypeOf<NarrowedAny<AuthJsProfile, Profile>>().toBeNever()
expectTypeOf<AnyKeys<AuthJsProfile>>().toEqualTypeOf<"picture">()

// A provider's hooks that every OAuth provider takes, written as for Auth.js (the catalogue's
// own tests compare each provider's options): account() may return nothing.
expectTypeOf<NonNullable<AuthJsOAuthUserConfig<Record<string, unknown>>["account"]>>().toExtend<NonNullable<OAuthUserConfig<Record<string, unknown>>["account"]>>()

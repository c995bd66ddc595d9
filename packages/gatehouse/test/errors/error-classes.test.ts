import { describe, expect, expectTypeOf, it } from "vitest"
import * as errors from "../../src/errors.js"
import { AuthError, CredentialsSignin, isClientError, MissingSecret, MissingSecretError, type AuthErrorType } from "../../src/errors.js"

const classes = Object.entries(errors).filter(
  (entry): entry is [string, typeof AuthError] => typeof entry[1] === "function" && entry[1].prototype instanceof Error,
)

const clientSafe = ["InvalidTwoFactorCode", "TwoFactorExpired", "TwoFactorFailed", "TwoFactorUnavailable", "RecentAuthRequired", "TwoFactorNotEnrolled", "SessionRequired", "UnknownSession", "UnknownAccount", "LastSignInMethod", "CredentialsSignin", "AccessDenied", "Verification", "MissingCSRF", "OAuthAccountNotLinked",
  "OAuthCallbackError", "AccountNotLinked", "WebAuthnVerificationError", "EmailSignInError", "InvalidEmail", "RateLimited",
  "EmailRateLimited", "CredentialsRateLimited", "ServerBusy", "InvalidCheck", "UnknownAction", "InvalidProvider",
  "PermissionDenied", "OrganizationNotFound", "SlugTaken", "LastOwner", "InvitationInvalid", "UserBanned", "UserNotFound", "ImpersonationRefused"]
const signInKind = ["SignInError", "CredentialsSignin", "OAuthAccountNotLinked", "OAuthCallbackError", "OAuthSignInError",
  "EmailSignInError", "MissingCSRF", "AccountNotLinked", "InvalidEmail", "RateLimited", "EmailRateLimited", "CredentialsRateLimited", "ServerBusy", "TwoFactorExpired", "TwoFactorFailed", "TwoFactorUnavailable"]
/** Errors that send the user back to the second-factor page. */
const twoFactorKind = ["InvalidTwoFactorCode"]
// Every class the facts file lists, with its Auth.js type string, and Gatehouse's own additions.
const expectedTypes: Record<string, string> = {
  AuthError: "AuthError", SignInError: "AuthError", AdapterError: "AdapterError", SharedStoreError: "SharedStoreError", AccessDenied: "AccessDenied",
  CallbackRouteError: "CallbackRouteError", ErrorPageLoop: "ErrorPageLoop", EventError: "EventError",
  InvalidCallbackUrl: "InvalidCallbackUrl", CredentialsSignin: "CredentialsSignin", InvalidEndpoints: "InvalidEndpoints",
  InvalidCheck: "InvalidCheck", JWTSessionError: "JWTSessionError", MissingAdapter: "MissingAdapter",
  MissingAdapterMethods: "MissingAdapterMethods", MissingAuthorize: "MissingAuthorize", MissingSecret: "MissingSecret",
  OAuthAccountNotLinked: "OAuthAccountNotLinked", OAuthCallbackError: "OAuthCallbackError",
  OAuthProfileParseError: "OAuthProfileParseError", SessionTokenError: "SessionTokenError",
  OAuthSignInError: "OAuthSignInError", EmailSignInError: "EmailSignInError", SignOutError: "SignOutError",
  UnknownAction: "UnknownAction", UnsupportedStrategy: "UnsupportedStrategy", InvalidProvider: "InvalidProvider",
  UntrustedHost: "UntrustedHost", Verification: "Verification", MissingCSRF: "MissingCSRF",
  AccountNotLinked: "AccountNotLinked", DuplicateConditionalUI: "DuplicateConditionalUI",
  MissingWebAuthnAutocomplete: "MissingWebAuthnAutocomplete", WebAuthnVerificationError: "WebAuthnVerificationError",
  ExperimentalFeatureNotEnabled: "ExperimentalFeatureNotEnabled", InvalidConfig: "InvalidConfig", InvalidRequest: "InvalidRequest",
  RefreshAccessTokenError: "RefreshAccessTokenError", InvalidEmail: "InvalidEmail", RateLimited: "RateLimited",
  EmailRateLimited: "EmailRateLimited", CredentialsRateLimited: "CredentialsRateLimited", ServerBusy: "ServerBusy",
  MissingSecretError: "MissingSecret", PasswordHashError: "PasswordHashError", PasswordInputError: "PasswordInputError",
  // The account routes and back-channel logout (Gatehouse's own).
  SessionRequired: "SessionRequired", UnknownSession: "UnknownSession", UnknownAccount: "UnknownAccount",
  LastSignInMethod: "LastSignInMethod", InvalidLogoutToken: "InvalidLogoutToken", ProviderUnavailable: "ProviderUnavailable",
  // Two-factor sign-in (Gatehouse's own).
  InvalidTwoFactorCode: "InvalidTwoFactorCode", TwoFactorExpired: "TwoFactorExpired", TwoFactorFailed: "TwoFactorFailed", TwoFactorUnavailable: "TwoFactorUnavailable",
  RecentAuthRequired: "RecentAuthRequired", TwoFactorNotEnrolled: "TwoFactorNotEnrolled",
  // Organizations and the admin API (Gatehouse's own).
  PermissionDenied: "PermissionDenied", OrganizationNotFound: "OrganizationNotFound", SlugTaken: "SlugTaken", LastOwner: "LastOwner",
  InvitationInvalid: "InvitationInvalid", UserBanned: "UserBanned", UserNotFound: "UserNotFound", ImpersonationRefused: "ImpersonationRefused",
}

describe("error classes", () => {
  it("export every class the wire facts name, each with its Auth.js type string", () => {
    expect(Object.fromEntries(classes.map(([name, cls]) => [name, cls.type]))).toEqual(expectedTypes)
  })

  it.each(classes)("%s carries its type, kind and client-safe flag on instances", (name, cls) => {
    const error = new cls("boom")
    expect(error).toBeInstanceOf(AuthError)
    expect(error).toBeInstanceOf(Error)
    expect(error.type).toBe(expectedTypes[name])
    expect(error.kind).toBe(signInKind.includes(name) ? "signIn" : twoFactorKind.includes(name) ? "twoFactor" : "error")
    expect(error.clientSafe).toBe(clientSafe.includes(name))
    expect(isClientError(error)).toBe(clientSafe.includes(name))
    expect(error.name).toBe(cls.type)
  })

  it("keeps the message exactly as given", () => {
    expect(new AuthError("Exactly this").message).toBe("Exactly this")
    expect(new AuthError().message).toBe("")
  })

  it("takes a cause record from ErrorOptions, and wraps an Error as cause.err", () => {
    const upstream = new Error("db down")
    expect(new AuthError("failed", { cause: { provider: "github" } }).cause).toEqual({ provider: "github" })
    expect(new AuthError("failed", { cause: upstream }).cause).toEqual({ err: upstream })
    expect(new AuthError({ cause: { code: 1 } }).cause).toEqual({ code: 1 })
    const wrapped = new AuthError(upstream)
    expect(wrapped.cause?.err).toBe(upstream)
    expect(wrapped.message).toBe("db down")
    expect(new AuthError("no cause").cause).toBeUndefined()
  })

  it.each([null, 5, true])("tolerates %j where a message or options belong", (value) => {
    expect(new AuthError(value as unknown as string).message).toBe("")
    expect(new AuthError("x", value as unknown as ErrorOptions).cause).toBeUndefined()
  })

  it("lets a CredentialsSignin subclass choose its code", () => {
    class InvalidLogin extends CredentialsSignin {
      override code = "invalid_login"
    }
    expect(new CredentialsSignin().code).toBe("credentials")
    expect(new InvalidLogin().code).toBe("invalid_login")
    expect(new InvalidLogin().type).toBe("CredentialsSignin")
  })

  it.each(["RateLimited", "EmailRateLimited", "CredentialsRateLimited", "ServerBusy"] as const)(
    "%s carries retryAfter as whole seconds, from either argument, with a default when absent or unusable",
    (name) => {
      const ErrorClass = errors[name]
      const fallback = ErrorClass === errors.ServerBusy ? 5 : 60
      expect(new ErrorClass("slow down", { retryAfter: 899.2 }).retryAfter).toBe(900)
      expect(new ErrorClass({ retryAfter: 0.01 }).retryAfter).toBe(1)
      expect(new ErrorClass("slow down", { retryAfter: 7, cause: { key: "k" } }).cause).toEqual({ key: "k" })
      for (const unusable of [undefined, 0, -3, Number.NaN, Number.POSITIVE_INFINITY, "10"]) {
        expect(new ErrorClass("slow down", { retryAfter: unusable as number }).retryAfter).toBe(fallback)
      }
      expect(new ErrorClass().retryAfter).toBe(fallback)
    },
  )

  it("makes MissingSecretError the same class as MissingSecret", () => {
    expect(MissingSecretError).toBe(MissingSecret)
    expect(new MissingSecretError()).toBeInstanceOf(MissingSecret)
  })

  it("types AuthErrorType as exactly the union of the classes' type strings (checked by npm run check)", () => {
    type Exported = typeof errors
    // The bases that are subclassed declare their type as AuthErrorType, so they are left out here.
    type Bases = "AuthError" | "SignInError" | "RateLimited"
    type SubclassTypes = {
      [K in Exclude<keyof Exported, Bases>]: Exported[K] extends { readonly type: infer T } ? T : never
    }[Exclude<keyof Exported, Bases>]
    expectTypeOf<SubclassTypes | "AuthError" | "RateLimited">().toEqualTypeOf<AuthErrorType>()
    expectTypeOf<(typeof errors.AccessDenied)["type"]>().toEqualTypeOf<"AccessDenied">()
    expectTypeOf<AuthError["type"]>().toEqualTypeOf<AuthErrorType>()
    expect(new Set(classes.map(([, cls]) => cls.type)).size).toBe(Object.keys(expectedTypes).length - 2)
  })
})

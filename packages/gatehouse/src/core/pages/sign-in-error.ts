/**
 * The banner texts of the sign-in page, by the `error` query parameter (as Auth.js words them).
 * @module
 */

const differentAccount = "Try signing in with a different account."

const texts: ReadonlyMap<string, string> = new Map([
  ["Signin", differentAccount],
  ["OAuthSignin", differentAccount],
  ["OAuthCallbackError", differentAccount],
  ["OAuthCreateAccount", differentAccount],
  ["EmailCreateAccount", differentAccount],
  ["Callback", differentAccount],
  ["OAuthAccountNotLinked", "To confirm your identity, sign in with the same account you used originally."],
  ["EmailSignin", "The e-mail could not be sent."],
  ["EmailSignInError", "The e-mail could not be sent."],
  ["InvalidEmail", "That is not an e-mail address we can send a sign-in link to."],
  ["EmailRateLimited", "Too many sign-in e-mails were requested. Check your inbox, or try again in a few minutes."],
  ["CredentialsRateLimited", "Too many sign-in attempts. Try again in a few minutes."],
  ["RateLimited", "Too many sign-in attempts. Try again in a few minutes."],
  ["ServerBusy", "The server is busy. Try again in a moment."],
  ["CredentialsSignin", "Sign in failed. Check the details you provided are correct."],
  ["SessionRequired", "Please sign in to access this page."],
  ["TwoFactorExpired", "Two-step verification took too long. Sign in again."],
  ["TwoFactorFailed", "Too many wrong codes. Sign in again."],
  ["TwoFactorUnavailable", "Two-step verification is required, and this account has no second way to sign in that works here. Sign in another way, or contact support."],
])

/** The message shown for a sign-in error code; `Unable to sign in.` for codes it does not know. */
export function signInErrorText(code: string): string {
  return texts.get(code) ?? "Unable to sign in."
}

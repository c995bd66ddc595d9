/**
 * Svelte 5 sign-in and sign-out forms for the form actions of `gatehouse-auth/sveltekit`. They
 * post without JavaScript and, with it, in place (`use:enhance`). Shipped as `.svelte` files
 * through the `svelte` export condition, so the app's Vite compiles them.
 *
 * @example src/routes/signin/+page.svelte
 * ```html
 * <script>
 *   import { SignIn } from "gatehouse-auth/sveltekit/components"
 * </script>
 *
 * <SignIn provider="github" options={{ redirectTo: "/dashboard" }}>Sign in with GitHub</SignIn>
 * <SignIn provider="credentials">
 *   {#snippet credentials()}
 *     <input name="email" type="email" autocomplete="username" />
 *     <input name="password" type="password" autocomplete="current-password" />
 *   {/snippet}
 *   {#snippet submitButton()}<button>Sign in</button>{/snippet}
 * </SignIn>
 * ```
 * @module gatehouse-auth/sveltekit/components
 */
import type { Component, Snippet } from "svelte"
import type { HTMLFormAttributes } from "svelte/elements"

/** Hidden fields posted with the form: `redirectTo`, and any other field the sign-in takes. */
export interface FormOptions {
  /** Where to go once done. Default: the `callbackUrl` of the page the form is on, else that page. */
  redirectTo?: string
  /** Other fields posted as they are (an `email` to prefill a link's address, say). */
  [field: string]: string | number | boolean | undefined | null
}

/** OAuth authorization parameters (`prompt`, `login_hint`, …), in any shape `URLSearchParams` takes. */
export type AuthorizationParams = string | Record<string, string> | [string, string][] | URLSearchParams

/** Props of {@link SignIn}; other attributes (`class`, `id`, …) go on the `<form>`. */
export interface SignInProps extends Omit<HTMLFormAttributes, "action" | "method" | "children"> {
  /** The provider's id (`providerId`). Without one, the action sends the browser to the sign-in page. */
  provider?: string
  /** The path of the page whose default action is `signIn`. Default `signin` (`/signin`). */
  signInPage?: string
  /** Hidden fields: `redirectTo`, and any other the sign-in takes. */
  options?: FormOptions
  /** Sent to the provider's authorization endpoint (OAuth and OpenID providers). */
  authorizationParams?: AuthorizationParams
  /** The form's button, instead of the default "Sign in with <provider>". */
  submitButton?: Snippet
  /** The credentials provider's fields (`name` as its `credentials` option names them). */
  credentials?: Snippet
  /** An email provider's field: an input named `email`. */
  email?: Snippet
  /** The default button's label. */
  children?: Snippet
}

/** Props of {@link SignOut}; other attributes go on the `<form>`. */
export interface SignOutProps extends Omit<HTMLFormAttributes, "action" | "method" | "children"> {
  /** The path of the page whose default action is `signOut`. Default `signout` (`/signout`). */
  signOutPage?: string
  /**
   * Hidden fields: `redirectTo` (default: the page the form is on); `provider`, the OIDC provider
   * the session came from, to end the session there too (RP-initiated logout).
   */
  options?: FormOptions
  /** The form's button, instead of the default "Sign out". */
  submitButton?: Snippet
  /** The default button's label. */
  children?: Snippet
}

/**
 * A sign-in form for one provider, posting to the `signIn` form action.
 *
 * @example
 * ```html
 * <SignIn provider="nodemailer">
 *   {#snippet email()}<input name="email" type="email" />{/snippet}
 * </SignIn>
 * ```
 */
export declare const SignIn: Component<SignInProps>

/**
 * A sign-out button, posting to the `signOut` form action.
 *
 * @example
 * ```html
 * <SignOut options={{ redirectTo: "/" }} />
 * ```
 */
export declare const SignOut: Component<SignOutProps>

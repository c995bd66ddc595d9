/**
 * Svelte 5 sign-in and sign-out forms for the form actions of `gatehouse-auth/sveltekit`. They
 * post without JavaScript and, with it, in place (`use:enhance`). Shipped as `.svelte` files
 * through the `svelte` export condition, so the app's Vite compiles them.
 *
 * The markup, class names and named slots are @auth/sveltekit's, so a page written for its
 * components keeps its styles and custom buttons: `<form class="signInButton …">` /
 * `<form class="signOutButton …">` (`className` adds classes, a `class` attribute replaces them),
 * one `<button type="submit">` around the `submitButton` content, and the `credentials`, `email`
 * and `submitButton` content given as Svelte 5 snippets or as `slot="…"` elements alike.
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
 *   {#snippet submitButton()}Sign in{/snippet}
 * </SignIn>
 * <!-- As @auth/sveltekit's docs write it: -->
 * <SignIn provider="github" className="primary">
 *   <span slot="submitButton">Sign in with GitHub</span>
 * </SignIn>
 * ```
 * @module gatehouse-auth/sveltekit/components
 */
import type { Snippet, SvelteComponent } from "svelte"
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

/** Props of {@link SignIn}; other attributes (`id`, `class`, …) go on the `<form>`. */
export interface SignInProps extends Omit<HTMLFormAttributes, "action" | "method" | "children"> {
  /** The provider's id (`providerId`). Without one, the action sends the browser to the sign-in page. */
  provider?: string
  /** The path of the page whose default action is `signIn`. Default `signin` (`/signin`). */
  signInPage?: string
  /** Hidden fields: `redirectTo`, and any other the sign-in takes (a `FormData`'s text fields, as @auth/sveltekit takes it). */
  options?: FormOptions | FormData
  /** Sent to the provider's authorization endpoint (OAuth and OpenID providers). */
  authorizationParams?: AuthorizationParams
  /** Classes after `signInButton` on the form (a `class` attribute replaces both, as in @auth/sveltekit). */
  className?: string
  /** What the submit button shows, instead of the default "Sign in with <provider>". The button is the component's. */
  submitButton?: Snippet
  /** The credentials provider's fields (`name` as its `credentials` option names them). */
  credentials?: Snippet
  /**
   * An email provider's field: an input named `email`. Without it, the form of an email provider
   * (`email`, `nodemailer`, `resend`, `sendgrid`, `postmark`, `mailgun`, `forwardemail`, `loops`)
   * has a required one, `#input-email-for-email-provider` with its `label.section-header`.
   */
  email?: Snippet
  /** What the submit button shows, when there is no `submitButton`. */
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
  /** Classes after `signOutButton` on the form (a `class` attribute replaces both, as in @auth/sveltekit). */
  className?: string
  /** What the submit button shows, instead of the default "Sign out". The button is the component's. */
  submitButton?: Snippet
  /** What the submit button shows, when there is no `submitButton`. */
  children?: Snippet
}

/**
 * The content {@link SignIn} takes as `slot="…"` elements (Svelte 4 syntax, as @auth/sveltekit's
 * docs write it); the same names as snippets are its props.
 */
export interface SignInSlots {
  /** What the submit button shows. */
  submitButton: Record<string, never>
  /** The credentials provider's fields. */
  credentials: Record<string, never>
  /** An email provider's field. */
  email: Record<string, never>
  /** What the submit button shows, when there is no `submitButton`. */
  default: Record<string, never>
}

/** The content {@link SignOut} takes as `slot="…"` elements; the same names as snippets are its props. */
export interface SignOutSlots {
  /** What the submit button shows. */
  submitButton: Record<string, never>
  /** What the submit button shows, when there is no `submitButton`. */
  default: Record<string, never>
}

/**
 * A sign-in form for one provider, posting to the `signIn` form action. Typed as a class so that
 * svelte-check knows its `slot="…"` names too; Svelte 5 renders it like any component.
 *
 * @example
 * ```html
 * <SignIn provider="nodemailer">
 *   {#snippet email()}<input name="email" type="email" />{/snippet}
 * </SignIn>
 * ```
 */
export declare class SignIn extends SvelteComponent<SignInProps, Record<string, never>, SignInSlots> {}

/**
 * A sign-out button, posting to the `signOut` form action.
 *
 * @example
 * ```html
 * <SignOut options={{ redirectTo: "/" }} />
 * ```
 */
export declare class SignOut extends SvelteComponent<SignOutProps, Record<string, never>, SignOutSlots> {}

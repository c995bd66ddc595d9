/**
 * The look of the built-in pages, which the sign-in emails follow too. A leaf of its own because
 * the configuration, the pages and the email providers all read it; `gatehouse-auth/types`
 * re-exports it.
 * @module
 */

/** Styles the built-in pages. */
export interface Theme {
  /** `auto` (the default) follows the browser's preference. */
  colorScheme?: "auto" | "dark" | "light"
  /** URL of a logo shown above the form: an `http(s)` URL or a same-origin path; others are ignored. */
  logo?: string
  /** The accent and button colour: hex, a colour keyword, or `rgb()`/`rgba()`; others are ignored. */
  brandColor?: string
  /** The colour of button labels, in the same forms as `brandColor`. */
  buttonText?: string
}

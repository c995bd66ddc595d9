/**
 * The built-in HTML pages: sign-in, sign-out, verify-request, error and two-factor.
 * @module
 */
export type { PageContext } from "./page-context.js"
export type { SignInQuery } from "./sign-in-page.js"
export { routeUrl } from "./page-context.js"
export { renderSignInPage } from "./sign-in-page.js"
export { renderSignOutPage } from "./sign-out-page.js"
export { renderVerifyRequestPage } from "./verify-request-page.js"
export { renderErrorPage } from "./error-page.js"
export { renderConfirmEmailPage } from "./confirm-email-page.js"
export { renderMethodsRemovedPage } from "./methods-removed-page.js"
export { renderRetryLaterPage } from "./retry-later-page.js"
export type { TwoFactorEmailOffer, TwoFactorPageOptions } from "./two-factor-page.js"
export { renderTwoFactorPage } from "./two-factor-page.js"

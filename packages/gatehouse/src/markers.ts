/**
 * Marker values for framework authors. Set `config.raw = raw` to get the internal response
 * object back from `Auth()`, or `config.skipCSRFCheck = skipCSRFCheck` when the framework
 * already protects its form posts (SvelteKit's origin check, Next.js server actions).
 *
 * The symbols are registered (`Symbol.for`), so two copies of the package in one app still agree.
 *
 * @example
 * ```ts
 * import { Auth, raw, skipCSRFCheck } from "gatehouse-auth"
 *
 * const result = await Auth(request, { ...config, raw, skipCSRFCheck })
 * ```
 * @module
 */

/**
 * Makes `Auth()` return its internal response instead of a `Response`.
 *
 * @example
 * ```ts
 * const internal = await Auth(request, { ...config, raw })
 * ```
 */
export const raw: unique symbol = Symbol.for("gatehouse.return-type-raw")

/**
 * Turns off the built-in CSRF check; only for frameworks that check the origin themselves.
 *
 * @example
 * ```ts
 * const response = await Auth(request, { ...config, skipCSRFCheck })
 * ```
 */
export const skipCSRFCheck: unique symbol = Symbol.for("gatehouse.skip-csrf-check")

/**
 * Auth.js's key for a provider's own `fetch`: `GitHub({ [customFetch]: myFetch })` is the same as
 * `GitHub({ fetch: myFetch })`, which Gatehouse names plainly. Every request to that provider
 * (discovery, token, userinfo, hooks) goes through it: a proxy, a test double, extra headers.
 *
 * @example
 * ```ts
 * import { customFetch } from "gatehouse-auth"
 *
 * const keycloak = Keycloak({ [customFetch]: (input, init) => fetch(input, { ...init, dispatcher: proxy }) })
 * ```
 */
export const customFetch: unique symbol = Symbol.for("gatehouse.custom-fetch")

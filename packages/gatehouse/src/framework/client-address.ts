/**
 * The framework's own view of the client's address, handed to the core for the per-IP sign-in
 * limits. A Web `Request` carries no peer address, and the core reads no client-writable header
 * unless told to; a framework that knows the address (Express's `req.ip`, which follows its
 * `trust proxy`; SvelteKit's `getClientAddress()`, which follows its adapter's settings) writes it
 * into a header of Gatehouse's own on every request it hands the core, replacing whatever the
 * client sent there, and its prepared config names that header (`prepareConfig`'s `clientAddress`
 * option). The header is Gatehouse's alone, so the headers a proxy sets (`X-Real-IP`,
 * `CF-Connecting-IP`, …) reach the app as they came, and an app naming one of them in
 * `trustedIpHeader` reads what its proxy wrote.
 * @module
 */

/** The header an integration writes the client's address into, replacing the client's own. */
export const CLIENT_ADDRESS_HEADER = "x-gatehouse-client-address"

/**
 * Writes the client's address into `headers` (under {@link CLIENT_ADDRESS_HEADER}), or removes the
 * header when the framework cannot tell, so that a value the client sent never counts. Call it on
 * every request handed to `Auth` or `runServerAction` with a config prepared with
 * `clientAddress: true`.
 *
 * @param headers - Headers of a request being built (mutable); returned for chaining.
 * @param address - The client's address as the framework sees it, or `undefined` when unknown.
 * @example
 * ```ts
 * const { config: ready } = prepareConfig(config, env, { clientAddress: true })
 * const headers = setClientAddress(new Headers(request.headers), peerAddress)
 * const response = await Auth(new Request(request, { headers }), ready)
 * ```
 */
export function setClientAddress(headers: Headers, address: string | undefined): Headers {
  if (address) headers.set(CLIENT_ADDRESS_HEADER, address)
  else headers.delete(CLIENT_ADDRESS_HEADER)
  return headers
}

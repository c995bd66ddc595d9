/**
 * Sign-in links by email, sent through [Loops](https://loops.so)'s transactional email API. The
 * message is a transactional email set up in Loops, with a `url` data variable for the link; its
 * sender and wording live there. Runs wherever `fetch` does. Needs an adapter (for the
 * verification tokens), as every email provider does.
 *
 * @example
 * ```ts
 * import Loops from "gatehouse-auth/providers/loops"
 *
 * const provider = Loops({ transactionalId: env.AUTH_LOOPS_TRANSACTIONAL_ID }) // API key from AUTH_LOOPS_KEY
 * ```
 * @module gatehouse-auth/providers/loops
 */
import { InvalidConfig } from "../errors.js"
import { emailProvider, providerFetch, serviceError, type HttpEmailOptions } from "./email-message.js"
import type { EmailConfig, VerificationRequestParams } from "./types.js"

/** Options of {@link Loops}; `transactionalId` is required, the API key comes from `AUTH_LOOPS_KEY` when not given. */
export interface LoopsOptions extends HttpEmailOptions {
  /** The id of the transactional email in Loops; it must use a `url` data variable for the link. */
  transactionalId?: string
}

/** Auth.js's name for {@link LoopsOptions}. */
export type LoopsUserConfig = LoopsOptions

/** The provider {@link Loops} returns: an email provider that knows its `transactionalId`. */
export type LoopsConfig = EmailConfig & {
  /** The id of the transactional email in Loops. */
  transactionalId?: string
}

/**
 * `POST https://app.loops.so/api/v1/transactional`, bearer API key, JSON `{ transactionalId, email,
 * dataVariables: { url } }`; with a one-time code (`code` providers, two-factor email codes) also
 * `code`, which the transactional email must then show.
 */
async function sendVerificationRequest(params: VerificationRequestParams): Promise<void> {
  const { identifier, provider, url } = params
  const { apiKey, transactionalId } = provider
  if (typeof apiKey !== "string" || apiKey === "") {
    throw new InvalidConfig(`Email provider "${provider.id}" (Loops) needs an API key: set \`apiKey\` or AUTH_${provider.id.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_KEY`)
  }
  if (typeof transactionalId !== "string" || transactionalId.trim() === "") {
    throw new InvalidConfig(`Email provider "${provider.id}" (Loops) needs the \`transactionalId\` of a Loops transactional email`)
  }
  const response = await providerFetch(provider)("https://app.loops.so/api/v1/transactional", {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ transactionalId, email: identifier, dataVariables: params.code === undefined ? { url } : { url, code: params.code } }),
  })
  if (!response.ok) throw await serviceError("Loops", response, [apiKey])
}

/**
 * An email provider sending through Loops (`POST https://app.loops.so/api/v1/transactional`): id
 * `loops`, name `Loops`, links valid for a day. The email is the transactional email
 * `transactionalId`, given the link as its `url` data variable; `from` is not used (Loops' email
 * names its sender). A missing API key or `transactionalId` fails the sending with
 * `InvalidConfig`; a refusal by Loops throws an error with the HTTP status and Loops' answer.
 *
 * @param options - `transactionalId` (required), `apiKey` (default `AUTH_LOOPS_KEY`), `fetch`,
 *   and any email provider option.
 * @example
 * ```ts
 * Loops({ transactionalId: "clfq6dinn000yl70fgwwyp82l" })
 * Loops({ transactionalId: "clfq6dinn000yl70fgwwyp82l", apiKey: env.LOOPS_API_KEY, maxAge: 15 * 60 })
 * ```
 */
export function Loops(options: LoopsOptions = {}): LoopsConfig {
  return emailProvider({ id: "loops", name: "Loops", sendVerificationRequest }, options)
}

export default Loops

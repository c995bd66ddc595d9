/**
 * The relying party of a ceremony: the site, as the provider configures it or the request URL
 * says.
 * @module
 */
import type { RelyingParty, WebAuthnConfig } from "../../providers/types.js"

/** The relying party a ceremony runs under. */
export interface CeremonyParty {
  /** The RP id new options carry. */
  id: string
  name: string
  /** Every RP id a response may be signed for. */
  ids: string[]
  /** Every origin a response may come from. */
  origins: string[]
}

/**
 * The relying party for a request to `url`. Of several configured ids, the one the request's
 * host is or falls under is offered (the browser refuses any other); any of them is accepted.
 * Auth.js takes the first of each list.
 */
export function relyingPartyOf(provider: WebAuthnConfig, url: URL): CeremonyParty {
  const configured: RelyingParty | undefined = provider.relyingParty ?? provider.relayingParty
  const ids = listOf(configured?.id) ?? [url.hostname]
  const host = url.hostname
  return {
    id: ids.find((id) => host === id || host.endsWith(`.${id}`)) ?? (ids[0] as string),
    name: listOf(configured?.name)?.[0] ?? url.host,
    ids,
    origins: listOf(configured?.origin) ?? [url.origin],
  }
}

function listOf(value: string | string[] | undefined): string[] | undefined {
  const list = (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === "string" && item !== "")
  return list.length > 0 ? list : undefined
}

/**
 * `{basePath}/signin`: GET shows the sign-in page, POST `signin/<provider>` starts a sign-in.
 * @module
 */
import { InvalidProvider, MissingCSRF, UnknownAction } from "../../errors.js"
import { keptFieldsDeletion, readKeptFields } from "../credentials/kept-fields.js"
import type { ProviderConfig } from "../../providers/types.js"
import { dispatchByType, type ProviderHandlers } from "../provider-dispatch.js"
import type { ResponseInternal } from "../internal-response.js"
import { pageUrl, routeUrl, type RequestContext } from "../request-context.js"
import { pageContextOf, type PageInputs } from "./page-context.js"

/** The built-in sign-in page, or a redirect to `pages.signIn` carrying `callbackUrl` and `error`. */
export async function signInPage(ctx: PageInputs & Pick<RequestContext, "origin" | "cookies">): Promise<ResponseInternal> {
  // Auth.js serves no page per provider; a GET there is most likely a misconfigured link.
  if (ctx.request.providerId !== undefined) throw new UnknownAction("Unsupported action: GET signin/<provider>")
  const { error, email, username } = ctx.request.query
  if (ctx.config.pages.signIn) {
    const query = new URLSearchParams({ callbackUrl: ctx.callbackUrl })
    if (error) query.set("error", error)
    return { redirect: pageUrl(ctx, "signIn", "signin", query) }
  }
  // What a failed sign-in kept of what was typed (see credentials/kept-fields.ts): shown once.
  const identifier = ctx.cookies.signInIdentifier
  const keptValue = ctx.request.cookies.get(identifier.name)
  const kept = readKeptFields(keptValue)
  // The pages are imported on first use: a session check never renders one.
  const [{ renderSignInPage }, { passkeyScriptHash }] = await Promise.all([import("../pages/index.js"), import("../pages/passkey-script.js")])
  const page = renderSignInPage(pageContextOf(ctx), { error, email, username, ...kept }, await passkeyScriptHash())
  return keptValue === undefined ? page : { ...page, cookies: [...(page.cookies ?? []), keptFieldsDeletion(identifier)] }
}

type SignInStart = Promise<ResponseInternal> | ResponseInternal

/** Providers whose form posts straight to their callback go back to the (built-in) sign-in page, as in Auth.js. */
const toSignInPage = (ctx: Pick<RequestContext, "config" | "origin">): SignInStart => ({ redirect: routeUrl(ctx, "signin") })

/** How each kind of provider starts a sign-in (OAuth and email imported on first use, as in ./callback.ts). */
const start: ProviderHandlers<RequestContext, SignInStart> = {
  credentials: toSignInPage,
  webauthn: toSignInPage,
  oauth: async (ctx, provider) => (await import("../oauth/authorization-url.js")).authorizationRedirect(ctx, provider),
  oidc: async (ctx, provider) => (await import("../oauth/authorization-url.js")).authorizationRedirect(ctx, provider),
  email: async (ctx, provider) => (await import("../email/send-link.js")).sendSignInLink(ctx, provider),
}

/** Starts a sign-in with the provider in the path (CSRF-protected). */
export async function signIn(ctx: RequestContext): Promise<ResponseInternal> {
  if (!ctx.csrfVerified) throw new MissingCSRF("CSRF token was missing during an action signin")
  if (ctx.request.providerId === undefined) return toSignInPage(ctx)
  return dispatchByType(start, ctx, requireProvider(ctx))
}

/** The provider named in the path. @throws {InvalidProvider} when there is none by that id. */
export function requireProvider(ctx: Pick<RequestContext, "config" | "provider" | "request">): ProviderConfig {
  if (ctx.provider) return ctx.provider
  const available = ctx.config.providers.map((provider) => provider.id).join(", ")
  throw new InvalidProvider(
    ctx.request.providerId === undefined
      ? `The ${ctx.request.action} route was called without a provider`
      : `Provider with id ${JSON.stringify(ctx.request.providerId)} not found. Available providers: [${available}]`,
  )
}

/**
 * The second factor's management routes below `two-factor` (CSRF-checked on POST by the route
 * entry): `POST totp` (start an enrolment), `POST totp/confirm` (enable; the recovery codes once),
 * `POST recovery-codes` (regenerate), `POST disable`, `GET status`. Served only with `twoFactor`
 * configured. They act for the signed-in user, and `totp`/`totp/confirm` also for a pending
 * sign-in that must enrol before it gets a session (`mode: "enrol"`); confirming then finishes
 * that sign-in at aal 2. A script's JSON call (see ../request-shape.ts) gets JSON, refusals it can
 * cause as the error's type and a 4xx status; a browser's form post gets pages, and its refusals
 * go to the pages the handler picks for them. No route here begins an enrolment but `totp`.
 * @module
 */
import type { AdapterUser } from "../../adapters/index.js"
import {
  InvalidRequest,
  InvalidTwoFactorCode,
  RecentAuthRequired,
  SessionRequired,
  TwoFactorExpired,
  TwoFactorFailed,
  TwoFactorNotEnrolled,
} from "../../errors.js"
import type { TwoFactorMethod } from "../../types.js"
import { callAdapter } from "../adapter-call.js"
import { emitEvent } from "../events.js"
import { jsonResponse, type ResponseInternal } from "../internal-response.js"
import { isJsonRequest, postedCallbackUrl } from "../request-shape.js"
import { pageUrl, routeUrl, type RequestContext } from "../request-context.js"
import { currentUser } from "../sessions/index.js"
import { checkSecondFactorCode } from "./check-code.js"
import { completePendingSignIn } from "./complete.js"
import { beginTotpEnrolment, confirmTotpEnrolment, currentTotpEnrolment, ENROLMENT_RESTARTED, type StartedEnrolment } from "./enrolment.js"
import { notifyFactorChange } from "./notify.js"
import { clearPending, countAttempt, PENDING_MAX_ATTEMPTS, readPending, type PendingSignIn } from "./pending.js"
import { raiseSessionAuthentication } from "./raise.js"
import { throttleTwoFactorAttempt } from "./rate-limit.js"
import { assertRecentSecondFactor } from "./recent-auth.js"
import { newRecoveryCodes, recoveryCodeHashes } from "./recovery-codes.js"
import { forgetDeviceCookie } from "./trust-device.js"
import { answeringJson, type RefusalStatuses } from "../json-refusal.js"

/** What the status route answers. */
export interface TwoFactorStatus {
  /** Whether a second factor is enabled. */
  enabled: boolean
  /** The methods the user can pass a challenge with: `totp`, and `recovery` while codes are left. */
  methods: TwoFactorMethod[]
  /** When the factor was enabled (ISO 8601), `null` when none is. */
  enabledAt: string | null
  /** Unused recovery codes. */
  recoveryCodesLeft: number
}

/** `GET two-factor/status`: what the signed-in user has enabled, and how many recovery codes are left. */
export function twoFactorStatusRoute(ctx: RequestContext): Promise<ResponseInternal> {
  return answering(ctx, async () => jsonResponse(await twoFactorStatusOf(ctx, await signedInUser(ctx)), { noCache: true }))
}

/** `POST two-factor/<subPath>`: enrol, confirm, regenerate, disable. */
export function twoFactorManagement(ctx: RequestContext): Promise<ResponseInternal> {
  return answering(ctx, async () => {
    switch (ctx.request.subPath) {
      case "totp":
        return enrolRoute(ctx)
      case "totp/confirm":
        return confirmRoute(ctx)
      case "recovery-codes": {
        const { recoveryCodes } = await regenerateCodes(ctx, await signedInUser(ctx))
        if (!isJsonRequest(ctx.request)) return codesPage(ctx, recoveryCodes, postedCallbackUrl(ctx) ?? ctx.callbackUrl)
        return jsonResponse({ recoveryCodes }, { noCache: true })
      }
      case "disable": {
        const body = ctx.request.body ?? {}
        const cookies = await disableFactor(ctx, await signedInUser(ctx), typeof body.code === "string" && body.code !== "" ? { code: body.code, method: body.method } : undefined)
        // A browser's form goes on (to its callbackUrl, or the checked default); a script gets JSON.
        if (!isJsonRequest(ctx.request)) return { redirect: postedCallbackUrl(ctx) ?? ctx.callbackUrl, cookies }
        return jsonResponse({ enabled: false }, { noCache: true, cookies })
      }
      default:
        throw new InvalidRequest(`Cannot handle action: POST two-factor/${ctx.request.subPath ?? ""}`)
    }
  })
}

/** The signed-in user's two-factor standing. */
export async function twoFactorStatusOf(ctx: RequestContext, user: AdapterUser): Promise<TwoFactorStatus> {
  const stored = await callAdapter(ctx.config.adapter, "getTwoFactor", user.id)
  const enabled = Boolean(stored?.enabledAt)
  const recoveryCodesLeft = enabled ? (stored?.recoveryCodesLeft ?? 0) : 0
  const methods: TwoFactorMethod[] = enabled ? ["totp", ...(recoveryCodesLeft > 0 ? (["recovery"] as const) : [])] : []
  return { enabled, methods, enabledAt: stored?.enabledAt ? stored.enabledAt.toISOString() : null, recoveryCodesLeft }
}

/**
 * Starts an enrolment for the signed-in `user`. One who has a factor enabled must have checked it
 * recently: replacing it is as sensitive as removing it.
 *
 * @throws {RecentAuthRequired} for an enrolled user without a recent second factor.
 */
export async function enrolSignedIn(ctx: RequestContext, user: AdapterUser): Promise<StartedEnrolment> {
  await assertRecentSecondFactor(ctx, user.id)
  return beginTotpEnrolment(ctx, user)
}

/**
 * Confirms the signed-in `user`'s enrolment and raises the request's session (a second factor
 * was just shown): the recovery codes, and the cookies of the raised session. Confirming replaces
 * an enabled factor and its recovery codes, so one who has a factor must have checked it
 * recently, as for starting the enrolment: a stale session must not swap the owner's factor.
 *
 * @throws {RecentAuthRequired} for an enrolled user without a recent second factor.
 * @throws {InvalidTwoFactorCode} for a wrong code or no enrolment (of `ref`) under way.
 */
export async function confirmSignedIn(ctx: RequestContext, user: AdapterUser, code: string, ref?: string): Promise<{ recoveryCodes: string[]; cookies: Awaited<ReturnType<typeof raiseSessionAuthentication>> }> {
  await assertRecentSecondFactor(ctx, user.id)
  await throttleTwoFactorAttempt(ctx, user.id)
  const { recoveryCodes } = await confirmTotpEnrolment(ctx, user, code, ref === undefined ? {} : { ref })
  return { recoveryCodes, cookies: await raiseSessionAuthentication(ctx, "totp") }
}

/**
 * New recovery codes for `user`, voiding the old set (and every trusted browser).
 *
 * @throws {TwoFactorNotEnrolled} when no factor is enabled.
 * @throws {RecentAuthRequired} without a recent second factor.
 */
export async function regenerateCodes(ctx: RequestContext, user: AdapterUser): Promise<{ recoveryCodes: string[] }> {
  await requireEnabled(ctx, user)
  await assertRecentSecondFactor(ctx, user.id)
  const recoveryCodes = newRecoveryCodes(ctx.config.twoFactor?.recoveryCodes ?? 0)
  await callAdapter(ctx.config.adapter, "replaceRecoveryCodes", user.id, await recoveryCodeHashes(user.id, recoveryCodes))
  await notifyFactorChange(ctx, user, "recovery-codes-regenerated")
  return { recoveryCodes }
}

/**
 * Disables `user`'s second factor: the secret, the recovery codes and (with the row they were
 * bound to) every trusted browser go. Needs a recent second factor, or a current code given here
 * (counted like any other code tried).
 *
 * @returns The cookies to send: this browser's trust cookie deleted.
 * @throws {TwoFactorNotEnrolled} when no factor is enabled.
 * @throws {InvalidTwoFactorCode} for a wrong code.
 * @throws {RecentAuthRequired} without a code and without a recent second factor.
 */
export async function disableFactor(ctx: RequestContext, user: AdapterUser, proof?: { code: string; method?: unknown }) {
  await requireEnabled(ctx, user)
  if (proof) {
    const method = proof.method === undefined || proof.method === "" ? "totp" : proof.method
    if (method !== "totp" && method !== "recovery") throw new InvalidTwoFactorCode("Unknown second-factor method")
    await throttleTwoFactorAttempt(ctx, user.id)
    if (!(await checkSecondFactorCode(ctx, user.id, method, proof.code))) throw new InvalidTwoFactorCode("The second-factor code is wrong")
  } else {
    await assertRecentSecondFactor(ctx, user.id)
  }
  await callAdapter(ctx.config.adapter, "deleteTwoFactor", user.id)
  await emitEvent(ctx.config, "twoFactorDisabled", { user })
  await notifyFactorChange(ctx, user, "disabled")
  return ctx.config.twoFactor?.trustDevice ? [forgetDeviceCookie(ctx)] : []
}

/** `POST two-factor/totp`: for a pending sign-in that must enrol, or the signed-in user. */
async function enrolRoute(ctx: RequestContext): Promise<ResponseInternal> {
  const signedIn = await currentUser(ctx)
  const pending = signedIn ? undefined : await enrollingPending(ctx)
  const started = pending ? await beginTotpEnrolment(ctx, await pendingEnrollingUser(ctx, pending)) : await enrolSignedIn(ctx, signedIn ?? (await signedInUser(ctx)))
  if (!isJsonRequest(ctx.request)) return enrolPage(ctx, started, { ...(!pending && { callbackUrl: postedCallbackUrl(ctx) ?? ctx.callbackUrl }) })
  const { ref: _ref, ...enrolment } = started
  return jsonResponse(enrolment, { noCache: true })
}

/** `POST two-factor/totp/confirm` with `code` (and, from the enrolment page, `ref`). */
async function confirmRoute(ctx: RequestContext): Promise<ResponseInternal> {
  const body = ctx.request.body ?? {}
  const code = typeof body.code === "string" ? body.code : ""
  const ref = typeof body.ref === "string" && body.ref !== "" ? body.ref : undefined
  const signedIn = await currentUser(ctx)
  const pending = signedIn ? undefined : await enrollingPending(ctx)
  if (pending) return confirmPending(ctx, pending, code, ref)

  const user = signedIn ?? (await signedInUser(ctx))
  const callbackUrl = postedCallbackUrl(ctx) ?? ctx.callbackUrl
  let done: Awaited<ReturnType<typeof confirmSignedIn>>
  try {
    done = await confirmSignedIn(ctx, user, code, ref)
  } catch (error) {
    if (error instanceof InvalidTwoFactorCode && !isJsonRequest(ctx.request)) return enrolPageAgain(ctx, user, ref, { callbackUrl })
    throw error
  }
  if (!isJsonRequest(ctx.request)) return { ...(await codesPage(ctx, done.recoveryCodes, callbackUrl)), cookies: done.cookies }
  return jsonResponse({ recoveryCodes: done.recoveryCodes }, { noCache: true, cookies: done.cookies })
}

/**
 * Confirming the enrolment of a pending sign-in: each try counted as on the challenge (per
 * pending sign-in, server-side, and per client and user), then the sign-in finishes at aal 2
 * with the recovery codes shown before its destination.
 */
async function confirmPending(ctx: RequestContext, pending: PendingSignIn, code: string, ref: string | undefined): Promise<ResponseInternal> {
  const user = await pendingEnrollingUser(ctx, pending)
  await throttleTwoFactorAttempt(ctx, pending.uid)
  const { count, allowed } = await countAttempt(ctx, pending.pid)
  if (!allowed) throw new TwoFactorFailed("Too many wrong codes for this sign-in")
  let recoveryCodes: string[]
  try {
    ;({ recoveryCodes } = await confirmTotpEnrolment(ctx, user, code, ref === undefined ? {} : { ref }))
  } catch (error) {
    if (!(error instanceof InvalidTwoFactorCode)) throw error
    if (count >= PENDING_MAX_ATTEMPTS) {
      ctx.cookiesAlways.push(...clearPending(ctx))
      throw new TwoFactorFailed("Too many wrong codes for this sign-in")
    }
    if (!isJsonRequest(ctx.request)) return enrolPageAgain(ctx, user, ref, {})
    throw error
  }
  return completePendingSignIn(ctx, pending, "totp", { recoveryCodes: { codes: recoveryCodes, json: isJsonRequest(ctx.request) } })
}

/**
 * The enrolment page again after a wrong code: the same secret while it is still the one under
 * way. Otherwise (no `ref`, or started again since, elsewhere) the confirm route starts nothing:
 * the browser goes to `GET two-factor`, which begins an enrolment only for whom that page allows
 * (a pending sign-in that must enrol, a signed-in user without a factor or with a recent check),
 * never showing the other enrolment's secret.
 */
async function enrolPageAgain(ctx: RequestContext, user: AdapterUser, ref: string | undefined, options: { callbackUrl?: string }): Promise<ResponseInternal> {
  const same = ref === undefined ? undefined : await currentTotpEnrolment(ctx, user, ref)
  if (same) return enrolPage(ctx, same, { ...options, error: "That code did not work. Check the app and try the code it shows now." })
  const query = new URLSearchParams({ error: ENROLMENT_RESTARTED })
  if (options.callbackUrl !== undefined) query.set("callbackUrl", options.callbackUrl)
  return { redirect: pageUrl(ctx, "twoFactor", "two-factor", query) }
}

async function enrolPage(ctx: RequestContext, started: StartedEnrolment, options: { callbackUrl?: string; error?: string }): Promise<ResponseInternal> {
  const { renderTwoFactorEnrolPage } = await import("../pages/two-factor-enrol-page.js")
  return renderTwoFactorEnrolPage(ctx.config.theme, {
    ...started,
    action: routeUrl(ctx, "two-factor/totp/confirm"),
    csrfToken: ctx.csrfToken,
    ...(options.callbackUrl !== undefined && { callbackUrl: options.callbackUrl }),
    ...(options.error !== undefined && { error: options.error }),
  })
}

async function codesPage(ctx: RequestContext, recoveryCodes: string[], continueUrl: string): Promise<ResponseInternal> {
  return (await import("../pages/two-factor-enrol-page.js")).renderRecoveryCodesPage(ctx.config.theme, { recoveryCodes, continueUrl })
}

/**
 * The request's pending sign-in when it is one that must enrol; one to challenge is not enrolling.
 * Asked only without a session: starting a pending sign-in clears the session cookie, so a
 * session beside one means a sign-in finished since, and the session's user is the one acting.
 */
async function enrollingPending(ctx: RequestContext): Promise<PendingSignIn | undefined> {
  const pending = await readPending(ctx)
  return pending?.mode === "enrol" ? pending : undefined
}

/**
 * The user of a pending sign-in that must enrol, while they still have no factor: once one is
 * enabled (this sign-in finished, or a replay of its cookie), the pending sign-in enrols nothing,
 * so a copied cookie cannot replace the factor the user just set up.
 */
export async function pendingEnrollingUser(ctx: RequestContext, pending: PendingSignIn): Promise<AdapterUser> {
  const { adapter } = ctx.config
  const user = await callAdapter(adapter, "getUser", pending.uid)
  if (!user) throw new TwoFactorFailed("The user of the pending sign-in no longer exists")
  const stored = await callAdapter(adapter, "getTwoFactor", pending.uid)
  if (stored?.enabledAt) throw new TwoFactorExpired("This sign-in's enrolment is finished; sign in again")
  return user
}

export async function signedInUser(ctx: RequestContext): Promise<AdapterUser> {
  const user = await currentUser(ctx)
  if (!user) throw new SessionRequired("Managing two-step verification needs a signed-in user")
  return user
}

/** Voids every trusted-browser cookie of `user` by raising the trust version they are bound to. */
export async function forgetTrusted(ctx: RequestContext, user: AdapterUser): Promise<void> {
  await requireEnabled(ctx, user)
  await callAdapter(ctx.config.adapter, "incrementTwoFactorTrustVersion", user.id)
}

async function requireEnabled(ctx: RequestContext, user: AdapterUser): Promise<void> {
  const stored = await callAdapter(ctx.config.adapter, "getTwoFactor", user.id)
  if (!stored?.enabledAt) throw new TwoFactorNotEnrolled("No second factor is enabled")
}

const STATUS: RefusalStatuses = [
  [SessionRequired, 401],
  [RecentAuthRequired, 403],
  [TwoFactorNotEnrolled, 409],
  [InvalidTwoFactorCode, 400],
  [InvalidRequest, 400],
]

/**
 * The route's answer, or for a JSON caller the JSON refusal of an error it can cause; form posts
 * and other errors go on to the handler, which picks the page (or the sign-in page for a pending
 * sign-in that failed). `GET status` is a JSON read whoever asks.
 */
function answering(ctx: RequestContext, run: () => Promise<ResponseInternal>): Promise<ResponseInternal> {
  return answeringJson(ctx, STATUS, run, { onlyFor: ({ request }) => request.method !== "POST" || isJsonRequest(request) })
}

/**
 * The trusted-browser cookie: it holds for its user while the stored factor row is unchanged,
 * and for nobody else; disabling, enrolling again or raising the trust version voids it.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import type { Cookie } from "../../src/cookies/defaults.js"
import { resolveConfig } from "../../src/core/config.js"
import { toInternalRequest } from "../../src/core/internal-request.js"
import { createRequestContext, type RequestContext } from "../../src/core/request-context.js"
import { forgetDeviceCookie, readTrustedDevice, trustDeviceCookie, type TrustAnchor } from "../../src/core/two-factor/trust-device.js"
import { encode } from "../../src/jwt/index.js"
import type { AuthConfig } from "../../src/types.js"

const SECRET = "trust-secret-trust-secret-trust-secret"
const baseConfig: AuthConfig = { secret: SECRET, trustHost: true, providers: [] }
const DAY = 24 * 60 * 60
const anchor: TrustAnchor = { userId: "user-1", enabledAt: new Date("2026-01-02T03:04:05.678Z"), trustVersion: 3 }

async function context(cookies: Cookie[] = [], config: AuthConfig = baseConfig, origin = "http://app.test"): Promise<RequestContext> {
  const header = cookies.map((cookie) => `${cookie.name}=${encodeURIComponent(cookie.value)}`).join("; ")
  const request = new Request(`${origin}/auth/signin`, { headers: header ? { cookie: header } : {} })
  return createRequestContext(resolveConfig(config), await toInternalRequest(request, "/auth"))
}

afterEach(() => {
  vi.useRealTimers()
})

describe("trusted browsers", () => {
  it("trusts the browser for its user, with the time the factor was checked", async () => {
    const cookie = await trustDeviceCookie(await context(), anchor, 30 * DAY, 1_700_000_000)
    expect(cookie.name).toBe("authjs.two-factor-trust")
    expect(cookie.options).toMatchObject({ httpOnly: true, sameSite: "lax", path: "/", maxAge: 30 * DAY })
    expect(await readTrustedDevice(await context([cookie]), anchor)).toEqual({ at: 1_700_000_000 })
  })

  it("is __Secure- prefixed on https", async () => {
    const cookie = await trustDeviceCookie(await context([], baseConfig, "https://app.test"), anchor, DAY)
    expect(cookie.name).toBe("__Secure-authjs.two-factor-trust")
    expect(cookie.options.secure).toBe(true)
  })

  it("does not trust the browser for another user", async () => {
    const cookie = await trustDeviceCookie(await context(), anchor, DAY)
    expect(await readTrustedDevice(await context([cookie]), { ...anchor, userId: "user-2" })).toBeUndefined()
  })

  it("is void once the factor is enabled again, disabled, or the trust version raised", async () => {
    const cookie = await trustDeviceCookie(await context(), anchor, DAY)
    const ctx = await context([cookie])
    expect(await readTrustedDevice(ctx, { ...anchor, enabledAt: new Date(anchor.enabledAt!.getTime() + 1) })).toBeUndefined()
    expect(await readTrustedDevice(ctx, { ...anchor, enabledAt: null })).toBeUndefined()
    expect(await readTrustedDevice(ctx, { ...anchor, trustVersion: 4 })).toBeUndefined()
  })

  it("expires after maxAge", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const cookie = await trustDeviceCookie(await context(), anchor, DAY)
    vi.setSystemTime(Date.now() + (DAY + 60) * 1000)
    expect(await readTrustedDevice(await context([cookie]), anchor)).toBeUndefined()
  })

  it("is void under another secret, changed, or when it is another cookie's token", async () => {
    const cookie = await trustDeviceCookie(await context(), anchor, DAY)
    expect(await readTrustedDevice(await context([cookie], { ...baseConfig, secret: "other-secret-other-secret-other-secret" }), anchor)).toBeUndefined()
    expect(await readTrustedDevice(await context([{ ...cookie, value: `${cookie.value.slice(0, -2)}xx` }]), anchor)).toBeUndefined()
    const claims = { v: 1, uid: "user-1", en: anchor.enabledAt!.getTime(), tv: 3, at: 1 }
    const pending = await encode({ token: claims, secret: SECRET, salt: "authjs.two-factor" })
    expect(await readTrustedDevice(await context([{ ...cookie, value: pending }]), anchor)).toBeUndefined()
  })

  it("refuses to trust without an enabled factor or beyond 400 days", async () => {
    await expect(trustDeviceCookie(await context(), { ...anchor, enabledAt: null }, DAY)).rejects.toThrow(TypeError)
    await expect(trustDeviceCookie(await context(), anchor, 401 * DAY)).rejects.toThrow(RangeError)
    await expect(trustDeviceCookie(await context(), anchor, 0)).rejects.toThrow(RangeError)
  })

  it("is forgotten by a deletion under the same name and attributes", async () => {
    expect(forgetDeviceCookie(await context([], baseConfig, "https://app.test"))).toEqual({
      name: "__Secure-authjs.two-factor-trust",
      value: "",
      options: { httpOnly: true, sameSite: "lax", path: "/", secure: true, maxAge: 0 },
    })
  })
})

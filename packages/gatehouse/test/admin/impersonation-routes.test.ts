/**
 * `POST admin/impersonate` and `POST admin/stop-impersonating` through `Auth()` (with
 * `admin.routes`): JSON in and out, CSRF-checked, refusals as `{ error }` with their status.
 * Needs the admin routes' dispatch to these (src/core/admin/routes.ts, the admin part's).
 */
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import type { AdapterUser } from "../../src/adapters/index.js"
import type { AuthConfig, Session } from "../../src/types.js"
import { Client, credentialsConfig } from "../flow/flow-helpers.js"

describe.each(["jwt", "database"] as const)("the impersonation routes under %s sessions", (strategy) => {
  async function setup() {
    const adapter = MemoryAdapter()
    const admin = await adapter.createUser({ name: "Admin", email: "admin@app.test", emailVerified: null })
    const user = await adapter.createUser({ name: "User", email: "user@app.test", emailVerified: null })
    const config: AuthConfig = credentialsConfig({
      adapter,
      session: { strategy },
      admin: { userIds: [admin.id], routes: true },
      providers: [
        {
          id: "credentials",
          name: "Credentials",
          type: "credentials",
          credentials: {},
          authorize: ({ username }) => (username === "admin" ? admin : username === "user" ? user : null) as AdapterUser | null,
          rateLimit: false,
        },
      ],
    })
    return { adapter, admin, user, config }
  }

  it("starts and stops an impersonation as JSON, with the session cookies set", async () => {
    const { admin, user, config } = await setup()
    const client = new Client(config)
    await client.signIn({ username: "admin" })
    const started = await client.postJson("admin/impersonate", { csrfToken: await client.csrfToken(), userId: user.id })
    expect(started.status).toBe(200)
    const body = (await started.json()) as { impersonatedBy: { id: string } }
    expect(body.impersonatedBy.id).toBe(admin.id)
    expect(started.headers.getSetCookie().some((line) => line.startsWith("__Secure-authjs.impersonator="))).toBe(true)
    const session = (await client.session()) as Session
    expect(session.user?.email).toBe(user.email)
    expect(session.impersonatedBy?.id).toBe(admin.id)

    const stopped = await client.postJson("admin/stop-impersonating", { csrfToken: await client.csrfToken() })
    expect(stopped.status).toBe(200)
    expect(await stopped.json()).toEqual({ stopped: true })
    expect(((await client.session()) as Session).user?.email).toBe(admin.email)
  })

  it("answers refusals as JSON with their status, and refuses a post without the CSRF token", async () => {
    const { admin, user, config } = await setup()
    const member = new Client(config)
    await member.signIn({ username: "user" })
    const denied = await member.postJson("admin/impersonate", { csrfToken: await member.csrfToken(), userId: admin.id })
    expect(denied.status).toBe(403)
    expect(await denied.json()).toEqual({ error: "PermissionDenied" })

    const client = new Client(config)
    await client.signIn({ username: "admin" })
    const self = await client.postJson("admin/impersonate", { csrfToken: await client.csrfToken(), userId: admin.id })
    expect(self.status).toBe(403)
    expect(await self.json()).toEqual({ error: "ImpersonationRefused" })
    const nobody = await client.postJson("admin/impersonate", { csrfToken: await client.csrfToken(), userId: "nobody" })
    expect(nobody.status).toBe(404)
    expect(await nobody.json()).toEqual({ error: "UserNotFound" })
    const missing = await client.postJson("admin/impersonate", { csrfToken: await client.csrfToken() })
    expect(missing.status).toBe(400)

    const forged = await client.postJson("admin/impersonate", { userId: user.id })
    expect(forged.status).not.toBe(200)
    expect(forged.headers.getSetCookie().some((line) => line.includes("authjs.impersonator="))).toBe(false)
    expect(((await client.session()) as Session).user?.email).toBe(admin.email)

    const notImpersonating = await client.postJson("admin/stop-impersonating", { csrfToken: await client.csrfToken() })
    expect(notImpersonating.status).toBe(403)
    expect(await notImpersonating.json()).toEqual({ error: "ImpersonationRefused" })
  })
})

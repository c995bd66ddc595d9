/**
 * The `admin` option is checked once, up front: an adapter without the admin API's methods, bad
 * ids, roles or impersonation ages, and JWT sessions that never check their version (a ban could
 * end none) are configuration errors naming what is wrong, before any request is served.
 */
import { describe, expect, it } from "vitest"
import type { Adapter } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { assertConfig } from "../../src/core/assert-config.js"
import { resolveConfig } from "../../src/core/config.js"
import type { AuthConfig } from "../../src/types.js"

const secret = "admin-config-secret-0123456789abcdef0123456789"

function errorOf(config: Partial<AuthConfig>) {
  const { error } = assertConfig(resolveConfig({ secret, trustHost: true, providers: [], ...config } as AuthConfig, {}), { url: "https://app.test/auth/session" })
  return error && { type: error.type, message: error.message }
}

describe("the admin option", () => {
  it("passes with Gatehouse's own adapter, and is not checked at all when off", () => {
    expect(errorOf({ adapter: MemoryAdapter(), admin: { userIds: ["u1"], roles: ["admin", "support"], impersonationMaxAge: 900, routes: true, setPassword: () => {} } })).toBeUndefined()
    expect(errorOf({})).toBeUndefined()
  })

  it("needs an adapter with the user status and search methods, naming those missing", () => {
    expect(errorOf({ admin: {} })?.type).toBe("MissingAdapter")
    const { searchUsers: _search, banUser: _ban, ...partial } = MemoryAdapter()
    expect(errorOf({ adapter: partial as Adapter, admin: {} })).toEqual({ type: "MissingAdapterMethods", message: expect.stringMatching(/banUser, searchUsers$/) })
  })

  it("needs the delete, the audit-log read and the session revocation of the strategy in use", () => {
    const { deleteUser: _delete, listAuditEntries: _list, ...withoutDelete } = MemoryAdapter()
    expect(errorOf({ adapter: withoutDelete as Adapter, admin: {} })).toEqual({ type: "MissingAdapterMethods", message: expect.stringMatching(/deleteUser, listAuditEntries$/) })
    const { incrementSessionVersion: _raise, getSessionVersion: _read, ...withoutVersions } = MemoryAdapter()
    expect(errorOf({ adapter: withoutVersions as Adapter, admin: {}, session: { strategy: "jwt" } })).toEqual({
      type: "MissingAdapterMethods",
      message: expect.stringMatching(/getSessionVersion, incrementSessionVersion$/),
    })
    // Database sessions end by their rows: versions are not needed there, the rows' delete is.
    expect(errorOf({ adapter: withoutVersions as Adapter, admin: {}, session: { strategy: "database" } })).toBeUndefined()
    const { deleteSessionsByUserId: _rows, ...withoutRows } = MemoryAdapter()
    expect(errorOf({ adapter: withoutRows as Adapter, admin: {}, session: { strategy: "database" } })).toEqual({ type: "MissingAdapterMethods", message: expect.stringMatching(/deleteSessionsByUserId$/) })
    expect(errorOf({ adapter: withoutRows as Adapter, admin: {}, session: { strategy: "jwt" } })).toBeUndefined()
  })

  it.each([
    [{ userIds: "u1" }, "admin.userIds"],
    [{ userIds: [""] }, "admin.userIds"],
    [{ roles: [42] }, "admin.roles"],
    [{ impersonationMaxAge: 3601 }, "admin.impersonationMaxAge"],
    [{ impersonationMaxAge: 59 }, "admin.impersonationMaxAge"],
    [{ impersonationMaxAge: 90.5 }, "admin.impersonationMaxAge"],
    [{ routes: "yes" }, "admin.routes"],
    [{ setPassword: "bcrypt" }, "admin.setPassword"],
  ])("rejects admin %j as InvalidConfig", (admin, mention) => {
    const result = errorOf({ adapter: MemoryAdapter(), admin: admin as AuthConfig["admin"] })
    expect(result?.type).toBe("InvalidConfig")
    expect(result?.message).toContain(mention)
  })

  it("refuses JWT sessions never checked for revocation: a ban would end none of them", () => {
    const result = errorOf({ adapter: MemoryAdapter(), admin: {}, session: { strategy: "jwt", revocationCheckAge: false } })
    expect(result).toEqual({ type: "InvalidConfig", message: expect.stringContaining("revocationCheckAge") })
    expect(errorOf({ adapter: MemoryAdapter(), admin: {}, session: { strategy: "database", revocationCheckAge: false } })).toBeUndefined()
  })
})

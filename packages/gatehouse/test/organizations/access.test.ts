/**
 * defineAccess and can: the built-in roles and statements merged with the app's, configurations
 * refused at once, and a check that fails closed; the browser client's copy of `can` answers
 * exactly as the server's.
 */
import { describe, expect, it } from "vitest"
import { can as browserCan } from "../../src/client/organizations.js"
import { InvalidConfig } from "../../src/errors.js"
import { can, defineAccess } from "../../src/index.js"

const access = defineAccess({ project: ["create", "delete"], member: ["ban"] }, { roles: { editor: { project: ["create"] }, moderator: { member: ["ban", "remove"] } } })

function session(permissions: string[], unmet: string[] = []) {
  return { user: { email: "ada@app.test" }, expires: "2100-01-01T00:00:00.000Z", activeOrganization: { id: "o", slug: "o", name: "O", role: "editor", permissions, unmet } }
}

describe("defineAccess", () => {
  it("merges the app's statements with the built-in ones and gives owner everything, admin all but organization:delete, member none", () => {
    expect(access.statements).toEqual({
      organization: ["update", "delete"],
      member: ["update", "remove", "ban"],
      invitation: ["create", "revoke"],
      audit: ["read"],
      project: ["create", "delete"],
    })
    expect(access.roles.owner).toEqual(expect.arrayContaining(["organization:delete", "project:delete", "member:ban"]))
    expect(access.roles.owner).toHaveLength(10)
    expect(access.roles.admin).toContain("audit:read")
    // Inviting is `invitation:create`; no `member:invite` that nothing checks.
    expect(access.roles.owner).not.toContain("member:invite")
    expect(access.roles.admin).not.toContain("organization:delete")
    expect(access.roles.admin).toHaveLength(9)
    expect(access.roles.member).toEqual([])
    expect(access.roles.editor).toEqual(["project:create"])
    expect(access.roles.moderator).toEqual(["member:ban", "member:remove"])
  })

  it.each([["owner"], ["admin"], ["member"]])("refuses an app role named %s", (name) => {
    expect(() => defineAccess({}, { roles: { [name]: {} } })).toThrow(InvalidConfig)
  })

  it("refuses a role naming a resource or an action no statement declares", () => {
    expect(() => defineAccess({ project: ["create"] }, { roles: { editor: { projects: ["create"] } } as never })).toThrow(/resource "projects"/)
    expect(() => defineAccess({ project: ["create"] }, { roles: { editor: { project: ["delete"] } } as never })).toThrow(/"project:delete", which no statement declares/)
  })

  it("keeps a role named __proto__ or constructor as a name: no prototype is changed or read", () => {
    const odd = defineAccess({ project: ["create"] }, { roles: JSON.parse('{"__proto__": {"project": ["create"]}, "constructor": {}}') as Record<string, never> })
    expect(Object.getPrototypeOf(odd.roles)).toBeNull()
    expect(odd.roles["__proto__"]).toEqual(["project:create"])
    expect(odd.roles.constructor).toEqual([])
    expect(Object.hasOwn(defineAccess({}, { roles: {} }).roles, "toString")).toBe(false)
  })

  it("refuses malformed statements", () => {
    expect(() => defineAccess({ "pro:ject": ["create"] }, { roles: {} })).toThrow(InvalidConfig)
    expect(() => defineAccess({ project: [] }, { roles: {} })).toThrow(InvalidConfig)
    expect(() => defineAccess({ project: ["a b"] }, { roles: {} })).toThrow(InvalidConfig)
    expect(() => defineAccess({ project: ["create"] }, undefined as never)).toThrow(InvalidConfig)
  })
})

describe("can", () => {
  const cases: [string, unknown, string, boolean][] = [
    ["no session", null, "project:create", false],
    ["an undefined session", undefined, "project:create", false],
    ["no active organization", { user: {}, activeOrganization: null }, "project:create", false],
    ["a session without the field", { user: {} }, "project:create", false],
    ["the permission held", session(["project:create"]), "project:create", true],
    ["a permission not held", session(["project:create"]), "project:delete", false],
    ["an unmet policy requirement", session(["project:create"], ["two-factor"]), "project:create", false],
    ["a malformed unmet list", { activeOrganization: { permissions: ["project:create"], unmet: "two-factor" } }, "project:create", false],
    ["malformed permissions", { activeOrganization: { permissions: "project:create", unmet: [] } }, "project:create", false],
    ["a permission that is no resource:action", session(["project"]), "project", false],
    ["a non-string permission", session(["project:create"]), 42 as unknown as string, false],
  ]

  it.each(cases)("answers %s: server and browser alike", (_name, value, permission, expected) => {
    expect(can(value as never, permission)).toBe(expected)
    expect(browserCan(value as never, permission)).toBe(expected)
  })

  it("access.can also refuses a permission no statement declares, even when the session lists it", () => {
    expect(access.can(session(["project:create"]), "project:create")).toBe(true)
    expect(access.can(session(["project:archive"]), "project:archive" as never)).toBe(false)
    expect(can(session(["project:archive"]), "project:archive")).toBe(true)
  })
})

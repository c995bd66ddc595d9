/**
 * `access.can` completes the app's permissions and refuses others at compile time; the
 * standalone `can` takes the built-in ones and any "resource:action" string. Checked by
 * `npm run check` (tsc over the tests). Nothing runs.
 */
import { expectTypeOf } from "vitest"
import { can, defineAccess, type BuiltInPermission, type Permission } from "../../src/index.js"

const access = defineAccess({ project: ["create", "delete"] }, { roles: { editor: { project: ["create"] } } })
declare const session: Parameters<typeof can>[0]

access.can(session, "project:delete")
access.can(session, "organization:update")
// @ts-expect-error: no statement declares project:archive
access.can(session, "project:archive")
// @ts-expect-error: not a resource of the statements
access.can(session, "billing:read")

defineAccess({ project: ["create"] }, {
  // @ts-expect-error: a role may only name declared actions
  roles: { editor: { project: ["delete"] } },
})

can(session, "member:update")
// @ts-expect-error: inviting is invitation:create; there is no member:invite
expectTypeOf<"member:invite">().toMatchTypeOf<BuiltInPermission>()
expectTypeOf<Permission<{ project: readonly ["create", "delete"] }>>().toEqualTypeOf<"project:create" | "project:delete">()
expectTypeOf<"organization:delete">().toMatchTypeOf<BuiltInPermission>()

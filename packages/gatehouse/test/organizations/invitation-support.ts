/**
 * What the invitation and policy tests share: an organization seeded through the adapter (owner,
 * admin, member, and an invitee who is nobody's member yet), browsers signed in as any of them
 * through a credentials provider (username = user id), and invitations stored with a token this
 * file knows (its hash computed here with node:crypto, apart from the library).
 */
import { createHash, randomBytes } from "node:crypto"
import { expect } from "vitest"
import type { AdapterInvitation, AdapterOrganization, AdapterUser, OrganizationStore, StoredAdapter } from "../../src/adapters/index.js"
import type { CredentialsConfig } from "../../src/providers/types.js"
import type { AuthConfig } from "../../src/types.js"
import { Client, recordingLogger, secret } from "../flow/flow-helpers.js"

/** Gatehouse's own adapters: every method, the organization ones included. */
export type FullAdapter = StoredAdapter & OrganizationStore

export const SESSION_COOKIE = "__Secure-authjs.session-token"

/** The people of one seeded organization. */
export interface Seeded {
  adapter: FullAdapter
  organization: AdapterOrganization
  owner: AdapterUser
  admin: AdapterUser
  member: AdapterUser
  /** Not a member; proven address. */
  invitee: AdapterUser
  /** Not a member of the organization, member of none. */
  outsider: AdapterUser
}

/** A fresh user with a proven address at `domain` (or unproven with `verified: false`). */
export async function newUser(adapter: FullAdapter, domain = "app.test", verified = true, name = "Someone"): Promise<AdapterUser> {
  return adapter.createUser({ id: crypto.randomUUID(), name, email: `${randomBytes(6).toString("hex")}@${domain}`, emailVerified: verified ? new Date() : null })
}

/** An organization with an owner, an admin and a member, and two users who belong to none of it. */
export async function seed(adapter: FullAdapter, policy: AdapterOrganization["policy"] = null): Promise<Seeded> {
  const owner = await newUser(adapter, "app.test", true, "Olive Owner")
  const created = await adapter.createOrganization({ name: "Acme Corp", slug: `acme-${randomBytes(5).toString("hex")}`, policy }, owner.id)
  if (typeof created !== "object") throw new Error("slug taken")
  const admin = await newUser(adapter)
  const member = await newUser(adapter)
  await adapter.addMember({ organizationId: created.id, userId: admin.id, role: "admin" })
  await adapter.addMember({ organizationId: created.id, userId: member.id, role: "member" })
  return { adapter, organization: created, owner, admin, member, invitee: await newUser(adapter), outsider: await newUser(adapter) }
}

/** Signs in as `userId` by username. */
export function credentialsFor(adapter: FullAdapter): CredentialsConfig {
  return {
    id: "credentials",
    name: "Credentials",
    type: "credentials",
    credentials: {},
    authorize: async ({ username }) => {
      const user = typeof username === "string" ? await adapter.getUser(username) : null
      return user ? { id: user.id, email: user.email } : null
    },
    rateLimit: false,
  }
}

/** A configuration with organizations (and their routes) on, database sessions, and `extra` over it. */
export function orgConfig(adapter: FullAdapter, extra: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret,
    trustHost: true,
    logger: recordingLogger().logger,
    adapter,
    providers: [credentialsFor(adapter)],
    organizations: { routes: true },
    ...extra,
  }
}

/** A browser signed in as `user`. */
export async function signedIn(config: AuthConfig, user: AdapterUser | null): Promise<Client> {
  const client = new Client(config)
  if (user) {
    await client.postForm("callback/credentials", { csrfToken: await client.csrfToken(), username: user.id })
    expect(client.jar.get(SESSION_COOKIE)).toBeDefined()
  }
  return client
}

/** A server-side request of the app carrying `client`'s cookies (what the server functions take). */
export function appRequest(client: Client): Request {
  return new Request("https://app.test/app/team", { headers: { cookie: client.jar.header() } })
}

/** The stored key of an invitation token, computed apart from the library: SHA-256, lower-case hex. */
export function tokenHashOf(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex")
}

/** A pending invitation stored through the adapter, with its token. */
export async function storedInvitation(
  seeded: Seeded,
  fields: Partial<Pick<AdapterInvitation, "email" | "role" | "expiresAt">> = {},
): Promise<{ token: string; invitation: AdapterInvitation }> {
  const token = randomBytes(32).toString("base64url")
  const invitation = await seeded.adapter.createInvitation({
    organizationId: seeded.organization.id,
    email: fields.email ?? seeded.invitee.email,
    role: fields.role ?? "member",
    inviterId: seeded.owner.id,
    tokenHash: tokenHashOf(token),
    expiresAt: fields.expiresAt ?? new Date(Date.now() + 3_600_000),
  })
  return { token, invitation }
}

/** The organization's audit actions, oldest first. */
export async function auditActions(seeded: Seeded): Promise<string[]> {
  const entries = await seeded.adapter.listAuditEntries({ organizationId: seeded.organization.id, limit: 100 })
  return entries.map((entry) => entry.action).reverse()
}

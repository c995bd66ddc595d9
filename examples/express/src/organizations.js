// @ts-check
/**
 * The demo's organization pages, built on the server functions of `gatehouse-auth`: create an
 * organization, invite by email (the link lands in the demo's inbox), accept on the demo's own
 * invitation page, list members, switch the active organization, and delete, which only owners
 * may do: a member's try is refused by the server, whatever the page shows.
 *
 * Every form posts to the demo itself; the server functions take no CSRF token (the caller is the
 * app's own server), so these routes refuse a POST whose `Origin` is not the demo's.
 */
import express from "express"
import {
  acceptInvitation,
  can,
  createOrganization,
  deleteOrganization,
  getOrganization,
  inviteMember,
  listMembers,
  listOrganizations,
  setActiveOrganization,
} from "gatehouse-auth"
import { requireAuth } from "gatehouse-auth/express"
import { prepareConfig } from "gatehouse-auth/framework"
import { escapeHtml, page } from "./pages.js"

/** What each refusal of the server functions is answered with (their `type`). */
const STATUS = /** @type {Record<string, number>} */ ({
  SessionRequired: 401,
  PermissionDenied: 403,
  OrganizationNotFound: 404,
  SlugTaken: 409,
  LastOwner: 409,
  InvitationInvalid: 410,
  InvalidRequest: 400,
})

/** Words for the refusals a person can meet on these pages. */
const REFUSAL = /** @type {Record<string, string>} */ ({
  PermissionDenied: "Your role in this organization does not allow that.",
  OrganizationNotFound: "No such organization, or you are not a member of it.",
  SlugTaken: "Another organization has that slug.",
  LastOwner: "An organization keeps at least one owner.",
  InvitationInvalid: "This invitation cannot be used: it expired, was answered or revoked, or was sent to another address.",
  InvalidRequest: "That was not accepted:",
})

/**
 * The organization routes, mounted at `/organizations` after `authSession` (and after the demo's
 * check of the Host header, which the URLs below are built from).
 * @param {import("gatehouse-auth/express").ServerAuthConfig} config the app's auth config (with `organizations`)
 * @param {string[]} origins the demo's origins: POSTs from anywhere else are refused
 */
export function organizationRoutes(config, origins) {
  // The server functions take the config as `Auth()` does: with the secret and host settings of
  // the environment, under `/auth` as ServerAuth serves it.
  const { config: authConfig } = prepareConfig(config, process.env, { basePath: "/auth" })
  const router = express.Router()
  router.use(requireAuth(config))
  router.use(express.urlencoded({ extended: false }))
  router.use((req, res, next) => {
    if (req.method !== "POST" || origins.includes(req.headers.origin ?? "")) return next()
    res.status(403).send(page("Refused", `<p id="refusal">Forms are accepted only from this site.</p>`, { signedIn: true }))
  })

  /** The request as the server functions read it: its URL and headers (the session cookie). */
  const sessionRequest = (/** @type {express.Request} */ req) => {
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value)
    }
    return { url: new URL(req.originalUrl, `http://${req.headers.host}`), headers }
  }

  /** The organization id of the route (`/:id`). */
  const idOf = (/** @type {express.Request} */ req) => String(req.params.id ?? "")

  /** Runs a page's work; a refusal of the server functions becomes a page with its status. */
  const handle = (/** @type {(req: express.Request, res: express.Response) => Promise<void>} */ work) =>
    /** @type {express.RequestHandler} */ (async (req, res) => {
      try {
        await work(req, res)
      } catch (error) {
        const type = /** @type {{ type?: unknown }} */ (error)?.type
        if (typeof type !== "string" || !(type in STATUS)) {
          // Anything else is a fault: logged here, and no stack trace in the page (Express's own
          // error page would show one outside production).
          console.error(error)
          res.status(500).send(page("Something went wrong", `<p id="refusal">The demo could not do that; its console says why.</p>`, { signedIn: true }))
          return
        }
        const detail = type === "InvalidRequest" ? ` ${escapeHtml(/** @type {Error} */ (error).message)}` : ""
        res.status(STATUS[type] ?? 400).send(
          page("Refused", `<p id="refusal" data-type="${escapeHtml(type)}">${escapeHtml(REFUSAL[type] ?? type)}${detail}</p><p><a href="/organizations">Your organizations</a></p>`, {
            signedIn: true,
          }),
        )
      }
    })

  router.get(
    "/",
    handle(async (req, res) => {
      const memberships = await listOrganizations(sessionRequest(req), authConfig)
      const active = res.locals.session?.activeOrganization ?? null
      const rows = memberships.map(({ organization, role }) => {
        const isActive = active?.id === organization.id
        return `<li class="organization" data-slug="${escapeHtml(organization.slug)}"><a href="/organizations/${encodeURIComponent(organization.id)}">${escapeHtml(organization.name)}</a>
  <span class="muted">(${escapeHtml(role)})</span>${isActive ? ` <strong>active</strong>` : ""}
  <form method="POST" action="/organizations/active" style="display: inline"><input type="hidden" name="organizationId" value="${escapeHtml(organization.id)}">
    <button ${isActive ? "disabled" : ""}>Switch to ${escapeHtml(organization.name)}</button></form></li>`
      })
      res.send(
        page(
          "Organizations",
          `<p id="active">Active organization: ${active ? `<strong>${escapeHtml(active.name)}</strong> (${escapeHtml(active.role)})` : "none"}.</p>
<ul id="organizations">${rows.join("\n") || `<li class="muted">You are in no organization yet.</li>`}</ul>
<h2>Create an organization</h2>
<form method="POST" action="/organizations">
  <label>Name <input name="name" required maxlength="200"></label>
  <label>Slug <input name="slug" required pattern="[a-z0-9]+(-[a-z0-9]+)*" title="lower-case letters, digits and inner hyphens"></label>
  <button>Create organization</button>
</form>`,
          { signedIn: true },
        ),
      )
    }),
  )

  router.post(
    "/",
    handle(async (req, res) => {
      const organization = await createOrganization(sessionRequest(req), authConfig, { name: String(req.body.name ?? ""), slug: String(req.body.slug ?? "") })
      res.redirect(303, `/organizations/${encodeURIComponent(organization.id)}`)
    }),
  )

  router.post(
    "/active",
    handle(async (req, res) => {
      const id = typeof req.body.organizationId === "string" && req.body.organizationId !== "" ? req.body.organizationId : null
      const { setCookies } = await setActiveOrganization(sessionRequest(req), authConfig, id)
      // Under JWT sessions the cookie is written again; under database sessions there is none.
      if (setCookies.length > 0) res.append("Set-Cookie", setCookies)
      res.redirect(303, "/organizations")
    }),
  )

  // The invitation link of the email (organizations.invitationPage): GET shows, only POST answers,
  // so a mail scanner opening the link accepts nothing.
  router.get("/invitation", (req, res) => {
    const token = typeof req.query.token === "string" ? req.query.token : ""
    res.send(
      page(
        "Invitation",
        `<p>You were invited to an organization. Accepting makes you a member, as the role the invitation names.</p>
<form method="POST" action="/organizations/invitation"><input type="hidden" name="token" value="${escapeHtml(token)}"><button>Accept the invitation</button></form>`,
        { signedIn: true },
      ),
    )
  })

  router.post(
    "/invitation",
    handle(async (req, res) => {
      const { organization } = await acceptInvitation(sessionRequest(req), authConfig, String(req.body.token ?? ""))
      res.redirect(303, `/organizations/${encodeURIComponent(organization.id)}`)
    }),
  )

  router.get(
    "/:id",
    handle(async (req, res) => {
      const request = sessionRequest(req)
      const organization = await getOrganization(request, authConfig, idOf(req))
      const after = typeof req.query.after === "string" ? req.query.after : undefined
      const { members, nextCursor } = await listMembers(request, authConfig, organization.id, { limit: 50, after })
      const session = res.locals.session
      const isActive = session?.activeOrganization?.id === organization.id
      const base = `/organizations/${encodeURIComponent(organization.id)}`
      // What the page offers follows the role (can, for the active organization); what is allowed
      // is decided by the server function, which checks again.
      const mayInvite = organization.permissions.includes("invitation:create")
      const mayDelete = isActive ? can(session, "organization:delete") : organization.permissions.includes("organization:delete")
      res.send(
        page(
          organization.name,
          `<p id="role">Your role: <strong>${escapeHtml(organization.role)}</strong>${isActive ? " (the active organization)" : ""}.</p>
<h2>Members</h2>
<ul id="members">${members
            .map((member) => `<li class="member">${escapeHtml(member.user.name ?? member.user.email)} &lt;${escapeHtml(member.user.email)}&gt; <span class="muted">${escapeHtml(member.role)}</span></li>`)
            .join("\n")}</ul>
${nextCursor ? `<p><a href="${base}?after=${encodeURIComponent(nextCursor)}">Next 50 members</a></p>` : ""}
${
  mayInvite
    ? `<h2>Invite by email</h2>
<form method="POST" action="${base}/invitations">
  <label>Email <input name="email" type="email" required></label>
  <label>Role <select name="role"><option>member</option><option>admin</option></select></label>
  <button>Send invitation</button>
</form>`
    : ""
}
<h2>Delete the organization</h2>
<p class="muted" id="delete-hint">${mayDelete ? "As an owner you may delete it." : "Only owners may delete it; the server refuses anyone else."}</p>
<form method="POST" action="${base}/delete"><button>Delete ${escapeHtml(organization.name)}</button></form>`,
          { signedIn: true },
        ),
      )
    }),
  )

  router.post(
    "/:id/invitations",
    handle(async (req, res) => {
      const { invitation, emailed } = await inviteMember(sessionRequest(req), authConfig, {
        organizationId: idOf(req),
        email: String(req.body.email ?? ""),
        role: String(req.body.role ?? "member"),
      })
      res.send(
        page(
          "Invitation sent",
          `<p id="invited">${escapeHtml(invitation.email)} is invited as ${escapeHtml(invitation.role)}${emailed ? "; the link is in the <a href=\"/dev/inbox\">inbox</a>" : ""}.</p>
<p><a href="/organizations/${encodeURIComponent(idOf(req))}">Back to the organization</a></p>`,
          { signedIn: true },
        ),
      )
    }),
  )

  router.post(
    "/:id/delete",
    handle(async (req, res) => {
      await deleteOrganization(sessionRequest(req), authConfig, idOf(req))
      res.redirect(303, "/organizations")
    }),
  )

  return router
}

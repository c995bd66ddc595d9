/**
 * The demo's organization pages in headless Chromium, two people in two browser contexts: the
 * demo account creates an organization and invites a second address by email; its owner signs in
 * with an email link, opens the invitation from the inbox (the demo's SMTP capture), accepts,
 * switches to the organization, and is refused the owner's action (delete), which its owner then does.
 */
import type { Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { DEMO_EMAIL, DEMO_PASSWORD } from "../src/demo.js"
import { useDemoInChromium } from "./demo-in-chromium.js"

const running = useDemoInChromium("gatehouse-demo-organizations-")

/** A fresh browser context: a person of their own, with their own cookies. */
async function person(): Promise<Page> {
  return (await running.browser.newContext()).newPage()
}

/** The first link in the newest mail to `to` whose text has `marker`, once it has arrived. */
async function mailedLink(to: string, marker: string): Promise<string> {
  let link: string | undefined
  await expect
    .poll(() => {
      const mail = running.demo.mail.messages.find((message) => message.to === to && message.text.includes(marker))
      link = mail?.text.match(/https?:\/\/\S+/)?.[0]
      return link
    })
    .toBeTruthy()
  return link!
}

/** The session as the demo's protected page shows it. */
async function sessionOf(page: Page): Promise<{ user?: { email?: string }; activeOrganization?: Record<string, unknown> | null }> {
  await page.goto(`${running.demo.url}/protected`)
  return JSON.parse((await page.locator("#session").textContent()) ?? "null")
}

/** Clicks a form's button and answers the status of the POST it sends (303 when it redirects), once the page it leads to has loaded. */
async function submit(page: Page, button: string): Promise<number> {
  const [response] = await Promise.all([
    page.waitForResponse((answer) => answer.request().method() === "POST" && answer.request().isNavigationRequest()),
    page.getByRole("button", { name: button, exact: true }).click(),
  ])
  await page.waitForLoadState()
  return response.status()
}

describe("organizations in the demo, in a browser", () => {
  it("creates an organization, invites by email, accepts, switches, and refuses a member the owner's action", async () => {
    const invitee = "second.user@example.com"
    const owner = await person()

    // The demo account signs in and creates an organization: it becomes its owner.
    await owner.goto(`${running.demo.url}/organizations`, { waitUntil: "commit" })
    await owner.waitForURL(/\/auth\/signin/)
    await owner.getByRole("group", { name: "Demo account" }).getByLabel("Email").fill(DEMO_EMAIL)
    await owner.getByLabel("Password").fill(DEMO_PASSWORD)
    await owner.getByRole("button", { name: "Sign in with Demo account" }).click()
    await owner.waitForURL(`${running.demo.url}/organizations`)
    await owner.getByLabel("Name").fill("Acme Robotics")
    await owner.getByLabel("Slug").fill("acme-robotics")
    await owner.getByRole("button", { name: "Create organization" }).click()
    await owner.waitForURL(/\/organizations\/[^/]+$/)
    const organizationUrl = owner.url()
    expect(await owner.locator("#role").textContent()).toContain("owner")
    expect(await owner.locator("#members .member").allTextContents()).toEqual([expect.stringContaining(DEMO_EMAIL)])

    // It invites a second address; the link arrives by email, to the demo's own page.
    await owner.getByLabel("Email").fill(invitee)
    expect(await submit(owner, "Send invitation")).toBe(200)
    expect(await owner.locator("#invited").textContent()).toContain(invitee)
    const invitation = await mailedLink(invitee, "/organizations/invitation?token=")
    expect(invitation.startsWith(`${running.demo.url}/organizations/invitation?token=`)).toBe(true)

    // The second person, in a browser of their own, signs in with an email link to that address.
    const member = await person()
    await member.goto(`${running.demo.url}/auth/signin`, { waitUntil: "commit" })
    await member.getByLabel("Email for a sign-in link").fill(invitee)
    await member.getByRole("button", { name: "Sign in with Email" }).click()
    await member.waitForURL(/\/dev\/inbox/)
    await member.goto(await mailedLink(invitee, "/auth/callback/"))
    await member.getByRole("button", { name: /sign in/i }).click()
    await member.waitForURL(`${running.demo.url}/`)
    expect((await sessionOf(member)).user?.email).toBe(invitee)

    // Opens the invitation's link and accepts it: a member now, beside the owner.
    await member.goto(invitation)
    expect(await submit(member, "Accept the invitation")).toBe(303)
    expect(member.url()).toBe(organizationUrl)
    expect(await member.locator("#role").textContent()).toContain("member")
    const members = await member.locator("#members .member").allTextContents()
    expect(members).toHaveLength(2)
    expect(members.join("\n")).toContain(DEMO_EMAIL)
    expect(members.join("\n")).toContain(invitee)
    // The link was single use: the same link again is refused.
    await member.goto(invitation)
    expect(await submit(member, "Accept the invitation")).toBe(410)

    // Switches to the organization: the session now carries it, as a member without the owner's permissions.
    await member.goto(`${running.demo.url}/organizations`)
    expect(await member.locator("#active").textContent()).toContain("none")
    expect(await submit(member, "Switch to Acme Robotics")).toBe(303)
    expect(await member.locator("#active").textContent()).toContain("Acme Robotics")
    const switched = await sessionOf(member)
    expect(switched.activeOrganization).toMatchObject({ name: "Acme Robotics", slug: "acme-robotics", role: "member" })
    expect(switched.activeOrganization?.permissions).not.toContain("organization:delete")

    // The owner's action: the page says it is not theirs, and the server refuses it.
    await member.goto(organizationUrl)
    expect(await member.locator("#delete-hint").textContent()).toContain("Only owners")
    expect(await submit(member, "Delete Acme Robotics")).toBe(403)
    expect(await member.locator("#refusal").getAttribute("data-type")).toBe("PermissionDenied")
    // Nor may another site post the owner's form with the owner's cookies.
    const forged = await owner.context().request.post(`${organizationUrl}/delete`, { headers: { origin: "http://attacker.example" }, maxRedirects: 0 })
    expect(forged.status()).toBe(403)
    // Nothing was deleted: the owner still sees both members.
    await owner.goto(organizationUrl)
    expect(await owner.locator("#members .member").count()).toBe(2)

    // The same action by the owner goes through, and the member's page of it is gone.
    expect(await submit(owner, "Delete Acme Robotics")).toBe(303)
    expect(owner.url()).toBe(`${running.demo.url}/organizations`)
    expect(await owner.locator("#organizations .organization").count()).toBe(0)
    expect((await member.goto(organizationUrl))?.status()).toBe(404)
    expect((await sessionOf(member)).activeOrganization ?? null).toBeNull()

    await owner.context().close()
    await member.context().close()
  }, 90_000)
})

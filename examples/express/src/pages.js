// @ts-check
/** The demo's own pages: plain template strings, every value escaped. */

/** @param {string} value */
export function escapeHtml(value) {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

/**
 * @typedef {object} PageOptions
 * @property {string} [head] extra HTML for <head>
 * @property {string} [site] the demo's origin, for pages served elsewhere (the dev OpenID provider's)
 * @property {boolean} [signedIn] shows "Sign out" or "Sign in" in the navigation; neither when unknown
 */

/**
 * @param {string} title
 * @param {string} body HTML, already escaped
 * @param {PageOptions} [options]
 */
export function page(title, body, { head = "", site = "", signedIn } = {}) {
  const link = (/** @type {string} */ path, /** @type {string} */ text) => `<a href="${escapeHtml(site + path)}">${text}</a>`
  // Signing out here always lands on the home page: without a callbackUrl it would go back to the
  // page signed in for (the callback-url cookie), and from there, if protected, to the sign-in page.
  const account = signedIn === undefined ? "" : signedIn ? link("/auth/signout?callbackUrl=%2F", "Sign out") : link("/auth/signin", "Sign in")
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Gatehouse demo</title>
<link rel="icon" href="data:,">
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { max-width: 44rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; }
  nav { display: flex; flex-wrap: wrap; gap: 1rem; padding-bottom: .75rem; border-bottom: 1px solid #8884; margin-bottom: 1.5rem; }
  nav strong { margin-right: auto; }
  pre { background: #8881; padding: .75rem; overflow-x: auto; border-radius: 6px; }
  .mail pre { white-space: pre-wrap; overflow-wrap: anywhere; }
  form { display: grid; gap: .5rem; max-width: 22rem; }
  label { display: grid; }
  button { padding: .4rem .8rem; width: fit-content; }
  .card { border: 1px solid #8884; border-radius: 8px; padding: .75rem 1rem; margin: .75rem 0; }
  .muted { opacity: .7; }
</style>${head}</head>
<body>
<nav><strong>Gatehouse demo</strong>${link("/", "Home")}${link("/protected", "Protected page")}${link("/organizations", "Organizations")}${link("/api/me", "API")}${link("/dev/inbox", "Inbox")}${account}</nav>
<h1>${escapeHtml(title)}</h1>
${body}
</body></html>`
}

/** @typedef {import("gatehouse-auth").Session} Session */

/**
 * @param {Session | null | undefined} session
 * @param {{ demoEmail: string, demoPassword: string }} demo
 */
export function homePage(session, demo) {
  if (session?.user) {
    const user = session.user
    return page(
      "Home",
      `<p id="status">Signed in as <strong>${escapeHtml(user.name ?? user.email ?? "someone")}</strong>${user.email ? ` (${escapeHtml(user.email)})` : ""}.</p>
<ul>
  <li><a href="/protected">The protected page</a> shows your session.</li>
  <li><a href="/api/me">/api/me</a> answers with your user as JSON (401 without a session).</li>
  <li><button type="button" id="add-passkey">Add a passkey to this account</button> <span id="passkey-result" class="muted"></span></li>
</ul>
<script type="module">
  import { signIn } from "/assets/gatehouse-webauthn.js"
  const result = document.getElementById("passkey-result")
  document.getElementById("add-passkey").addEventListener("click", async () => {
    try {
      const outcome = await signIn("passkey", { action: "register", redirect: false })
      result.textContent = outcome?.error ? "Not added: " + outcome.error : "Passkey added. Sign out and use it to sign in."
    } catch (error) {
      result.textContent = "Not added: " + error.message
    }
  })
</script>`,
      { signedIn: true },
    )
  }
  return page(
    "Home",
    `<p id="status">You are signed out.</p>
<p><a href="/auth/signin">Sign in</a>, with any of these, all running on this machine:</p>
<div class="card"><strong>Demo account</strong>: <code>${escapeHtml(demo.demoEmail)}</code> / <code>${escapeHtml(demo.demoPassword)}</code> (a seeded user, password hashed with scrypt).</div>
<div class="card"><strong>Email link</strong>: type any address; the link arrives in the <a href="/dev/inbox">inbox</a> of a local SMTP server.</div>
<div class="card"><strong>Dev OpenID Provider</strong>: a real OpenID Connect provider on loopback; any email works there, and <code>${escapeHtml(demo.demoEmail)}</code> signs in to the demo account (the demo trusts its own provider with addresses).</div>
<div class="card"><strong>Passkey</strong>: "Sign up with Passkey" creates one in your browser for a new address, then "Sign in with Passkey" uses it (no email needed). Passkeys work on <code>localhost</code>, not on <code>127.0.0.1</code>.</div>
<p class="muted"><a href="/protected">The protected page</a> sends you to sign in first; <a href="/api/me">/api/me</a> answers 401.</p>`,
    { signedIn: false },
  )
}

/** @param {Session} session */
export function protectedPage(session) {
  return page(
    "Protected page",
    `<p>Only signed-in users see this. Your session, as <code>getSession</code> returns it:</p>
<pre id="session">${escapeHtml(JSON.stringify(session, null, 2))}</pre>`,
    { signedIn: true },
  )
}

/**
 * @param {import("./mail-capture.js").Mail[]} messages
 * @param {Session | null | undefined} session
 */
export function inboxPage(messages, session) {
  const items = messages.map(
    (mail) => `<div class="card mail"><div><strong>${escapeHtml(mail.subject)}</strong></div>
<div class="muted">to ${escapeHtml(mail.to)}, ${escapeHtml(mail.receivedAt.toLocaleTimeString("en-GB"))}</div>
<pre>${linkify(mail.text)}</pre></div>`,
  )
  return page(
    "Inbox",
    `<p>Every email the demo sends lands here, in a local SMTP server; nothing leaves this machine. Newest first.</p>
${items.join("\n") || `<p class="muted" id="empty">No mail yet. Sign in with an email address to get a link.</p>`}
<p><a href="/dev/inbox">Refresh</a></p>`,
    { signedIn: Boolean(session?.user) },
  )
}

/** The text, escaped, with its http(s) links made clickable. */
function linkify(/** @type {string} */ text) {
  return escapeHtml(text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`)
}

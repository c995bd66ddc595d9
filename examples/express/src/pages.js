// @ts-check
/** The demo's own pages: plain template strings, every value escaped. */

/** @param {string} value */
export function escapeHtml(value) {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

/**
 * @param {string} title
 * @param {string} body HTML, already escaped
 * @param {string} [head] extra HTML for <head>
 */
export function page(title, body, head = "") {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Gatehouse demo</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { max-width: 44rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; }
  nav { display: flex; gap: 1rem; padding-bottom: .75rem; border-bottom: 1px solid #8884; margin-bottom: 1.5rem; }
  nav strong { margin-right: auto; }
  pre { background: #8881; padding: .75rem; overflow-x: auto; border-radius: 6px; }
  form { display: grid; gap: .5rem; max-width: 22rem; }
  label { display: grid; }
  button { padding: .4rem .8rem; width: fit-content; }
  .card { border: 1px solid #8884; border-radius: 8px; padding: .75rem 1rem; margin: .75rem 0; }
  .muted { opacity: .7; }
</style>${head}</head>
<body>
<nav><strong>Gatehouse demo</strong><a href="/">Home</a><a href="/protected">Protected page</a><a href="/api/me">API</a><a href="/dev/inbox">Inbox</a></nav>
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
  <li><a href="/auth/signout?callbackUrl=%2F">Sign out</a></li>
</ul>
<script type="module">
  import { signIn } from "/assets/gatehouse-client.js"
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
    )
  }
  return page(
    "Home",
    `<p id="status">You are signed out.</p>
<p><a href="/auth/signin">Sign in</a>, with any of these, all running on this machine:</p>
<div class="card"><strong>Demo account</strong>: <code>${escapeHtml(demo.demoEmail)}</code> / <code>${escapeHtml(demo.demoPassword)}</code> (a seeded user, password hashed with scrypt).</div>
<div class="card"><strong>Email link</strong>: type any address; the link arrives in the <a href="/dev/inbox">inbox</a> of a local SMTP server.</div>
<div class="card"><strong>Dev OpenID Provider</strong>: a real OpenID Connect provider on loopback; any email works there.</div>
<div class="card"><strong>Passkey</strong>: type an email to create a passkey in your browser, then sign in with it (works on <code>localhost</code>).</div>
<p class="muted"><a href="/protected">The protected page</a> sends you to sign in first; <a href="/api/me">/api/me</a> answers 401.</p>`,
  )
}

/** @param {Session} session */
export function protectedPage(session) {
  return page(
    "Protected page",
    `<p>Only signed-in users see this. Your session, as <code>getSession</code> returns it:</p>
<pre id="session">${escapeHtml(JSON.stringify(session, null, 2))}</pre>`,
  )
}

/** @param {import("./mail-capture.js").Mail[]} messages */
export function inboxPage(messages) {
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
  )
}

/** The text, escaped, with its http(s) links made clickable. */
function linkify(/** @type {string} */ text) {
  return escapeHtml(text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`)
}

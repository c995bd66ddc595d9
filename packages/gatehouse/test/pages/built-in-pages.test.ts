import { describe, expect, it } from "vitest"
import type { ProviderConfig } from "../../src/providers/types.js"
import {
  renderErrorPage,
  renderRetryLaterPage,
  renderSignInPage,
  renderSignOutPage,
  renderVerifyRequestPage,
  type PageContext,
} from "../../src/core/pages/index.js"
import { PASSKEY_SCRIPT } from "../../src/core/pages/passkey-script.js"

const SCRIPT_HASH = "'sha256-c2NyaXB0'"
const github: ProviderConfig = { id: "github", name: "GitHub", type: "oauth" }
const keycloak: ProviderConfig = { id: "keycloak", name: "Keycloak", type: "oidc" }
const email: ProviderConfig = { id: "resend", name: "Email", type: "email", sendVerificationRequest: () => {} }
const credentials: ProviderConfig = {
  id: "credentials",
  name: "Password",
  type: "credentials",
  credentials: {
    username: { label: "Username", placeholder: "jsmith", autocomplete: "username", required: true },
    password: { label: "Password", type: "password" },
  },
  authorize: () => null,
}
const passkey: ProviderConfig = {
  id: "passkey",
  name: "Passkey",
  type: "webauthn",
  formFields: { email: { label: "Email", required: true, autocomplete: "username webauthn" } },
}

function context(overrides: Partial<PageContext> = {}): PageContext {
  return {
    url: new URL("https://app.test/auth/signin"),
    basePath: "/auth",
    theme: { colorScheme: "auto", logo: "", brandColor: "", buttonText: "" },
    pages: {},
    csrfToken: "csrf-123",
    callbackUrl: "https://app.test/dashboard",
    providers: [github, keycloak, email, credentials, passkey],
    ...overrides,
  }
}

/** The opening tags of a document, e.g. `<form action="…" method="POST">`. */
function tags(html: string): string[] {
  return html.match(/<[^>]*>/g) ?? []
}

/** The `<form …>` tags, in order. */
function forms(html: string): string[] {
  return tags(html).filter((tag) => tag.startsWith("<form"))
}

function title(html: string): string | undefined {
  return /<title>(.*?)<\/title>/.exec(html)?.[1]
}

/** Fails when the document holds an element or attribute that could run script. */
function expectNoInjectedScript(html: string): void {
  expect(html).not.toMatch(/<script/i)
  expect(html.toLowerCase()).not.toContain("javascript:")
  for (const tag of tags(html)) expect(tag).not.toMatch(/\son[a-z]+\s*=/i)
}

describe("the page document", () => {
  it("is a complete HTML document served as text/html", () => {
    const response = renderSignOutPage(context())
    expect(response.headers).toEqual({ "Content-Type": "text/html" })
    expect(response.body).toMatch(/^<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">/)
    expect(response.body).toContain('<meta name="viewport" content="width=device-width, initial-scale=1.0">')
    expect(response.body).toMatch(/<body class="__next-auth-theme-auto"><div class="page">.*<\/div><\/body><\/html>$/)
  })

  it("keeps the style sheet small and free of external resources", () => {
    const css = /<style>(.*?)<\/style>/.exec(renderSignOutPage(context()).body ?? "")?.[1] ?? ""
    expect(css.length).toBeLessThan(3072)
    expect(css).not.toMatch(/url\(|@import|https?:/)
  })

  it.each(["dark", "light", "auto"] as const)("puts the %s colour scheme on the body", (colorScheme) => {
    const ctx = context({ theme: { ...context().theme, colorScheme } })
    expect(renderSignOutPage(ctx).body).toContain(`<body class="__next-auth-theme-${colorScheme}">`)
  })

  it("falls back to the auto colour scheme for an unknown value", () => {
    const theme = { ...context().theme, colorScheme: '"><script>x()</script>' as "auto" }
    const html = renderSignOutPage(context({ theme })).body ?? ""
    expect(html).toContain('<body class="__next-auth-theme-auto">')
    expectNoInjectedScript(html)
  })

  it("sets the brand colours as custom properties", () => {
    const theme = { colorScheme: "auto" as const, logo: "", brandColor: "#ff0066", buttonText: "rgb(255, 255, 255)" }
    const html = renderSignOutPage(context({ theme })).body ?? ""
    expect(html).toContain(":root{--brand-color:#ff0066;--button-text-color:rgb(255, 255, 255);}")
  })

  it("shows a logo given as an https URL or a same-origin path", () => {
    for (const logo of ["https://cdn.test/logo.svg", "/logo.png"]) {
      const html = renderSignOutPage(context({ theme: { ...context().theme, logo } })).body ?? ""
      expect(html).toContain(`<img src="${logo}" alt="Logo" class="logo">`)
    }
  })

  it.each(["//evil.test/logo.png", "/\\evil.test/logo.png", "data:image/svg+xml,<svg/>", "logo.png"])(
    "leaves out the logo %s",
    (logo) => {
      const html = renderSignOutPage(context({ theme: { ...context().theme, logo } })).body ?? ""
      expect(html).not.toContain("<img")
    },
  )

  it("shows no logo when none is configured", () => {
    expect(renderSignOutPage(context()).body).not.toContain("<img")
  })
})

describe("the sign-in page", () => {
  it("answers 200 with the title Sign in", () => {
    const response = renderSignInPage(context(), {}, SCRIPT_HASH)
    expect(response.status).toBe(200)
    expect(title(response.body ?? "")).toBe("Sign in")
  })

  it("renders one form per provider, separated by rules", () => {
    const html = renderSignInPage(context(), {}, SCRIPT_HASH).body ?? ""
    expect(forms(html)).toEqual([
      '<form action="https://app.test/auth/signin/github" method="POST">',
      '<form action="https://app.test/auth/signin/keycloak" method="POST">',
      '<form action="https://app.test/auth/signin/resend" method="POST">',
      '<form action="https://app.test/auth/callback/credentials" method="POST">',
      '<form id="passkey-form" action="https://app.test/auth/callback/passkey" method="POST" data-webauthn-options="https://app.test/auth/webauthn-options/passkey">',
    ])
    expect(html.split("<hr>")).toHaveLength(5)
    for (const name of ["GitHub", "Keycloak", "Email", "Password", "Passkey"]) {
      // Signing in with a passkey needs no identifier: its button skips the form's required fields.
      expect(html).toContain(`<button type="submit" class="button"${name === "Passkey" ? " formnovalidate" : ""}>Sign in with ${name}</button>`)
    }
  })

  it("posts the CSRF token and the callback URL in every form", () => {
    const html = renderSignInPage(context(), {}, SCRIPT_HASH).body ?? ""
    const hidden =
      '<input type="hidden" name="csrfToken" value="csrf-123">' +
      '<input type="hidden" name="callbackUrl" value="https://app.test/dashboard">'
    expect(html.split(hidden)).toHaveLength(6)
  })

  it("leaves out the CSRF field when CSRF checks are skipped", () => {
    const html = renderSignInPage(context({ csrfToken: undefined }), {}, SCRIPT_HASH).body ?? ""
    expect(html).not.toContain('name="csrfToken"')
    expect(html).toContain('name="callbackUrl"')
  })

  it("builds action URLs without a double slash when mounted at the root", () => {
    const html = renderSignInPage(context({ basePath: "/" }), {}, SCRIPT_HASH).body ?? ""
    expect(forms(html)[0]).toBe('<form action="https://app.test/signin/github" method="POST">')
    expect(forms(html)[3]).toBe('<form action="https://app.test/callback/credentials" method="POST">')
  })

  it("asks email providers for the address, pre-filled from the query", () => {
    const html = renderSignInPage(context({ providers: [email] }), { email: "jo@example.com" }, SCRIPT_HASH).body ?? ""
    expect(html).toContain('<label for="input-email-for-resend-provider">Email for a sign-in link</label>')
    expect(html).toContain(
      '<input type="email" name="email" id="input-email-for-resend-provider" value="jo@example.com" placeholder="email@example.com" required>',
    )
  })

  it("opens with a Sign in heading, above the error banner", () => {
    const html = renderSignInPage(context(), { error: "CredentialsSignin" }, SCRIPT_HASH).body ?? ""
    expect(html).toContain('<div class="card"><h1>Sign in</h1><div class="error">')
    expect(html.match(/<h1>/g)).toHaveLength(1)
  })

  it("groups the credentials and passkey fields under their provider's name, and says what the email link's field is for", () => {
    const withEmailFields = { ...credentials, credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } } }
    const html = renderSignInPage(context({ providers: [withEmailFields, email, passkey] }), {}, SCRIPT_HASH).body ?? ""
    expect(html).toContain('<fieldset><legend>Password</legend><label for="input-email-for-credentials-provider">Email</label>')
    expect(html).toContain('<fieldset><legend>Passkey</legend><label for="input-email-for-passkey-provider">Email</label>')
    expect(html).toContain('<label for="input-email-for-resend-provider">Email for a sign-in link</label>')
    // Every field of a group is inside it, buttons too.
    expect(html).toContain('<button type="submit" class="button">Sign in with Password</button></fieldset></form>')
    expect(html).toContain('value="register">Sign up with Passkey</button></fieldset></form>')
  })

  it("names a group with the provider's name as text", () => {
    const html = renderSignInPage(context({ providers: [{ ...credentials, name: "<b>x</b>" }] }), {}, SCRIPT_HASH).body ?? ""
    expect(html).toContain("<legend>&lt;b&gt;x&lt;/b&gt;</legend>")
  })

  it("puts the cursor in the first field of the first form with fields, and nowhere else", () => {
    const emailFirst = renderSignInPage(context(), {}, SCRIPT_HASH).body ?? ""
    expect(emailFirst.match(/ autofocus/g)).toHaveLength(1)
    expect(emailFirst).toContain('id="input-email-for-resend-provider" value="" placeholder="email@example.com" required autofocus>')
    const credentialsFirst = renderSignInPage(context({ providers: [github, credentials, email, passkey] }), {}, SCRIPT_HASH).body ?? ""
    expect(credentialsFirst.match(/ autofocus/g)).toHaveLength(1)
    expect(credentialsFirst).toContain('<input name="username" id="input-username-for-credentials-provider" type="text" placeholder="jsmith" autocomplete="username" required autofocus>')
  })

  it("puts the cursor in the first empty field: the password when the user name was kept", () => {
    const html = renderSignInPage(context({ providers: [credentials, email] }), { error: "CredentialsSignin", username: "ada" }, SCRIPT_HASH).body ?? ""
    expect(html).toContain('<input name="username" id="input-username-for-credentials-provider" type="text" value="ada" placeholder="jsmith" autocomplete="username" required>')
    expect(html).toContain('<input name="password" id="input-password-for-credentials-provider" type="password" autocomplete="current-password" autofocus>')
    expect(html.match(/ autofocus/g)).toHaveLength(1)
  })

  it("leaves the cursor to a field whose definition asks for it", () => {
    const provider = { ...credentials, credentials: { ...credentials.credentials, password: { label: "Password", type: "password", autofocus: true } } }
    const html = renderSignInPage(context({ providers: [email, provider] }), {}, SCRIPT_HASH).body ?? ""
    expect(html.match(/ autofocus/g)).toHaveLength(1)
    expect(html).toContain('<input name="password" id="input-password-for-credentials-provider" type="password" autofocus autocomplete="current-password">')
  })

  it("gives no field the cursor when none is typed into", () => {
    const provider = { ...credentials, credentials: { remember: { type: "checkbox" }, tenant: { type: "hidden", value: "t1" } } }
    expect(renderSignInPage(context({ providers: [github, provider] }), {}, SCRIPT_HASH).body).not.toContain("autofocus")
  })

  it("fills in a kept email and user name, but never a password, hidden or other field", () => {
    const provider = {
      ...credentials,
      credentials: { email: { type: "email", value: "preset@example.com" }, username: { type: "password" }, code: {} },
    }
    const html = renderSignInPage(context({ providers: [provider] }), { email: "jo@example.com", username: "secret" }, SCRIPT_HASH).body ?? ""
    // The kept value replaces the definition's own.
    expect(html).toContain('<input name="email" id="input-email-for-credentials-provider" type="email" value="jo@example.com">')
    expect(html).toContain('<input name="username" id="input-username-for-credentials-provider" type="password" autocomplete="current-password" autofocus>')
    expect(html).not.toContain("secret")
    const hidden = { ...credentials, credentials: { username: { type: "hidden", value: "fixed" } } }
    expect(renderSignInPage(context({ providers: [hidden] }), { username: "other" }, SCRIPT_HASH).body).toContain(
      '<input name="username" id="input-username-for-credentials-provider" type="hidden" value="fixed">',
    )
  })

  it("does not fill the passkey form's email field from the query", () => {
    const html = renderSignInPage(context({ providers: [passkey] }), { email: "jo@example.com" }, SCRIPT_HASH).body ?? ""
    expect(html).not.toContain("jo@example.com")
  })

  it("renders a labelled input per credential with its attributes", () => {
    const html = renderSignInPage(context({ providers: [credentials] }), {}, SCRIPT_HASH).body ?? ""
    expect(html).toContain('<label for="input-username-for-credentials-provider">Username</label>')
    expect(html).toContain(
      '<input name="username" id="input-username-for-credentials-provider" type="text" placeholder="jsmith" autocomplete="username" required autofocus>',
    )
    expect(html).toContain('<input name="password" id="input-password-for-credentials-provider" type="password" autocomplete="current-password">')
  })

  it("asks the browser for the saved password (autocomplete current-password), unless the field names its own autocomplete, e.g. new-password for a sign-up", () => {
    const html = renderSignInPage(context({ providers: [credentials] }), {}, SCRIPT_HASH).body ?? ""
    expect(html).toMatch(/<input name="password"[^>]* autocomplete="current-password"[^>]*>/)
    const signUp = { ...credentials, credentials: { email: { type: "email" }, password: { type: "Password", autocomplete: "new-password" } } }
    const signUpHtml = renderSignInPage(context({ providers: [signUp] }), {}, SCRIPT_HASH).body ?? ""
    expect(signUpHtml).toContain('<input name="password" id="input-password-for-credentials-provider" type="Password" autocomplete="new-password">')
    expect(signUpHtml.match(/autocomplete=/g)).toHaveLength(1)
    // Only password fields: the page does not guess what a text field holds.
    expect(signUpHtml).toContain('<input name="email" id="input-email-for-credentials-provider" type="email" autofocus>')
  })

  it("labels a credential with its key when it has no label", () => {
    const provider = { ...credentials, credentials: { pin: { type: "number" } } }
    const html = renderSignInPage(context({ providers: [provider] }), {}, SCRIPT_HASH).body ?? ""
    expect(html).toContain('<label for="input-pin-for-credentials-provider">pin</label>')
  })

  it("drops credential attributes that are event handlers or not plain names", () => {
    const provider = {
      ...credentials,
      credentials: { code: { onfocus: "x()", OnClick: "x()", 'a"b': "x", "x y": "z", maxlength: 6, disabled: false } },
    }
    const html = renderSignInPage(context({ providers: [provider] }), {}, SCRIPT_HASH).body ?? ""
    expect(html).toContain('<input name="code" id="input-code-for-credentials-provider" type="text" maxlength="6" autofocus>')
    expectNoInjectedScript(html)
  })

  it("skips a credentials provider without a credentials object", () => {
    const provider = { ...credentials, credentials: null } as unknown as ProviderConfig
    expect(forms(renderSignInPage(context({ providers: [provider, github] }), {}, SCRIPT_HASH).body ?? "")).toHaveLength(1)
  })

  it("renders WebAuthn form fields, empty action and data inputs, and the built-in passkey script its CSP allows", () => {
    const response = renderSignInPage(context({ providers: [passkey] }), {}, SCRIPT_HASH)
    const html = response.body ?? ""
    expect(html).toContain(
      '<input name="email" id="input-email-for-passkey-provider" type="text" required autocomplete="username webauthn" autofocus data-form-field>',
    )
    expect(html).toContain('<input type="hidden" name="action" value=""><input type="hidden" name="data" value="">')
    expect(html).toContain(' data-webauthn-options="https://app.test/auth/webauthn-options/passkey"')
    // Signing in and signing up are two buttons: the server never guesses which from the address.
    expect(html).toContain('<button type="submit" class="button" formnovalidate>Sign in with Passkey</button><button type="submit" class="button" value="register">Sign up with Passkey</button>')
    expect(PASSKEY_SCRIPT).toContain('event.submitter.value === "register" ? "register" : "authenticate"')
    expect(html).toContain(`<script>${PASSKEY_SCRIPT}</script></body>`)
    expect(html).not.toMatch(/<script src=/)
    expect(response.headers?.["Content-Security-Policy"]).toBe(`script-src ${SCRIPT_HASH}`)
  })

  it("offers autofill only on the provider with conditional UI", () => {
    const html = renderSignInPage(context({ providers: [{ ...passkey, enableConditionalUI: true }] }), {}, SCRIPT_HASH).body ?? ""
    expect(html.match(/ data-webauthn-conditional>/g)).toHaveLength(1)
    const plain = renderSignInPage(context({ providers: [passkey] }), {}, SCRIPT_HASH).body ?? ""
    expect(plain).not.toContain(" data-webauthn-conditional>")
  })

  it("allows no script at all on a page without passkeys", () => {
    const response = renderSignInPage(context({ providers: [github, credentials] }), {}, SCRIPT_HASH)
    expect(response.body).not.toContain("<script")
    expect(response.headers?.["Content-Security-Policy"]).toBe("script-src 'none'")
  })

  it("skips a WebAuthn provider without form fields", () => {
    const bare = { ...passkey, formFields: {} }
    expect(forms(renderSignInPage(context({ providers: [bare, github] }), {}, SCRIPT_HASH).body ?? "")).toHaveLength(1)
  })

  it("skips providers of unknown types", () => {
    const unknown = { id: "x", name: "X", type: "saml" } as unknown as ProviderConfig
    const html = renderSignInPage(context({ providers: [unknown, github] }), {}, SCRIPT_HASH).body ?? ""
    expect(forms(html)).toHaveLength(1)
    expect(html).not.toContain("<hr>")
  })

  it.each([
    ["Signin", "Try signing in with a different account."],
    ["OAuthSignin", "Try signing in with a different account."],
    ["OAuthCallbackError", "Try signing in with a different account."],
    ["OAuthCreateAccount", "Try signing in with a different account."],
    ["EmailCreateAccount", "Try signing in with a different account."],
    ["Callback", "Try signing in with a different account."],
    ["OAuthAccountNotLinked", "To confirm your identity, sign in with the same account you used originally."],
    ["EmailSignin", "The e-mail could not be sent."],
    ["CredentialsSignin", "Sign in failed. Check the details you provided are correct."],
    ["SessionRequired", "Please sign in to access this page."],
    ["EmailRateLimited", "Too many sign-in e-mails were requested. Check your inbox, or try again in a few minutes."],
    ["CredentialsRateLimited", "Too many sign-in attempts. Try again in a few minutes."],
    ["RateLimited", "Too many sign-in attempts. Try again in a few minutes."],
    ["ServerBusy", "The server is busy. Try again in a moment."],
    ["Nonsense", "Unable to sign in."],
    ["constructor", "Unable to sign in."],
  ])("explains the error %s", (error, text) => {
    const response = renderSignInPage(context(), { error }, SCRIPT_HASH)
    expect(response.status).toBe(200)
    expect(response.body).toContain(`<div class="error"><p>${text}</p></div>`)
  })

  it("shows no error banner without an error", () => {
    expect(renderSignInPage(context(), {}, SCRIPT_HASH).body).not.toContain('<div class="error">')
  })
})

describe("the sign-out page", () => {
  it("answers 200 with a confirmation form posting to the sign-out route", () => {
    const response = renderSignOutPage(context())
    const html = response.body ?? ""
    expect(response.status).toBe(200)
    expect(title(html)).toBe("Sign out")
    expect(html).toContain("<h1>Sign out</h1><p>Are you sure you want to sign out?</p>")
    expect(html).toContain(
      '<form action="https://app.test/auth/signout" method="POST"><input type="hidden" name="csrfToken" value="csrf-123"><button type="submit" class="button">Sign out</button></form>',
    )
    expect(html).not.toContain("callbackUrl")
  })

  it("leaves out the CSRF field when CSRF checks are skipped", () => {
    const html = renderSignOutPage(context({ csrfToken: undefined })).body ?? ""
    expect(html).toContain('<form action="https://app.test/auth/signout" method="POST"><button')
  })

  it("posts to the root sign-out route when mounted at the root", () => {
    expect(renderSignOutPage(context({ basePath: "/" })).body).toContain('action="https://app.test/signout"')
  })
})

describe("the verify-request page", () => {
  it("answers 200 with the check-your-email text and a link to the site", () => {
    const ctx = context({ url: new URL("http://localhost:3000/auth/verify-request") })
    const response = renderVerifyRequestPage(ctx)
    const html = response.body ?? ""
    expect(response.status).toBe(200)
    expect(title(html)).toBe("Check your email")
    expect(html).toContain("<h1>Check your email</h1><p>A sign-in link has been sent to your email address.</p>")
    expect(html).toContain('<a class="site" href="http://localhost:3000">localhost:3000</a>')
  })
})

describe("the error page", () => {
  it.each([
    ["Configuration", 500, "Server error"],
    ["AccessDenied", 403, "Access denied"],
    ["Verification", 403, "Unable to sign in"],
    ["OAuthCallbackError", 200, "Error"],
    ["WebAuthnVerificationError", 200, "Error"],
    // The request's own faults: a 400 that tells the person to start again, not a server error.
    ["InvalidCheck", 400, "Unable to sign in"],
    ["InvalidProvider", 400, "Unable to sign in"],
    ["UnknownAction", 400, "Unable to sign in"],
    [undefined, 200, "Error"],
  ])("answers %s with %i and the heading %s", (error, status, heading) => {
    const response = renderErrorPage(context(), error)
    expect(response.status).toBe(status)
    expect(title(response.body ?? "")).toBe("Error")
    expect(response.body).toContain(`<h1>${heading}</h1>`)
  })

  it("tells the operator to check the logs on a configuration error", () => {
    const html = renderErrorPage(context(), "Configuration").body ?? ""
    expect(html).toContain("<p>There is a problem with the server configuration.</p>")
    expect(html).toContain("<p>Check the server logs for more information.</p>")
    expect(html).not.toContain("Sign in</a>")
  })

  it("explains a spent sign-in link and offers to sign in again", () => {
    const ctx = context({ url: new URL("https://app.test/auth/error?error=Verification") })
    const html = renderErrorPage(ctx, "Verification").body ?? ""
    expect(html).toContain("<p>The sign in link is no longer valid.</p>")
    expect(html).toContain("<p>It may have been used already or it may have expired.</p>")
    expect(html).toContain('<a class="button" href="https://app.test/auth/signin">Sign in</a>')
  })

  it("links the sign-in button to the custom sign-in page when one is configured", () => {
    const html = renderErrorPage(context({ pages: { signIn: "/login?from=error&x=1" } }), "AccessDenied").body ?? ""
    expect(html).toContain("<p>You do not have permission to sign in.</p>")
    expect(html).toContain('<a class="button" href="/login?from=error&amp;x=1">Sign in</a>')
  })

  it("links to the site root for other errors", () => {
    const html = renderErrorPage(context(), "Whatever").body ?? ""
    expect(html).toContain('<a class="site" href="https://app.test">app.test</a>')
  })
})

describe("the retry-later page", () => {
  const theme = context().theme

  it.each([
    [429, 900, "Too many attempts", "There were too many sign-in attempts.", "15 minutes"],
    [429, 1, "Too many attempts", "There were too many sign-in attempts.", "1 second"],
    [503, 5, "Server busy", "The server is too busy to sign you in right now.", "5 seconds"],
    [503, 121, "Server busy", "The server is too busy to sign you in right now.", "3 minutes"],
  ] as const)("answers %i (Retry-After %i) with the heading %s and when to try again", (status, retryAfter, heading, reason, wait) => {
    const response = renderRetryLaterPage({ theme, status, retryAfter, signInUrl: "https://app.test/auth/signin?error=CredentialsRateLimited" })
    const html = response.body ?? ""
    expect(response.status).toBe(status)
    expect(title(html)).toBe(heading)
    expect(html).toContain(`<h1>${heading}</h1><p>${reason}</p><p>Try again in ${wait}.</p>`)
    expect(html).toContain('<a class="button" href="https://app.test/auth/signin?error=CredentialsRateLimited">Sign in</a>')
  })

  it("escapes the sign-in link it is given", () => {
    const html = renderRetryLaterPage({ theme, status: 429, retryAfter: 60, signInUrl: '/in"><script>x()</script>?a=1&b=2' }).body ?? ""
    expectNoInjectedScript(html)
    expect(html).toContain('href="/in&quot;&gt;&lt;script&gt;x()&lt;/script&gt;?a=1&amp;b=2"')
  })
})

describe("escaping", () => {
  const hostileTheme = {
    colorScheme: "auto" as const,
    logo: "javascript:alert(1)",
    brandColor: "red;}</style><script>x()</script>",
    buttonText: "#fff;}body{display:none",
  }
  const hostileCredentials: ProviderConfig = {
    id: "credentials",
    name: "Password",
    type: "credentials",
    credentials: { user: { label: '<img src=x onerror="alert(1)">', placeholder: '"><script>x()</script>' }, username: {} },
    authorize: () => null,
  }
  const ctx = context({
    theme: hostileTheme,
    callbackUrl: 'https://app.test/"><script>alert(1)</script>',
    providers: [
      { id: "evil", name: "<script>alert(1)</script>", type: "oauth" },
      { id: "mail", name: "Email", type: "email", sendVerificationRequest: () => {} },
      hostileCredentials,
    ],
  })
  const html = renderSignInPage(ctx, { email: `o'hara"@example.com`, username: '"><script>y()</script>', error: "<script>x()</script>" }, SCRIPT_HASH).body ?? ""

  it("runs no script whatever the configuration and the request say", () => {
    expectNoInjectedScript(html)
    expect(html).not.toContain("<img")
  })

  it("escapes provider names, the callback URL, the email and labels as text", () => {
    expect(html).toContain("Sign in with &lt;script&gt;alert(1)&lt;/script&gt;")
    expect(html).toContain('value="https://app.test/&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"')
    expect(html).toContain('value="o&#39;hara&quot;@example.com"')
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</label>")
    expect(html).toContain('placeholder="&quot;&gt;&lt;script&gt;x()&lt;/script&gt;"')
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;y()&lt;/script&gt;"')
  })

  it("ignores colours that are not plain CSS colours", () => {
    const css = /<style>(.*?)<\/style>/.exec(html)?.[1] ?? ""
    expect(css).not.toContain("red;")
    expect(css).not.toContain("display:none")
    expect(css).toContain("--brand-color:#3451d1")
    expect(html.match(/<\/style>/g)).toHaveLength(1)
  })

  it("escapes a custom sign-in page path", () => {
    const page = renderErrorPage(context({ pages: { signIn: '/in"><script>x()</script>' } }), "AccessDenied")
    expectNoInjectedScript(page.body ?? "")
    expect(page.body).toContain('href="/in&quot;&gt;&lt;script&gt;x()&lt;/script&gt;"')
  })

  it("percent-encodes provider ids in action URLs and escapes them in element ids", () => {
    const provider: ProviderConfig = { id: 'a"b', name: "A", type: "email", sendVerificationRequest: () => {} }
    const page = renderSignInPage(context({ providers: [provider] }), {}, SCRIPT_HASH).body ?? ""
    expect(page).toContain('action="https://app.test/auth/signin/a%22b"')
    expect(page).toContain('id="input-email-for-a&quot;b-provider"')
  })
})

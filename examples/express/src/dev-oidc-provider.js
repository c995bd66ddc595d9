// @ts-check
/**
 * A development OpenID Connect provider on 127.0.0.1 (panva's `oidc-provider`), so "Sign in with
 * an OpenID provider" works with no internet and no account anywhere: its login page takes any
 * email address and name. Consent is implied; the demo is its only client.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto"
import { createServer } from "node:http"
import { escapeHtml, page } from "./pages.js"

/**
 * @typedef {{ issuer: string, clientId: string, clientSecret: string, close(): Promise<void> }} DevOidcProvider
 */

/**
 * @param {{ appUrl: string, redirectUris: string[], postLogoutRedirectUris?: string[] }} options the
 *   demo's origin (its pages' links point there, not at this server), where the demo's callback may
 *   be reached, and where a sign-out at this provider may send the browser back to
 * @returns {Promise<DevOidcProvider>}
 */
export async function startDevOidcProvider({ appUrl, redirectUris, postLogoutRedirectUris = [] }) {
  const server = createServer()
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)))
  const issuer = `http://127.0.0.1:${/** @type {import("node:net").AddressInfo} */ (server.address()).port}`
  const clientId = "gatehouse-demo"
  const clientSecret = randomBytes(24).toString("base64url")
  const signingKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" })

  const { default: Provider } = await quietly(() => import("oidc-provider"))
  /** @type {import("oidc-provider").default} */
  const provider = await quietly(async () => new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        post_logout_redirect_uris: postLogoutRedirectUris,
        response_types: ["code"],
        grant_types: ["authorization_code"],
      },
    ],
    jwks: { keys: [{ ...signingKey, kid: "dev", alg: "RS256", use: "sig" }] },
    cookies: { keys: [randomBytes(32).toString("base64url")] },
    // Accounts are whoever typed their email on the login page.
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({ sub, email: sub, email_verified: true, name: names.get(sub) ?? sub.split("@")[0] }),
    }),
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // The profile goes in the ID token, as Google's does: an OIDC client reads it from there.
    conformIdTokenClaims: false,
    // The demo is a first-party client: grant what it asks for instead of showing a consent page.
    loadExistingGrant: async (ctx) => {
      const { client, session } = ctx.oidc
      if (!client || !session?.accountId) return undefined
      /** @type {import("oidc-provider").Grant} */
      const grant = new provider.Grant({ clientId: client.clientId, accountId: session.accountId })
      grant.addOIDCScope("openid email profile")
      await grant.save()
      return grant
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // Lifetimes set, rather than left to defaults that print a notice on every first use.
    ttl: { Interaction: 60 * 60, Session: 24 * 60 * 60, Grant: 24 * 60 * 60, AccessToken: 60 * 60, IdToken: 60 * 60 },
    features: {
      devInteractions: { enabled: false },
      // "Sign out of Dev OpenID Provider too" on the demo's sign-out page comes here (RP-initiated
      // logout): a confirmation in the demo's look, instead of oidc-provider's notice-printing default.
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => {
          ctx.type = "html"
          ctx.body = page(
            "Dev OpenID Provider",
            `<p>Sign out of the Dev OpenID Provider too? Its next sign-in will ask for your email again.</p>${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Sign out of the Dev OpenID Provider</button>
<button type="submit" form="op.logoutForm">Stay signed in here</button>`,
            { site: appUrl },
          )
        },
        postLogoutSuccessSource: (ctx) => {
          ctx.type = "html"
          ctx.body = page("Dev OpenID Provider", "<p>You are signed out of the Dev OpenID Provider.</p>", { site: appUrl })
        },
      },
    },
    clientBasedCORS: () => false,
  }))
  /** @type {Map<string, string>} */
  const names = new Map()
  const callback = provider.callback()

  server.on("request", (req, res) => {
    const match = /^\/interaction\/([\w-]+)$/.exec(req.url ?? "")
    if (!match) return callback(req, res)
    interaction(req, res).catch((error) => {
      if (res.headersSent) return res.destroy()
      res.statusCode = 400
      res.setHeader("content-type", "text/html; charset=utf-8")
      res.end(
        page(
          "Sign-in expired",
          `<p>${escapeHtml(String(error?.message ?? error))}</p><p><a href="${escapeHtml(`${appUrl}/auth/signin`)}">Start again</a> from the demo's sign-in page.</p>`,
          { site: appUrl },
        ),
      )
    })
  })

  /** The login page (GET) and its answer (POST). */
  async function interaction(/** @type {import("node:http").IncomingMessage} */ req, /** @type {import("node:http").ServerResponse} */ res) {
    const details = await provider.interactionDetails(req, res)
    if (req.method === "POST") {
      const form = new URLSearchParams(await readBody(req))
      const email = (form.get("email") ?? "").trim().toLowerCase()
      if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw new Error("That is not an email address.")
      names.set(email, (form.get("name") ?? "").trim() || email.split("@")[0] || email)
      return provider.interactionFinished(req, res, { login: { accountId: email } }, { mergeWithLastSubmission: false })
    }
    res.setHeader("content-type", "text/html; charset=utf-8")
    res.end(
      page(
        "Dev OpenID Provider",
        `<p>This stands in for Google, Okta or your company's SSO. Any email works; nothing is checked.</p>
<form method="post" action="/interaction/${escapeHtml(details.uid)}">
  <label>Email <input name="email" type="email" value="ada@example.com" required autofocus></label>
  <label>Name <input name="name" value="Ada Lovelace"></label>
  <button type="submit">Sign in to the Dev OpenID Provider</button>
</form>`,
        { site: appUrl },
      ),
    )
  }

  return {
    issuer,
    clientId,
    clientSecret,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve(undefined))
      }),
  }
}

/** @param {import("node:http").IncomingMessage} req */
async function readBody(req) {
  let body = ""
  for await (const chunk of req) {
    body += chunk
    if (body.length > 10_000) throw new Error("The form is too large.")
  }
  return body
}

/**
 * Runs `start` without oidc-provider's two start-up warnings (Node 20 is not its preferred LTS;
 * its store is in memory): both are true and expected of a development provider, and would only
 * worry someone trying the demo.
 * @template T
 * @param {() => Promise<T>} start
 */
async function quietly(start) {
  const warn = console.warn
  console.warn = (...args) => {
    if (!String(args[0]).includes("oidc-provider WARNING")) warn(...args)
  }
  try {
    return await start()
  } finally {
    console.warn = warn
  }
}

/**
 * A real OpenID Provider for end-to-end tests: panva's certified `oidc-provider`, in-process, on
 * http://127.0.0.1:<free port>, with clients and accounts given by the test.
 *
 * There is no login page and no consent page. Authorization requests go through oidc-provider's
 * real interaction machinery (cookies, redirects, grants); only the interaction endpoint
 * (`/interaction/:uid`) is ours, and it finishes each prompt at once:
 * - `login`: logs in the account named by `login_hint` (a `sub` or an email) or else by
 *   `server.nextLogin` (one-shot) or else the first account;
 * - `consent`: grants every scope and claim that was asked for.
 * So a client following redirects with a cookie jar gets back to its redirect_uri with
 * `code`, `state` and `iss` (or, with `response_mode=form_post`, an auto-submitting HTML form).
 *
 * Failure switches (`server.failures`) act around oidc-provider, in a Koa middleware in front of
 * its routes, because it has no setting to misbehave.
 *
 * `server.signJwt(claims, header?)` signs anything with the provider's own key (test-only): a token
 * the provider would never issue, yet whose signature is genuine, so a test proves that a check of
 * the claims or header refuses it, not the signature check.
 */
import type { ClientMetadata, Configuration, InteractionResults, KoaContextWithOIDC, Provider } from "oidc-provider"
import { SignJWT, decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, type JWK, type JWTHeaderParameters } from "jose"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import type { RecordedRequest } from "./github-like-server.js"
import { listenOnLoopback } from "./free-port.js"

export type { RecordedRequest }

/** Standard claims an account may have; anything else is passed through as well. */
export interface AccountClaims {
  email?: string
  email_verified?: boolean
  name?: string
  picture?: string
  given_name?: string
  family_name?: string
  preferred_username?: string
  [claim: string]: string | number | boolean | null | undefined
}

export interface OidcClient {
  client_id: string
  /** Omit for public clients (`token_endpoint_auth_method: "none"`). */
  client_secret?: string
  redirect_uris: string[]
  /** Default `client_secret_basic` (or `none` when there is no secret). */
  token_endpoint_auth_method?: "client_secret_basic" | "client_secret_post" | "none"
  /** Default `["authorization_code", "refresh_token"]`. */
  grant_types?: ("authorization_code" | "refresh_token")[]
  post_logout_redirect_uris?: string[]
  /** Where the provider posts logout tokens (needs `backchannelLogout` on the server). */
  backchannel_logout_uri?: string
  /** Whether logout tokens (and ID tokens) carry `sid`. */
  backchannel_logout_session_required?: boolean
}

export interface OidcServerOptions {
  clients: OidcClient[]
  /** Accounts by `sub`. The object is kept (not copied): changing it changes later logins. */
  accounts: Record<string, AccountClaims>
  /** Access token and ID token lifetime in seconds. Default 300. */
  accessTokenTtl?: number
  /**
   * When `true`, ID tokens from the token endpoint carry only `sub` and protocol claims, and the
   * profile is at userinfo (oidc-provider's default). Default `false`: scope claims (email, name,
   * picture) are in the ID token too, as Google and most providers do and Auth.js expects.
   */
  conformIdTokenClaims?: boolean
  /**
   * Refresh tokens go to clients allowed the refresh_token grant when the scope has
   * `offline_access` (and oidc-provider then wants `prompt=consent`, as OIDC Core says) or, with
   * `"always"`, on every code exchange. Default `"offline_access"`.
   */
  refreshTokens?: "offline_access" | "always"
  /** Turns on OpenID Connect Back-Channel Logout (clients then may have a `backchannel_logout_uri`). */
  backchannelLogout?: boolean
}

/** Switches a test can flip to make the provider misbehave. */
export interface OidcFailures {
  /** Answer this many upcoming token requests with HTTP 500. They never reach oidc-provider, so a code stays usable for a retry. */
  tokenServerErrors: number
  /** While true, userinfo answers 200 `application/json` with a body that is not JSON. */
  userinfoGarbage: boolean
  /** The next authorization request ends with `error=access_denied` at the redirect_uri (one-shot). */
  denyNextAuthorization: boolean
  /**
   * While set, ID tokens from the token endpoint get these claims overwritten (e.g. `{ iss }` or
   * `{ nonce }`), re-signed with the provider's real key so only the claim is wrong.
   */
  idTokenClaims: Record<string, string | number | boolean | string[]> | undefined
}

export interface OidcServer {
  /** `http://127.0.0.1:<port>`; discovery is at `${issuer}/.well-known/openid-configuration`. */
  issuer: string
  /** The account the next login interaction picks (unless `login_hint` names one); cleared once used. */
  nextLogin: string | undefined
  accounts: Record<string, AccountClaims>
  failures: OidcFailures
  /** Every request, oldest first; `body` is the parsed form for POSTs that oidc-provider read. */
  requests: RecordedRequest[]
  /** The public signing keys (also at the jwks_uri). */
  jwks: { keys: JWK[] }
  /** The oidc-provider instance, for what the switches above don't cover. */
  provider: Provider
  /**
   * Test-only: a JWS compact token of exactly `claims`, signed RS256 with the provider's own
   * signing key (the one its jwks_uri publishes), so it verifies as the provider's. The protected
   * header is `{ alg: "RS256", kid: <the provider's kid> }` with `header` over it; `alg` cannot be
   * changed (the key is RSA), anything else can, malformed values included (e.g. `typ: ["jwt"]`).
   * Nothing is added to the claims: no `iat`, `exp` or `jti` unless given.
   *
   * @example
   * ```ts
   * const token = await idp.signJwt({ iss: idp.issuer, aud: "app-client", nonce: "n" }, { typ: "logout+jwt" })
   * ```
   */
  signJwt(claims: Record<string, unknown>, header?: Record<string, unknown>): Promise<string>
  stop(): Promise<void>
}

/**
 * oidc-provider rightly warns, for production, that Node 20 is not an LTS it supports and that its
 * in-memory store is for development only. Neither matters here (what it needs from Node 20.19 is
 * there, and the tests pass), so those two lines, and only those, are kept out of test output.
 */
async function quietly<T>(run: () => Promise<T>): Promise<T> {
  const warn = console.warn
  console.warn = (...args: unknown[]) => {
    const line = String(args[0])
    if (!/^oidc-provider WARNING: (Unsupported runtime|a quick start development-only in-memory adapter)/.test(line)) warn(...args)
  }
  try {
    return await run()
  } finally {
    console.warn = warn
  }
}

export async function startOidcServer(options: OidcServerOptions): Promise<OidcServer> {
  const { Provider, interactionPolicy } = await quietly(() => import("oidc-provider"))
  const { Check, base } = interactionPolicy
  // The issuer must be known when the provider is built, so listen first (on a free port).
  const httpServer = createServer()
  await listenOnLoopback(httpServer, "the OpenID provider (oidc-provider)")
  const issuer = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`

  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true })
  const kid = `test-${Date.now().toString(36)}`
  const signingJwk = { ...(await exportJWK(privateKey)), kid, alg: "RS256", use: "sig" }
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" }

  const ttl = options.accessTokenTtl ?? 300
  const accounts = options.accounts

  /** The account a login hint or `nextLogin` asks for, if any. */
  function wantedAccount(loginHint: unknown): string | undefined {
    if (typeof loginHint === "string") {
      if (loginHint in accounts) return loginHint
      const byEmail = Object.keys(accounts).find((sub) => accounts[sub]?.email === loginHint)
      if (byEmail !== undefined) return byEmail
    }
    return server.nextLogin
  }

  // The default policy, plus one login check: re-prompt when the test wants another account than
  // the one in the provider's session (SSO would silently reuse it), or wants a denial (which
  // needs an interaction to happen at all).
  const policy = base()
  policy.get("login")?.checks.add(
    new Check("test_wants_interaction", "the test asked for another account or a denial", "login_required", (ctx) => {
      if (ctx.oidc.result?.login) return Check.NO_NEED_TO_PROMPT
      if (server.failures.denyNextAuthorization) return Check.REQUEST_PROMPT
      const wanted = wantedAccount(ctx.oidc.params?.login_hint)
      return wanted !== undefined && wanted !== ctx.oidc.session?.accountId ? Check.REQUEST_PROMPT : Check.NO_NEED_TO_PROMPT
    }),
  )

  const configuration: Configuration = {
    clients: options.clients.map(
      (client): ClientMetadata => ({
        ...client,
        token_endpoint_auth_method:
          client.token_endpoint_auth_method ?? (client.client_secret === undefined ? "none" : "client_secret_basic"),
        grant_types: client.grant_types ?? ["authorization_code", "refresh_token"],
        response_types: ["code"],
      }),
    ),
    jwks: { keys: [signingJwk] },
    findAccount: (_ctx, sub) => {
      const claims = accounts[sub]
      if (claims === undefined) return undefined
      return { accountId: sub, claims: () => ({ ...claims, sub }) }
    },
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["name", "given_name", "family_name", "preferred_username", "picture", "locale", "updated_at"],
    },
    scopes: ["openid", "offline_access"],
    conformIdTokenClaims: options.conformIdTokenClaims ?? false,
    // PKCE: oidc-provider's default already requires it for public clients (and only S256).
    issueRefreshToken: (_ctx, client, code) =>
      client.grantTypeAllowed("refresh_token") &&
      (options.refreshTokens === "always" || code.scopes.has("offline_access")),
    rotateRefreshToken: true,
    ttl: {
      AccessToken: ttl,
      IdToken: ttl,
      AuthorizationCode: 60,
      RefreshToken: 24 * 3600,
      Interaction: 600,
      Session: 24 * 3600,
      Grant: 24 * 3600,
    },
    interactions: { policy, url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: true },
      // The end-session confirmation: oidc-provider's form (its xsrf field) and the two buttons its
      // default page has, so a test submits `logout=yes` as a person clicking "Yes" would.
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => {
          ctx.body = `<!DOCTYPE html><title>Sign out</title>${form}<button type="submit" form="op.logoutForm" name="logout" value="yes">Yes, sign me out</button><button type="submit" form="op.logoutForm">No, stay signed in</button>`
        },
      },
      backchannelLogout: { enabled: options.backchannelLogout === true },
    },
    // Its own requests (logout tokens) go to the app under test on loopback, which its protection
    // against requests to special-use addresses would refuse: the dispatcher doing that is dropped.
    fetch: (url, init) => {
      const { dispatcher: _dispatcher, ...rest } = (init ?? {}) as RequestInit & { dispatcher?: unknown }
      return fetch(url, rest)
    },
    // Nothing here runs in a browser, so no CORS; saying so also silences a "should change" warning.
    clientBasedCORS: () => false,
    cookies: { keys: ["oidc-test-cookie-key"] },
  }
  const provider = await quietly(async () => new Provider(issuer, configuration))

  provider.use(async (ctx, next) => {
    const record: RecordedRequest = {
      method: ctx.method,
      url: ctx.url,
      path: ctx.path,
      headers: Object.fromEntries(
        Object.entries(ctx.headers).flatMap(([name, value]) =>
          value === undefined ? [] : [[name, Array.isArray(value) ? value.join(", ") : value]],
        ),
      ),
      body: undefined,
    }
    server.requests.push(record)

    if (ctx.path.startsWith("/interaction/")) {
      try {
        ctx.redirect(await interact(ctx.req, ctx.res))
        ctx.status = 303
      } catch (error) {
        ctx.status = 500
        ctx.body = `oidc-server interaction failed: ${String(error)}`
      }
      return
    }
    if (ctx.method === "POST" && ctx.path === "/token" && server.failures.tokenServerErrors > 0) {
      server.failures.tokenServerErrors -= 1
      ctx.status = 500
      ctx.body = { error: "server_error", error_description: "simulated token endpoint failure" }
      return
    }
    if (ctx.path === "/me" && server.failures.userinfoGarbage) {
      ctx.status = 200
      ctx.type = "application/json"
      ctx.body = "<html>this is not the userinfo you are looking for"
      return
    }

    await next()

    // oidc-provider defines ctx.oidc only on its own routes; the parsed form is there after them.
    const oidc = (ctx as Partial<KoaContextWithOIDC>).oidc
    if (oidc?.body !== undefined) {
      record.body = new URLSearchParams()
      for (const [name, value] of Object.entries(oidc.body)) {
        for (const item of Array.isArray(value) ? value : [value]) record.body.append(name, String(item))
      }
    }

    const tamper = server.failures.idTokenClaims
    const body: unknown = ctx.body
    if (ctx.path === "/token" && tamper && ctx.status === 200 && isIdTokenBody(body)) {
      const resigned = await signJwt({ ...decodeJwt(body.id_token), ...tamper }, decodeProtectedHeader(body.id_token))
      ctx.body = { ...body, id_token: resigned }
    }
  })

  /** See {@link OidcServer.signJwt}: the provider's key, whatever the claims and header say. */
  function signJwt(claims: Record<string, unknown>, header: Record<string, unknown> = {}): Promise<string> {
    // jose types the header's members; a test may want them malformed, which jose signs as given.
    const protectedHeader = { ...header, alg: "RS256", kid: "kid" in header ? header.kid : kid } as JWTHeaderParameters
    return new SignJWT(claims).setProtectedHeader(protectedHeader).sign(privateKey)
  }

  /** Finishes whichever prompt the interaction is at, without any page; returns where to go next. */
  async function interact(req: IncomingMessage, res: ServerResponse): Promise<string> {
    const details = await provider.interactionDetails(req, res)
    let result: InteractionResults
    if (server.failures.denyNextAuthorization) {
      server.failures.denyNextAuthorization = false
      result = { error: "access_denied", error_description: "End-User denied the authorization request" }
    } else if (details.prompt.name === "login") {
      const accountId = wantedAccount(details.params.login_hint) ?? Object.keys(accounts)[0]
      if (accountId === undefined || !(accountId in accounts)) throw new Error(`no account ${JSON.stringify(accountId)} to log in`)
      server.nextLogin = undefined
      result = { login: { accountId } }
    } else if (details.prompt.name === "consent") {
      const { missingOIDCScope, missingOIDCClaims, missingResourceScopes } = details.prompt.details as {
        missingOIDCScope?: string[]
        missingOIDCClaims?: string[]
        missingResourceScopes?: Record<string, string[]>
      }
      const grant = details.grantId
        ? await provider.Grant.find(details.grantId)
        : new provider.Grant({ accountId: details.session?.accountId, clientId: String(details.params.client_id) })
      if (grant === undefined) throw new Error("the interaction's grant vanished")
      if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(" "))
      if (missingOIDCClaims) grant.addOIDCClaims(missingOIDCClaims)
      for (const [resource, scopes] of Object.entries(missingResourceScopes ?? {})) grant.addResourceScope(resource, scopes.join(" "))
      result = { consent: { grantId: await grant.save() } }
    } else {
      throw new Error(`unexpected prompt ${details.prompt.name}`)
    }
    return provider.interactionResult(req, res, result)
  }

  const callback = provider.callback()
  httpServer.on("request", callback)

  const server: OidcServer = {
    issuer,
    nextLogin: undefined,
    accounts,
    failures: { tokenServerErrors: 0, userinfoGarbage: false, denyNextAuthorization: false, idTokenClaims: undefined },
    requests: [],
    jwks: { keys: [publicJwk] },
    provider,
    signJwt,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        httpServer.close((error) => (error ? reject(error) : resolve()))
        // fetch keeps sockets alive; without this, close() would wait for them to time out.
        httpServer.closeAllConnections()
      }),
  }
  return server
}

function isIdTokenBody(body: unknown): body is Record<string, unknown> & { id_token: string } {
  return typeof body === "object" && body !== null && typeof (body as { id_token?: unknown }).id_token === "string"
}

/**
 * A small imitation of GitHub's OAuth 2.0 (not OpenID Connect) on 127.0.0.1 and a free port, for
 * end-to-end tests of OAuth providers that are not OIDC.
 *
 * Routes, as GitHub has them (and under `/api/v3` too, where GitHub Enterprise puts its API, so
 * Auth.js's GitHub provider can point at this server with `enterprise: { baseUrl }`):
 * - `GET /login/oauth/authorize`: no login page; approves at once and 302s back with `code`, `state`.
 * - `POST /login/oauth/access_token`: the code grant (client auth, redirect_uri and PKCE checked,
 *   unless `ignoreCodeVerifier`)
 *   and, when `refreshTokens` is on, the refresh grant (rotates; can be told to refuse).
 * - `GET /user`, `GET /user/emails`: bearer-protected profile and email list.
 *
 * Like GitHub, OAuth errors from the token endpoint come with HTTP 200 by default (`errorStatus`).
 * Every request is recorded for assertions.
 */
import { createHash, randomBytes } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import type { OAuthConfig } from "../../src/types.js"
import { listenOnLoopback } from "./free-port.js"

/** One request as the server received it. */
export interface RecordedRequest {
  method: string
  /** Path and query, e.g. `/login/oauth/authorize?client_id=...`. */
  url: string
  /** Path without the query. */
  path: string
  /** Lower-cased names; repeated headers joined with `, `. */
  headers: Record<string, string>
  /** The form body of a POST, when there was one. */
  body: URLSearchParams | undefined
}

/** The `/user` payload; the fields Auth.js's GitHub provider reads, plus anything else. */
export interface GitHubUser {
  id: number
  login: string
  name: string | null
  email: string | null
  avatar_url: string
  [field: string]: string | number | boolean | null
}

export interface GitHubEmail {
  email: string
  primary: boolean
  verified: boolean
  visibility: "public" | "private" | null
}

export interface GitHubLikeServerOptions {
  clientId?: string
  clientSecret?: string
  /** Allowed redirect URIs; a request with another one is refused like GitHub does (no redirect). */
  redirectUris?: string[]
  /** Overrides merged into the default profile (whose `email` is null, as for most GitHub users). */
  user?: Partial<GitHubUser>
  emails?: GitHubEmail[]
  /** Issue `refresh_token` + `expires_in` (GitHub Apps' expiring user tokens). Default false. */
  refreshTokens?: boolean
  /** `expires_in` of access tokens when `refreshTokens` is on. Default 28800 (GitHub's 8 hours). */
  accessTokenTtl?: number
  /** HTTP status of token endpoint errors. GitHub answers 200; 400 is what RFC 6749 says. */
  errorStatus?: number
  /**
   * Ignore PKCE, as many plain OAuth 2 servers do: `code_challenge` is not kept, so a code is
   * redeemed with any `code_verifier`, or none. Default false.
   */
  ignoreCodeVerifier?: boolean
}

/** Switches a test can flip to make the server misbehave. */
export interface GitHubLikeFailures {
  /** The next authorization redirects back with `error=access_denied` (one-shot). */
  denyNextAuthorization: boolean
  /** While true, refresh grants are refused with `bad_refresh_token`. */
  refuseRefresh: boolean
}

export interface GitHubLikeServer {
  /** `http://127.0.0.1:<port>`: the `baseUrl` of the imitated GitHub. */
  url: string
  authorizeUrl: string
  tokenUrl: string
  userUrl: string
  emailsUrl: string
  clientId: string
  clientSecret: string
  /** Mutable: what `/user` and `/user/emails` answer from now on. */
  user: GitHubUser
  emails: GitHubEmail[]
  failures: GitHubLikeFailures
  /** Every request, oldest first. */
  requests: RecordedRequest[]
  /** Mutable: `expires_in` of the access tokens issued from now on (with `refreshTokens`). */
  accessTokenTtl: number
  /** Access and refresh tokens issued so far, oldest first. */
  issued: { accessToken: string; refreshToken: string | undefined }[]
  stop(): Promise<void>
}

interface PendingCode {
  redirectUri: string | undefined
  scope: string
  codeChallenge: string | undefined
  codeChallengeMethod: string | undefined
  expiresAt: number
}

const token = (prefix: string) => `${prefix}_${randomBytes(18).toString("base64url")}`

export async function startGitHubLikeServer(options: GitHubLikeServerOptions = {}): Promise<GitHubLikeServer> {
  const clientId = options.clientId ?? "github-client"
  const clientSecret = options.clientSecret ?? "github-secret"
  const redirectUris = options.redirectUris ?? ["https://app.test/auth/callback/github"]
  const errorStatus = options.errorStatus ?? 200
  const codes = new Map<string, PendingCode>()
  const accessTokens = new Map<string, string>() // token -> scope
  const refreshTokens = new Map<string, string>() // token -> scope

  const httpServer = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { message: String(error) })
      else res.end()
    })
  })
  await listenOnLoopback(httpServer, "the GitHub-like OAuth server")
  const url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`

  const server: GitHubLikeServer = {
    url,
    authorizeUrl: `${url}/login/oauth/authorize`,
    tokenUrl: `${url}/login/oauth/access_token`,
    userUrl: `${url}/user`,
    emailsUrl: `${url}/user/emails`,
    clientId,
    clientSecret,
    user: {
      id: 1001,
      login: "octocat",
      name: "The Octocat",
      email: null,
      avatar_url: "https://avatars.example/u/1001",
      ...options.user,
    } as GitHubUser,
    emails: options.emails ?? [
      { email: "octocat@users.example", primary: true, verified: true, visibility: "private" },
      { email: "other@users.example", primary: false, verified: true, visibility: null },
    ],
    failures: { denyNextAuthorization: false, refuseRefresh: false },
    accessTokenTtl: options.accessTokenTtl ?? 28800,
    requests: [],
    issued: [],
    stop: () =>
      new Promise<void>((resolve, reject) => {
        httpServer.close((error) => (error ? reject(error) : resolve()))
        // fetch keeps sockets alive; without this, close() would wait for them to time out.
        httpServer.closeAllConnections()
      }),
  }

  function issue(scope: string): Record<string, string | number> {
    const accessToken = token("gho")
    accessTokens.set(accessToken, scope)
    const body: Record<string, string | number> = { access_token: accessToken, token_type: "bearer", scope }
    let refreshToken: string | undefined
    if (options.refreshTokens) {
      refreshToken = token("ghr")
      refreshTokens.set(refreshToken, scope)
      body.expires_in = server.accessTokenTtl
      body.refresh_token = refreshToken
      body.refresh_token_expires_in = 15897600
    }
    server.issued.push({ accessToken, refreshToken })
    return body
  }

  function oauthError(res: ServerResponse, error: string, description: string) {
    send(res, errorStatus, { error, error_description: description, error_uri: "https://docs.github.com/apps" })
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const requestUrl = new URL(req.url ?? "/", url)
    const raw = req.method === "POST" ? await readBody(req) : undefined
    const body = raw === undefined ? undefined : new URLSearchParams(raw)
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value
    }
    server.requests.push({ method: req.method ?? "GET", url: req.url ?? "/", path: requestUrl.pathname, headers, body })
    const path = requestUrl.pathname.replace(/^\/api\/v3(?=\/user)/, "")
    const route = `${req.method} ${path}`

    if (route === "GET /login/oauth/authorize") return authorize(requestUrl.searchParams, res)
    if (route === "POST /login/oauth/access_token") return tokenEndpoint(headers, body ?? new URLSearchParams(), res)
    if (route === "GET /user" || route === "GET /user/emails") {
      const bearer = /^(?:bearer|token) (.+)$/i.exec(headers.authorization ?? "")?.[1]
      if (bearer === undefined || !accessTokens.has(bearer)) return send(res, 401, { message: "Bad credentials" })
      return send(res, 200, path === "/user" ? server.user : server.emails)
    }
    send(res, 404, { message: "Not Found" })
  }

  function authorize(params: URLSearchParams, res: ServerResponse) {
    const redirectUri = params.get("redirect_uri") ?? redirectUris[0]
    if (params.get("client_id") !== clientId || redirectUri === undefined || !redirectUris.includes(redirectUri)) {
      // GitHub shows an error page here rather than redirecting to an unverified URI.
      res.writeHead(400, { "content-type": "text/plain" }).end("The redirect_uri or client_id is not valid.")
      return
    }
    const target = new URL(redirectUri)
    const state = params.get("state")
    if (server.failures.denyNextAuthorization) {
      server.failures.denyNextAuthorization = false
      target.searchParams.set("error", "access_denied")
      target.searchParams.set("error_description", "The user has denied your application access.")
    } else {
      const code = randomBytes(10).toString("hex")
      codes.set(code, {
        redirectUri: params.get("redirect_uri") ?? undefined,
        scope: (params.get("scope") ?? "").split(/[\s,]+/).filter(Boolean).join(","),
        codeChallenge: options.ignoreCodeVerifier ? undefined : (params.get("code_challenge") ?? undefined),
        codeChallengeMethod: params.get("code_challenge_method") ?? undefined,
        expiresAt: Date.now() + 10 * 60_000,
      })
      target.searchParams.set("code", code)
    }
    if (state !== null) target.searchParams.set("state", state)
    res.writeHead(302, { location: target.href }).end()
  }

  function tokenEndpoint(headers: Record<string, string>, body: URLSearchParams, res: ServerResponse) {
    // Client authentication: HTTP Basic (what oauth4webapi / Auth.js send) or the body.
    let id = body.get("client_id")
    let secret = body.get("client_secret")
    const basic = /^basic (.+)$/i.exec(headers.authorization ?? "")?.[1]
    if (basic !== undefined) {
      const decoded = Buffer.from(basic, "base64").toString("utf8")
      const colon = decoded.indexOf(":")
      id = decodeURIComponent(decoded.slice(0, colon))
      secret = decodeURIComponent(decoded.slice(colon + 1))
    }
    if (id !== clientId || secret !== clientSecret) {
      return oauthError(res, "incorrect_client_credentials", "The client_id and/or client_secret passed are incorrect.")
    }

    const grantType = body.get("grant_type") ?? "authorization_code"
    if (grantType === "refresh_token") {
      const old = body.get("refresh_token") ?? ""
      const scope = refreshTokens.get(old)
      if (!options.refreshTokens || scope === undefined || server.failures.refuseRefresh) {
        return oauthError(res, "bad_refresh_token", "The refresh token passed is incorrect or expired.")
      }
      refreshTokens.delete(old) // rotation: each refresh token works once
      return send(res, 200, issue(scope))
    }
    if (grantType !== "authorization_code") return oauthError(res, "unsupported_grant_type", grantType)

    const code = body.get("code") ?? ""
    const pending = codes.get(code)
    codes.delete(code) // single use, whatever happens next
    if (pending === undefined || pending.expiresAt < Date.now()) {
      return oauthError(res, "bad_verification_code", "The code passed is incorrect or expired.")
    }
    if (pending.redirectUri !== undefined && body.get("redirect_uri") !== pending.redirectUri) {
      return oauthError(res, "redirect_uri_mismatch", "The redirect_uri MUST match the registered callback URL for this application.")
    }
    if (pending.codeChallenge !== undefined) {
      const verifier = body.get("code_verifier")
      const expected =
        pending.codeChallengeMethod === "S256" && verifier !== null
          ? createHash("sha256").update(verifier).digest("base64url")
          : verifier
      if (verifier === null || expected !== pending.codeChallenge) {
        return oauthError(res, "invalid_grant", "The code_verifier does not match the code_challenge.")
      }
    }
    send(res, 200, issue(pending.scope))
  }

  return server
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(body))
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString("utf8")
}

/**
 * An OAuth provider written out by hand against `server`: explicit endpoints (no discovery), its
 * client credentials, `read:user`; `extra` overrides (a profile mapping, checks, another id).
 */
export function githubLikeProvider(server: GitHubLikeServer, extra: Partial<OAuthConfig> = {}): OAuthConfig {
  return {
    id: "github",
    name: "GitHub-like",
    type: "oauth",
    clientId: server.clientId,
    clientSecret: server.clientSecret,
    authorization: { url: server.authorizeUrl, params: { scope: "read:user" } },
    token: server.tokenUrl,
    userinfo: server.userUrl,
    ...extra,
  }
}

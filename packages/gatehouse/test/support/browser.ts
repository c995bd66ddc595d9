/**
 * A browser without a browser, for end-to-end sign-in tests: cookie jars, redirects and forms.
 *
 * Requests to the app's origin (and any other in-process origin) are handed to a handler such as
 * `(req) => Auth(req, config)`; nothing listens on `https://app.test`. Every other URL (the OAuth
 * servers on 127.0.0.1) goes to the real network with `fetch`.
 *
 * Cookies are kept per origin (scheme, host and port), host-only: `Domain` is only checked (a
 * cookie for another domain is refused, as a browser would), never used to share. The jar honours
 * Path, Max-Age/Expires (deletion included), Secure (set and sent on https only), the `__Secure-`
 * and `__Host-` prefixes, and SameSite with a simple model of "cross-site": a request is
 * same-site when the page that started the navigation and every URL of its redirect chain share
 * the target's site (scheme + last two host labels; whole IP). Strict cookies go only on
 * same-site requests, Lax (and unmarked) ones also on cross-site GETs, None (Secure) always.
 */

/** An in-process server: gets a standard Request, returns a Response. */
export type Handler = (request: Request) => Promise<Response>

export interface BrowserOptions {
  /** The app under test, reached at `appOrigin`. */
  app: Handler
  /** Default `https://app.test`. */
  appOrigin?: string
  /** More in-process origins, e.g. a second app behind a redirect proxy: `{ "https://preview.app.test": handler }`. */
  origins?: Record<string, Handler>
  /** Redirects (and auto-submitted forms) followed before giving up. Default 20. */
  maxRedirects?: number
  /**
   * Submit pages that submit their first form by script as soon as they load, as a real browser
   * would (`response_mode=form_post`, oidc-provider's logout-before-switching-account page).
   * Default true; with false, the visit stops on such a page and `submitForm()` continues it.
   */
  autoSubmit?: boolean
}

/** One request and its response. The body is read eagerly, so every hop can be inspected later. */
export interface Hop {
  method: string
  url: string
  status: number
  headers: Headers
  /** The absolute redirect target, for 3xx responses with a Location. */
  location: string | undefined
  body: string
  /** The form body this request carried, if any. */
  form: URLSearchParams | undefined
  /** Parses `body` as JSON. */
  json(): unknown
}

/** A navigation: every hop in order, the last being where the browser stopped. */
export interface Visit {
  hops: Hop[]
  last: Hop
  /** `last.url`. */
  url: string
  /** `last.status`. */
  status: number
}

export interface RequestOptions {
  /** Follow redirects (default true). When false, the visit stops after one hop; continue with `follow()`. */
  follow?: boolean
  /** Extra request headers. Cookie is computed and can't be set here. */
  headers?: Record<string, string>
  /**
   * URL of the page this navigation starts from, for SameSite and the Origin header. Default: the
   * target itself, i.e. a same-site navigation (typed URL, or a link/form on the app's own page).
   */
  from?: string
}

export interface FormOptions extends Omit<RequestOptions, "from"> {
  /** Which form: the first whose action contains this string (or matches the RegExp). Default: the first form. */
  action?: string | RegExp
  /** Field values to add or override. */
  fields?: Record<string, string>
}

/** A stored cookie. */
export interface Cookie {
  name: string
  value: string
  path: string
  /** Epoch ms; undefined for session cookies. */
  expires: number | undefined
  secure: boolean
  httpOnly: boolean
  sameSite: "strict" | "lax" | "none" | undefined
}

export class Browser {
  readonly appOrigin: string
  private readonly handlers = new Map<string, Handler>()
  private readonly jars = new Map<string, Cookie[]>()
  private readonly maxRedirects: number
  private readonly autoSubmit: boolean

  constructor(options: BrowserOptions) {
    this.appOrigin = new URL(options.appOrigin ?? "https://app.test").origin
    this.handlers.set(this.appOrigin, options.app)
    for (const [origin, handler] of Object.entries(options.origins ?? {})) this.handlers.set(new URL(origin).origin, handler)
    this.maxRedirects = options.maxRedirects ?? 20
    this.autoSubmit = options.autoSubmit ?? true
  }

  /** GET a URL (relative ones resolve against the app origin) and follow redirects. */
  get(url: string, options: RequestOptions = {}): Promise<Visit> {
    return this.navigate("GET", this.resolve(url), undefined, options, [])
  }

  /** POST an `application/x-www-form-urlencoded` form and follow redirects. */
  post(url: string, form: Record<string, string> | URLSearchParams, options: RequestOptions = {}): Promise<Visit> {
    return this.navigate("POST", this.resolve(url), new URLSearchParams(form), options, [])
  }

  /**
   * Continues a visit that stopped at a redirect (e.g. made with `follow: false`). The returned
   * visit's hops start with the given visit's hops; its first URL counts as where it started.
   */
  follow(visit: Visit, options: Omit<RequestOptions, "from"> = {}): Promise<Visit> {
    const { last } = visit
    if (last.location === undefined) throw new Error(`follow: ${last.method} ${last.url} answered ${last.status}, not a redirect`)
    const [method, form] = redirectMethod(last)
    return this.navigate(method, last.location, form, { ...options, from: visit.hops[0]?.url }, visit.hops, chainOf(visit.hops))
  }

  /**
   * Submits a form from the page a visit ended on, as a browser running its auto-submit script
   * would (oidc-provider's `response_mode=form_post` page) or as a user clicking its button.
   * Hidden and text inputs (with their values) and the first submit button's name/value are sent.
   * The returned visit starts with the submission (it is a new navigation, started by that page).
   */
  submitForm(visit: Visit, options: FormOptions = {}): Promise<Visit> {
    const { last } = visit
    const forms = parseForms(last.body)
    const form = forms.find((f) =>
      options.action === undefined ? true : typeof options.action === "string" ? f.action.includes(options.action) : options.action.test(f.action),
    )
    if (form === undefined) throw new Error(`submitForm: no matching form on ${last.url}:\n${last.body.slice(0, 500)}`)
    const next = submission(form, last.url, options.fields ?? {})
    return this.navigate(next.method, next.url, next.form, { ...options, from: last.url }, [])
  }

  /** The cookies stored for an origin (default: the app's), expired ones dropped. */
  cookies(origin: string = this.appOrigin): Cookie[] {
    const key = new URL(origin).origin
    const jar = (this.jars.get(key) ?? []).filter((c) => c.expires === undefined || c.expires > Date.now())
    this.jars.set(key, jar)
    return jar.map((c) => ({ ...c }))
  }

  /** One cookie's value, or undefined. Looks at every path. */
  cookie(name: string, origin: string = this.appOrigin): string | undefined {
    return this.cookies(origin).find((c) => c.name === name)?.value
  }

  /** Sets a cookie as if the origin had sent this `Set-Cookie` line. */
  setCookie(line: string, origin: string = this.appOrigin): void {
    this.store(new URL(origin), [line])
  }

  /** Forgets every cookie (all origins), like a new private window. */
  clearCookies(): void {
    this.jars.clear()
  }

  private resolve(url: string): string {
    return new URL(url, this.appOrigin).href
  }

  private async navigate(
    method: string,
    url: string,
    form: URLSearchParams | undefined,
    options: RequestOptions,
    hops: Hop[],
    chain?: string[],
  ): Promise<Visit> {
    // The page that started this navigation, the sites it went through, the origins it requested.
    let from = new URL(options.from ?? url)
    let sites = chain ?? [siteOf(from)]
    let targets: string[] = []
    let steps = 0
    for (;;) {
      const target = new URL(url)
      sites = [...sites, siteOf(target)]
      targets = [...targets, target.origin]
      const sameSite = sites.every((site) => site === siteOf(target))
      const headers = new Headers(options.headers)
      const cookie = this.cookieHeader(target, method, sameSite)
      if (cookie) headers.set("cookie", cookie)
      if (form !== undefined) headers.set("content-type", "application/x-www-form-urlencoded")
      // Browsers send Origin on form POSTs: the page's, or "null" once a redirect went from one
      // foreign origin to another (the Fetch standard's redirect-taint).
      const tainted = targets.some((o, i) => i > 0 && o !== targets[i - 1] && targets[i - 1] !== from.origin)
      if (method !== "GET" && method !== "HEAD") headers.set("origin", tainted ? "null" : from.origin)
      const hop = await this.send(method, target, headers, form)
      hops = [...hops, hop]
      if (options.follow === false) break
      const autoForm = hop.location === undefined && this.autoSubmit ? autoSubmittingForm(hop.body) : undefined
      if (hop.location === undefined && autoForm === undefined) break
      if (++steps > this.maxRedirects) {
        throw new Error(`too many redirects:\n${hops.map((h) => `${h.status} ${h.method} ${h.url}`).join("\n")}`)
      }
      if (hop.location !== undefined) {
        ;[method, form] = redirectMethod(hop)
        url = hop.location
      } else {
        // The page's script submits its form: a new navigation, started by that page.
        ;({ method, url, form } = submission(autoForm!, hop.url, {}))
        from = new URL(hop.url)
        sites = [siteOf(from)]
        targets = []
      }
    }
    const last = hops[hops.length - 1]!
    return { hops, last, url: last.url, status: last.status }
  }

  private async send(method: string, url: URL, headers: Headers, form: URLSearchParams | undefined): Promise<Hop> {
    const handler = this.handlers.get(url.origin)
    const init: RequestInit = { method, headers, redirect: "manual", ...(form === undefined ? {} : { body: form.toString() }) }
    const response = handler === undefined ? await fetch(url, init) : await handler(new Request(url, init))
    this.store(url, response.headers.getSetCookie())
    const body = await response.text()
    const location = response.headers.get("location")
    return {
      method,
      url: url.href,
      status: response.status,
      headers: response.headers,
      location: response.status >= 300 && response.status < 400 && location !== null ? new URL(location, url).href : undefined,
      body,
      form,
      json: () => JSON.parse(body) as unknown,
    }
  }

  private store(url: URL, lines: string[]) {
    const jar = this.jars.get(url.origin) ?? []
    this.jars.set(url.origin, jar)
    for (const line of lines) {
      const cookie = parseSetCookie(line, url)
      if (cookie === undefined) continue
      const existing = jar.findIndex((c) => c.name === cookie.name && c.path === cookie.path)
      if (existing !== -1) jar.splice(existing, 1)
      if (cookie.expires === undefined || cookie.expires > Date.now()) jar.push(cookie)
    }
  }

  private cookieHeader(url: URL, method: string, sameSite: boolean): string {
    const safe = method === "GET" || method === "HEAD"
    return (this.jars.get(url.origin) ?? [])
      .filter((c) => c.expires === undefined || c.expires > Date.now())
      .filter((c) => !c.secure || url.protocol === "https:")
      .filter((c) => pathMatches(url.pathname, c.path))
      .filter((c) => sameSite || c.sameSite === "none" || (c.sameSite !== "strict" && safe))
      .sort((a, b) => b.path.length - a.path.length) // RFC 6265: longer paths first
      .map((c) => `${c.name}=${c.value}`)
      .join("; ")
  }
}

/** 303, and 301/302 after a POST, become GETs without a body; 307/308 repeat the request. */
function redirectMethod(hop: Hop): [string, URLSearchParams | undefined] {
  if (hop.status === 307 || hop.status === 308) return [hop.method, hop.form]
  if (hop.status === 303 || hop.method === "POST") return ["GET", undefined]
  return [hop.method, hop.form]
}

/** The request a form submission makes. */
function submission(form: ParsedForm, pageUrl: string, overrides: Record<string, string>) {
  const fields = new URLSearchParams(form.fields)
  for (const [name, value] of Object.entries(overrides)) fields.set(name, value)
  const action = new URL(form.action || pageUrl, pageUrl)
  if (form.method === "POST") return { method: "POST", url: action.href, form: fields }
  action.search = fields.toString()
  return { method: "GET", url: action.href, form: undefined }
}

/** The form a page submits by script as soon as it loads (form_post responses, oidc-provider's logout confirmation). */
function autoSubmittingForm(html: string): ParsedForm | undefined {
  const scripted = /<script\b[^>]*>[^<]*\bforms\[0\]\.submit\(\)[^<]*<\/script>|\bonload\s*=\s*["'][^"']*\.submit\(\)/i.test(html)
  return scripted ? parseForms(html)[0] : undefined
}

/** The sites a redirect chain went through, starting with the page that began it. */
function chainOf(hops: Hop[]): string[] {
  return hops.map((h) => siteOf(new URL(h.url)))
}

/** Schemeful site, approximated without the public suffix list: last two labels, or the whole IP. */
function siteOf(url: URL): string {
  const host = url.hostname
  const registrable = /^[\d.]+$|^\[/.test(host) ? host : host.split(".").slice(-2).join(".")
  return `${url.protocol}//${registrable}`
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true
  if (!requestPath.startsWith(cookiePath)) return false
  return cookiePath.endsWith("/") || requestPath[cookiePath.length] === "/"
}

/** RFC 6265 parsing, plus what browsers refuse: Secure from http, foreign Domain, bad prefixes, SameSite=None without Secure. */
function parseSetCookie(line: string, url: URL): Cookie | undefined {
  const [pair = "", ...attributes] = line.split(";")
  const eq = pair.indexOf("=")
  if (eq === -1) return undefined
  const cookie: Cookie = {
    name: pair.slice(0, eq).trim(),
    value: pair.slice(eq + 1).trim(),
    // Default path: the request path up to its last "/".
    path: url.pathname.lastIndexOf("/") > 0 ? url.pathname.slice(0, url.pathname.lastIndexOf("/")) : "/",
    expires: undefined,
    secure: false,
    httpOnly: false,
    sameSite: undefined,
  }
  let maxAge: number | undefined
  let domain: string | undefined
  let explicitPath = false
  for (const attribute of attributes) {
    const i = attribute.indexOf("=")
    const key = (i === -1 ? attribute : attribute.slice(0, i)).trim().toLowerCase()
    const value = i === -1 ? "" : attribute.slice(i + 1).trim()
    if (key === "path" && value.startsWith("/")) [cookie.path, explicitPath] = [value, true]
    else if (key === "max-age" && /^-?\d+$/.test(value)) maxAge = Number(value)
    else if (key === "expires" && !Number.isNaN(Date.parse(value))) cookie.expires = Date.parse(value)
    else if (key === "domain" && value !== "") domain = value.replace(/^\./, "").toLowerCase()
    else if (key === "secure") cookie.secure = true
    else if (key === "httponly") cookie.httpOnly = true
    else if (key === "samesite") {
      const v = value.toLowerCase()
      if (v === "strict" || v === "lax" || v === "none") cookie.sameSite = v
    }
  }
  // Max-Age wins over Expires; zero or less means "delete now".
  if (maxAge !== undefined) cookie.expires = maxAge <= 0 ? 0 : Date.now() + maxAge * 1000
  const host = url.hostname.toLowerCase()
  if (domain !== undefined && host !== domain && !host.endsWith(`.${domain}`)) return undefined
  if (cookie.secure && url.protocol !== "https:") return undefined
  if (cookie.sameSite === "none" && !cookie.secure) return undefined
  if (cookie.name.startsWith("__Secure-") && !cookie.secure) return undefined
  if (cookie.name.startsWith("__Host-") && (!cookie.secure || domain !== undefined || !explicitPath || cookie.path !== "/")) return undefined
  return cookie
}

interface ParsedForm {
  method: "GET" | "POST"
  action: string
  fields: [string, string][]
}

/** Just enough HTML parsing for generated forms: `<form>`, its `<input>`s and the first submit button. */
function parseForms(html: string): ParsedForm[] {
  const forms: ParsedForm[] = []
  for (const match of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const attrs = attributesOf(match[1] ?? "")
    const fields: [string, string][] = []
    let submitted = false
    for (const control of (match[2] ?? "").matchAll(/<(input|button)\b([^>]*)>/gi)) {
      const a = attributesOf(control[2] ?? "")
      const type = (a.type ?? (control[1]?.toLowerCase() === "button" ? "submit" : "text")).toLowerCase()
      if (a.name === undefined || ["button", "reset", "image", "file"].includes(type)) continue
      if (type === "submit") {
        if (!submitted) fields.push([a.name, a.value ?? ""])
        submitted = true
      } else if ((type !== "checkbox" && type !== "radio") || "checked" in a) {
        fields.push([a.name, a.value ?? (type === "checkbox" || type === "radio" ? "on" : "")])
      }
    }
    forms.push({ method: attrs.method?.toUpperCase() === "GET" ? "GET" : "POST", action: attrs.action ?? "", fields })
  }
  return forms
}

function attributesOf(source: string): Record<string, string> {
  const attributes: Record<string, string> = {}
  for (const m of source.matchAll(/([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
    attributes[m[1]!.toLowerCase()] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? "")
  }
  return attributes
}

function decodeEntities(text: string): string {
  const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" }
  return text.replace(/&(#x[\da-f]+|#\d+|[a-z]+);/gi, (whole, entity: string) => {
    if (entity[0] === "#") {
      const code = entity[1] === "x" || entity[1] === "X" ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10)
      return String.fromCodePoint(code)
    }
    return named[entity.toLowerCase()] ?? whole
  })
}

/**
 * Random and adversarial requests, as plain data (so fast-check can print and shrink a failing
 * one) and the standard `Request` each of them becomes.
 *
 * A spec names its configuration by index and its path prefix by role ("the base path", "the
 * root", ...), so one spec means the same thing whichever configuration it lands on, and it can
 * ask for the configuration's genuine CSRF pair or session, whole or tampered.
 */
import fc from "fast-check"
import type { FuzzConfig, MintedCookie } from "./fuzz-configs.js"

/** How a genuine value is damaged before it is sent back. */
export type Tamper =
  | { kind: "flip"; at: number }
  | { kind: "truncate"; at: number }
  | { kind: "append"; text: string }
  | { kind: "replaceSegment"; at: number; text: string }
  | { kind: "dropSegment"; at: number }
  | { kind: "encode" }
  | { kind: "quote" }
  | { kind: "empty" }

export type CookieSpec =
  /** A cookie with any name and value. */
  | { kind: "random"; name: string; value: string }
  /** A name the library uses (or a chunk of one), with any value. */
  | { kind: "known"; name: string; value: string }
  /** A cookie minted under the request's configuration (`pick` among them), maybe damaged. */
  | { kind: "minted"; pick: number; tamper: Tamper | null }
  /** A cookie minted under any configuration, on any origin, maybe damaged. */
  | { kind: "foreign"; pick: number; tamper: Tamper | null }
  /** A genuine session value split into chunks, some dropped, maybe shuffled. */
  | { kind: "rechunk"; pick: number; parts: number; drop: number[]; reverse: boolean }
  /** Text put into the header as it is. */
  | { kind: "raw"; text: string }
  /** One very large cookie. */
  | { kind: "huge"; name: string; size: number }

export type BodySpec =
  | { kind: "none" }
  | { kind: "form"; fields: [string, string][]; tail: string }
  | { kind: "text"; text: string }
  | { kind: "bytes"; bytes: Uint8Array }
  | { kind: "json"; value: unknown }
  | { kind: "nested"; depth: number; open: string; close: string }
  | { kind: "multipart"; boundary: string; parts: [string, string][]; broken: boolean }
  | { kind: "stream"; chunks: Uint8Array[]; failAtEnd: boolean }

export type PathPrefix = "base" | "root" | "other" | "glued" | "doubled" | "upper"

/** A genuine email sign-in link of the configuration, one parameter replaced (or none). */
export interface LinkSpec {
  pick: number
  param: "token" | "email" | "callbackUrl" | "none"
  value: string
}

export interface RequestSpec {
  /** Index into the configurations (taken modulo their number). */
  config: number
  origin: string
  method: string
  prefix: PathPrefix
  segments: (string | number)[]
  trailing: string
  query: [string, string][]
  rawQuery: string
  encodeQuery: boolean
  headers: [string, string][]
  contentType: string | null
  contentLength: string | null
  cookies: CookieSpec[]
  cookieSeparator: string
  withCsrf: boolean
  withSession: number | null
  /** When set, and the configuration sends email links, the path and query are those of a link. */
  link: LinkSpec | null
  body: BodySpec
}

/** Latin-1 text without control characters: what a `Headers` accepts as a value. */
const headerText = (maxLength: number) =>
  fc.string({ unit: fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff })).map((code) => String.fromCharCode(code)), maxLength })

/** Any text: full Unicode, lone surrogates, controls. */
const anyText = (maxLength: number) => fc.oneof(fc.string({ unit: "binary", maxLength }), fc.string({ unit: "grapheme", maxLength }), fc.string({ maxLength }))

/** A run of one character, up to `max` long: long inputs without paying to generate each character. */
const longRun = (max: number) => fc.tuple(fc.constantFrom("a", "%", "/", ".", "é", "\u{1F600}", "%2F", "x="), fc.integer({ min: 1, max })).map(([text, count]) => text.repeat(count))

const HOSTILE_URLS = [
  "//evil.test",
  "///evil.test",
  "https://evil.test",
  "http://evil.test/x",
  "/\\evil.test",
  "\\\\evil.test",
  "https:evil.test",
  "https:/evil.test",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "https://app.test@evil.test",
  "https://app.test.evil.test",
  " https://evil.test",
  "\thttps://evil.test",
  "/%2F%2Fevil.test",
  "/%5Cevil.test",
  "https://evil\u3002test",
  "HTTPS://EVIL.TEST",
  "/x\r\nSet-Cookie: pwned=1",
  "/dashboard",
  "/",
  "https://app.test/ok",
  "http://localhost:3000/ok",
  "?x=1",
  "#frag",
  "",
]

/** Text that breaks out of HTML content or a quoted attribute unless escaped (see expectNoMarkupInjection). */
export const MARKUP_PAYLOADS = ['"><fz-x>', "'><fz-x>", '" fz-on="1', "' fz-on='1", "</title><fz-x>", "</style><fz-x>", "<!--<fz-x>", "/\"><fz-x>", "/x?a=\"><fz-x>", "ada@app.test\"><fz-x>"]

const ERROR_CODES = ["Configuration", "AccessDenied", "Verification", "CredentialsSignin", "MissingCSRF", "OAuthSignin", "Default", "undefined", "__proto__"]

/** Every action the routes serve (listed here: the core keeps its set private). */
const AUTH_ACTIONS = ["callback", "csrf", "error", "providers", "session", "signin", "signout", "verify-request", "webauthn-options"]

/** Provider ids that exist in some configuration, and some that exist in none. */
const PROVIDER_IDS = ["credentials", "email", "hub", "idp", "passkey", "github", "nope", "undefined", "__proto__", "constructor", "toString", "hasOwnProperty"]

const PATH_TRICKS = ["..", ".", "%2e%2e", "%2E", "%2F", "a%2Fb", "%2f..%2f", "%00", "%", "%E0%A4%A", "%ZZ", "%C0%AF", "SESSION", "%73ession", ";", ";x=1", "\\", "..\\", "%5C", "%20", " ", "~", "*", "@", ":", "auth", "api"]

const segment = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...AUTH_ACTIONS) },
  { weight: 4, arbitrary: fc.constantFrom(...PROVIDER_IDS) },
  { weight: 3, arbitrary: fc.constantFrom(...PATH_TRICKS) },
  { weight: 2, arbitrary: anyText(12) },
  { weight: 1, arbitrary: longRun(5_000) },
)

/** A path segment, or (a number) one of the request configuration's own provider ids. */
const providerSegment: fc.Arbitrary<string | number> = fc.oneof({ weight: 3, arbitrary: fc.nat() }, { weight: 2, arbitrary: segment })

/**
 * Path segments after the prefix: mostly a route that exists (an action, maybe a provider),
 * sometimes one with a trick segment spliced in, sometimes anything.
 */
const segments: fc.Arbitrary<(string | number)[]> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...AUTH_ACTIONS).map((action) => [action]) },
  { weight: 4, arbitrary: fc.tuple(fc.constantFrom("signin", "callback", "webauthn-options"), providerSegment) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...AUTH_ACTIONS), fc.nat(3), fc.constantFrom(...PATH_TRICKS)).map(([action, at, trick]) => [action, trick, action].slice(0, 1 + (at % 3))) },
  { weight: 2, arbitrary: fc.array(fc.oneof(segment, fc.nat()), { maxLength: 4 }) },
)

const queryKey = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom("callbackUrl", "error", "email", "token", "code", "state", "iss", "provider", "type", "redirect", "csrfToken", "prompt", "login_hint", "response_mode", "code_verifier", "nonce", "error_description", "error_uri", "session_state", "id_token", "user", "action") },
  { weight: 1, arbitrary: anyText(8) },
)

const queryValue = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_URLS) },
  { weight: 1, arbitrary: fc.constantFrom(...MARKUP_PAYLOADS) },
  { weight: 2, arbitrary: fc.constantFrom(...ERROR_CODES) },
  { weight: 2, arbitrary: fc.constantFrom("ada@app.test", "someone@example.com", " A@B.C ", "a@b", "@", "a@[127.0.0.1]", "\u0130@example.com", "ada@app.test\nbcc:x@evil.test") },
  { weight: 3, arbitrary: anyText(24) },
  { weight: 1, arbitrary: longRun(20_000) },
)

const ORIGINS = [
  "https://app.test",
  "http://localhost:3000",
  "http://127.0.0.1:8080",
  "https://[::1]:8443",
  "https://xn--bcher-kva.example",
  "http://APP.TEST",
  "https://app.test:443",
  "https://sub.app.test",
]

const origin = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...ORIGINS) }, { weight: 1, arbitrary: fc.domain().map((domain) => `https://${domain}`) })

const METHODS = ["GET", "POST", "get", "post", "Post", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "PROPFIND", "MKCOL", "M-SEARCH", "FOO", "GETS", "X"]

const method = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom("POST", "POST", "post") },
  { weight: 8, arbitrary: fc.constantFrom("GET", "GET", "get") },
  { weight: 2, arbitrary: fc.constantFrom(...METHODS) },
  { weight: 1, arbitrary: fc.stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,10}$/) },
)

const HEADER_NAMES = [
  "host",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-for",
  "x-forwarded-port",
  "x-real-ip",
  "forwarded",
  "origin",
  "referer",
  "sec-fetch-site",
  "sec-fetch-mode",
  "accept",
  "accept-language",
  "authorization",
  "user-agent",
  "x-auth-return-redirect",
  "transfer-encoding",
  "content-encoding",
  "x-csrf-token",
  "cookie",
]

const headerValue = fc.oneof(
  { weight: 3, arbitrary: headerText(40) },
  { weight: 2, arbitrary: fc.constantFrom("evil.test", "evil.test:443", "app.test", "https", "http", "javascript", "1.2.3.4", "1.2.3.4, 5.6.7.8", "for=1.2.3.4;host=evil.test;proto=http", "cross-site", "same-origin", "none", "1", "true", "gzip", "chunked") },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 30_000 }).map((size) => "h".repeat(size)) },
)

const header = fc.tuple(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...HEADER_NAMES) }, { weight: 1, arbitrary: fc.stringMatching(/^[a-zA-Z0-9-]{1,16}$/) }), headerValue)

const CONTENT_TYPES = [
  "application/x-www-form-urlencoded",
  "application/x-www-form-urlencoded; charset=UTF-8",
  "application/x-www-form-urlencoded; charset=utf-16",
  "application/json",
  "application/json; charset=utf-8",
  'application/json; charset="iso-8859-1"',
  "APPLICATION/JSON",
  "application/json-patch+json",
  "application/jsonx",
  "application/x-www-form-urlencoded, application/json",
  "text/plain",
  "text/plain; charset=application/json",
  "multipart/form-data; boundary=----fuzz",
  "multipart/form-data",
  "multipart/form-data; boundary=",
  'multipart/form-data; boundary="a;b"',
  "*/*",
  "",
]

/** Mostly `null` (the body's own type); otherwise any type, matching the body or not. */
const contentType = fc.oneof(
  { weight: 4, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...CONTENT_TYPES) }, { weight: 1, arbitrary: headerText(30) }) },
)

/** Mostly `null` (none sent); otherwise a declared length that may be a lie or not a number. */
const contentLength = fc.oneof(
  { weight: 6, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.oneof(fc.constantFrom("0", "1", "-1", "abc", "1e9", "65537", "99999999999999999999", " 12 ", "0x10", "NaN", "Infinity", "3, 4"), fc.nat(70_000).map(String)) },
)

const tamper: fc.Arbitrary<Tamper> = fc.oneof(
  fc.record({ kind: fc.constant("flip" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("append" as const), text: anyText(6) }),
  fc.record({ kind: fc.constant("replaceSegment" as const), at: fc.nat(6), text: fc.oneof(fc.constantFrom("", "eyJhbGciOiJub25lIn0", "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0", "AAAA"), anyText(10)) }),
  fc.record({ kind: fc.constant("dropSegment" as const), at: fc.nat(6) }),
  fc.constant({ kind: "encode" as const }),
  fc.constant({ kind: "quote" as const }),
  fc.constant({ kind: "empty" as const }),
)

const KNOWN_COOKIE_NAMES = [
  "__Secure-authjs.session-token",
  "authjs.session-token",
  "__Secure-authjs.session-token.0",
  "__Secure-authjs.session-token.1",
  "__Secure-authjs.session-token.9999",
  "__Secure-authjs.session-token.x",
  "authjs.session-token.0",
  "sid",
  "sid.0",
  "__Host-authjs.csrf-token",
  "authjs.csrf-token",
  "__Secure-authjs.callback-url",
  "authjs.callback-url",
  "__Secure-authjs.pkce.code_verifier",
  "__Secure-authjs.state",
  "__Secure-authjs.nonce",
  "__Secure-authjs.challenge",
  "authjs.challenge",
  "next-auth.session-token",
]

const cookieValue = fc.oneof(
  { weight: 3, arbitrary: headerText(40).filter((text) => !text.includes(";")) },
  { weight: 2, arbitrary: fc.constantFrom("", '""', '"', "%", "%E0%A4%A", "x|y", "|", "a".repeat(64) + "|" + "b".repeat(64), "....", "a.b.c.d.e", "eyJhbGciOiJub25lIn0.e30.", ...HOSTILE_URLS.map(encodeURIComponent), ...MARKUP_PAYLOADS.map(encodeURIComponent), ...MARKUP_PAYLOADS.map((payload) => encodeURIComponent(`https://app.test/${payload}`))) },
)

const cookie: fc.Arbitrary<CookieSpec> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("random" as const), name: headerText(12).filter((text) => !/[;=]/.test(text)), value: cookieValue }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("known" as const), name: fc.constantFrom(...KNOWN_COOKIE_NAMES), value: cookieValue }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("minted" as const), pick: fc.nat(), tamper: fc.oneof(fc.constant(null), tamper) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("foreign" as const), pick: fc.nat(), tamper: fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 2, arbitrary: tamper }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("rechunk" as const),
      pick: fc.nat(),
      parts: fc.integer({ min: 1, max: 5 }),
      drop: fc.array(fc.nat(5), { maxLength: 3 }),
      reverse: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("raw" as const), text: headerText(30) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("huge" as const), name: fc.constantFrom("big", ...KNOWN_COOKIE_NAMES), size: fc.integer({ min: 4_000, max: 120_000 }) }) },
)

const formField = fc.tuple(
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom("csrfToken", "callbackUrl", "email", "username", "password", "token", "action", "data", "response", "redirect", "json", "__proto__", "constructor", "code", "state", "iss", "error", "id_token", "user") },
    { weight: 1, arbitrary: anyText(8) },
  ),
  fc.oneof(
    { weight: 2, arbitrary: queryValue },
    { weight: 1, arbitrary: fc.constantFrom("ada", "big", "correct horse", "register", "authenticate", '{"id":"x"}', "[]", "null") },
  ),
)

/** JSON trees of any shape, and objects with the fields the routes read. */
const jsonValue = fc.oneof(
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  {
    weight: 3,
    arbitrary: fc.dictionary(
      fc.oneof(fc.constantFrom("csrfToken", "callbackUrl", "email", "username", "password", "data", "action", "response", "__proto__", "toString"), fc.string({ maxLength: 6 })),
      fc.oneof(queryValue, fc.jsonValue({ maxDepth: 3 })),
      { maxKeys: 6 },
    ),
  },
)

const body: fc.Arbitrary<BodySpec> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ kind: "none" as const }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("form" as const), fields: fc.array(formField, { maxLength: 6 }), tail: fc.oneof(fc.constant(""), fc.constantFrom("&", "&&", "=", "%", "&%%=%", "&a=%E0%A4%A", "&=x"), anyText(10)) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("text" as const), text: anyText(60) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("bytes" as const), bytes: fc.uint8Array({ maxLength: 200 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("json" as const), value: jsonValue }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("nested" as const),
      depth: fc.integer({ min: 100, max: 4_000 }),
      open: fc.constantFrom("[", '{"a":', '{"data":[', '{"csrfToken":'),
      close: fc.constantFrom("]", "}", "]}", ""),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("multipart" as const),
      boundary: fc.oneof(fc.constantFrom("----fuzz", "", "a;b", '"q"'), headerText(12)),
      parts: fc.array(formField, { maxLength: 4 }),
      broken: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("stream" as const), chunks: fc.array(fc.uint8Array({ minLength: 1, maxLength: 64 }), { maxLength: 4 }), failAtEnd: fc.boolean() }),
  },
)

/** A random request against one of `configCount` configurations. */
export function requestSpec(configCount: number): fc.Arbitrary<RequestSpec> {
  return fc.record({
    config: fc.nat(configCount - 1),
    origin,
    method,
    prefix: fc.oneof({ weight: 12, arbitrary: fc.constant<PathPrefix>("base") }, { weight: 1, arbitrary: fc.constantFrom<PathPrefix>("root", "other", "glued", "doubled", "upper") }),
    segments,
    trailing: fc.oneof({ weight: 6, arbitrary: fc.constant("") }, { weight: 1, arbitrary: fc.constantFrom("/", "//", "/.", "?", "#x", "/..") }),
    query: fc.array(fc.tuple(queryKey, queryValue), { maxLength: 4 }),
    rawQuery: fc.oneof({ weight: 4, arbitrary: fc.constant("") }, { weight: 1, arbitrary: fc.constantFrom("&", "%", "%%=%", "a=%E0%A4%A", "callbackUrl", "=x", "&&&", "callbackUrl=%2F%2Fevil.test") }, { weight: 1, arbitrary: anyText(16) }),
    encodeQuery: fc.boolean(),
    headers: fc.array(header, { maxLength: 4 }),
    contentType,
    contentLength,
    cookies: fc.array(cookie, { maxLength: 5 }),
    cookieSeparator: fc.constantFrom("; ", "; ", ";", " ; ", ",", ";;"),
    withCsrf: fc.boolean(),
    withSession: fc.oneof(fc.constant(null), fc.nat()),
    link: fc.oneof(
      { weight: 6, arbitrary: fc.constant(null) },
      {
        weight: 1,
        arbitrary: fc.record({
          pick: fc.nat(),
          param: fc.constantFrom<LinkSpec["param"]>("token", "email", "callbackUrl", "none"),
          value: fc.oneof(queryValue, fc.constantFrom("SOMEONE@example.com", " someone@example.com", "someone@example.com ", "someone@exampIe.com", "0".repeat(64), "f".repeat(63), "")),
        }),
      },
    ),
    body,
  })
}

// ---- turning a spec into a Request ----

function damage(value: string, how: Tamper | null): string {
  if (!how) return value
  switch (how.kind) {
    case "flip": {
      if (value.length === 0) return "A"
      const at = how.at % value.length
      const code = value.charCodeAt(at)
      const flipped = /[A-Za-z0-9]/.test(value[at]!) ? String.fromCharCode(code === 0x41 ? 0x42 : code ^ 1) : "A"
      return value.slice(0, at) + (flipped === value[at] ? "B" : flipped) + value.slice(at + 1)
    }
    case "truncate":
      return value.slice(0, value.length === 0 ? 0 : how.at % value.length)
    case "append":
      return value + how.text
    case "replaceSegment": {
      const parts = value.split(".")
      parts[how.at % parts.length] = how.text
      return parts.join(".")
    }
    case "dropSegment": {
      const parts = value.split(".")
      parts.splice(how.at % parts.length, 1)
      return parts.join(".")
    }
    case "encode":
      return encodeURIComponent(encodeURIComponent(value))
    case "quote":
      return `"${value}"`
    case "empty":
      return ""
  }
}

/** Every cookie minted under any configuration, on either origin. */
function allMinted(configs: readonly FuzzConfig[]): MintedCookie[] {
  return configs.flatMap((entry) =>
    [entry.minted.https, entry.minted.http].flatMap((minted) => [minted.csrf.cookie, ...minted.sessions.flat(), ...minted.others]),
  ).filter((cookie) => cookie.value !== "")
}

function renderCookie(spec: CookieSpec, entry: FuzzConfig, secure: boolean, configs: readonly FuzzConfig[]): string {
  const minted = secure ? entry.minted.https : entry.minted.http
  const own = [minted.csrf.cookie, ...minted.sessions.flat(), ...minted.others].filter((c) => c.value !== "")
  switch (spec.kind) {
    case "random":
    case "known":
      return `${spec.name}=${spec.value}`
    case "raw":
      return spec.text
    case "huge":
      return `${spec.name}=${"x".repeat(spec.size)}`
    case "minted":
    case "foreign": {
      const pool = spec.kind === "minted" ? own : allMinted(configs)
      if (pool.length === 0) return ""
      const chosen = pool[spec.pick % pool.length]!
      return `${chosen.name}=${damage(chosen.value, spec.tamper)}`
    }
    case "rechunk": {
      const sessions = minted.sessions
      if (sessions.length === 0) return ""
      const cookies = sessions[spec.pick % sessions.length]!
      const whole = cookies.map((c) => c.value).join("")
      const name = cookies[0]!.name.replace(/\.\d+$/, "")
      const size = Math.ceil(whole.length / spec.parts)
      const chunks = Array.from({ length: spec.parts }, (_, i) => `${name}.${i}=${whole.slice(i * size, (i + 1) * size)}`).filter((_, i) => !spec.drop.includes(i))
      return (spec.reverse ? chunks.reverse() : chunks).join("; ")
    }
  }
}

/** The request URL of a link spec: the link moved to the spec's origin, one parameter replaced. */
function linkUrl(spec: RequestSpec, links: readonly string[]): string | undefined {
  if (spec.link === null || links.length === 0) return undefined
  const link = new URL(links[spec.link.pick % links.length]!)
  if (spec.link.param !== "none") link.searchParams.set(spec.link.param, spec.link.value)
  return `${spec.origin}${link.pathname}${link.search}`
}

function pathOf(spec: RequestSpec, entry: FuzzConfig): string {
  const base = entry.basePath === "/" ? "" : entry.basePath
  const ids = entry.providerIds
  const prefix = {
    base,
    root: "",
    other: "/elsewhere",
    glued: `${base}x`,
    doubled: `${base}${base}`,
    upper: base.toUpperCase(),
  }[spec.prefix]
  const path = spec.segments.map((segment) => (typeof segment === "number" ? (ids[segment % ids.length] ?? "none") : segment))
  return `${prefix}/${path.join("/")}${spec.trailing}`
}

function queryOf(spec: RequestSpec): string {
  const pairs = spec.encodeQuery ? new URLSearchParams(spec.query).toString() : spec.query.map(([key, value]) => `${key}=${value}`).join("&")
  const query = [pairs, spec.rawQuery].filter(Boolean).join("&")
  return query ? `?${query}` : ""
}


interface BuiltBody {
  init: BodyInit | null
  /** The body as text, for telling reflected input from a leak. */
  text: string
  defaultType: string | null
  streaming: boolean
}

function bodyOf(spec: BodySpec, csrfToken: string | undefined): BuiltBody {
  switch (spec.kind) {
    case "none":
      return { init: null, text: "", defaultType: null, streaming: false }
    case "form": {
      const params = new URLSearchParams(spec.fields)
      if (csrfToken !== undefined) params.set("csrfToken", csrfToken)
      const text = [params.toString(), spec.tail].filter(Boolean).join("&")
      return { init: text, text, defaultType: "application/x-www-form-urlencoded", streaming: false }
    }
    case "text":
      return { init: spec.text, text: spec.text, defaultType: "text/plain", streaming: false }
    case "bytes":
      return { init: new Uint8Array(spec.bytes), text: new TextDecoder().decode(spec.bytes), defaultType: "application/octet-stream", streaming: false }
    case "json": {
      const value = csrfToken !== undefined && spec.value !== null && typeof spec.value === "object" && !Array.isArray(spec.value) ? { ...spec.value, csrfToken } : spec.value
      const text = JSON.stringify(value) ?? ""
      return { init: text, text, defaultType: "application/json", streaming: false }
    }
    case "nested": {
      const text = spec.open.repeat(spec.depth) + spec.close.repeat(spec.depth)
      return { init: text, text, defaultType: "application/json", streaming: false }
    }
    case "multipart": {
      const parts = spec.parts.map(([name, value]) => `--${spec.boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      const text = parts.join("") + (spec.broken ? `--${spec.boundary}` : `--${spec.boundary}--\r\n`)
      return { init: text, text, defaultType: `multipart/form-data; boundary=${spec.boundary}`, streaming: false }
    }
    case "stream": {
      const chunks = [...spec.chunks]
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = chunks.shift()
          if (next) controller.enqueue(next)
          else if (spec.failAtEnd) controller.error(new Error("connection reset by fuzz"))
          else controller.close()
        },
      })
      const text = spec.chunks.map((chunk) => new TextDecoder().decode(chunk)).join("")
      return { init: stream, text, defaultType: "application/x-www-form-urlencoded", streaming: true }
    }
  }
}

/** A built request, and all the text it carried (to tell input echoed back from a leak). */
export interface BuiltRequest {
  request: Request
  entry: FuzzConfig
  input: string
  /** Whether the URL is one of the configuration's sign-in links (see `RequestSpec.link`). */
  fromLink: boolean
}

/**
 * The standard `Request` for `spec`, or `undefined` when the `Request` constructor itself refuses
 * the combination (a method it forbids, a body on GET): no client can send that through `fetch`.
 */
export function buildRequest(spec: RequestSpec, configs: readonly FuzzConfig[]): BuiltRequest | undefined {
  const entry = configs[spec.config % configs.length]!
  const secure = spec.origin.startsWith("https:") || entry.config.useSecureCookies === true
  const minted = secure ? entry.minted.https : entry.minted.http
  const csrfToken = spec.withCsrf && minted.csrf.token ? minted.csrf.token : undefined

  const cookieParts = spec.cookies.map((cookie) => renderCookie(cookie, entry, secure, configs))
  if (spec.withCsrf && minted.csrf.cookie.value) cookieParts.unshift(`${minted.csrf.cookie.name}=${minted.csrf.cookie.value}`)
  if (spec.withSession !== null && minted.sessions.length > 0) {
    const session = minted.sessions[spec.withSession % minted.sessions.length]!
    cookieParts.push(...session.map(({ name, value }) => `${name}=${value}`))
  }
  const cookieHeader = cookieParts.filter(Boolean).join(spec.cookieSeparator)

  const link = linkUrl(spec, secure ? entry.minted.https.links : entry.minted.http.links)
  const url = link ?? `${spec.origin}${pathOf(spec, entry)}${queryOf(spec)}`
  let request: Request
  const built = bodyOf(spec.body, csrfToken)
  try {
    const headers = new Headers()
    for (const [name, value] of spec.headers) headers.append(name, value)
    const type = spec.contentType ?? built.defaultType
    if (type !== null && built.init !== null) headers.set("content-type", type)
    if (spec.contentLength !== null) headers.set("content-length", spec.contentLength)
    if (cookieHeader) headers.append("cookie", cookieHeader)
    const bodyless = /^(GET|HEAD)$/i.test(spec.method)
    const init: RequestInit & { duplex?: "half" } = { method: spec.method, headers }
    if (!bodyless && built.init !== null) {
      init.body = built.init
      if (built.streaming) init.duplex = "half"
    }
    request = new Request(url, init)
  } catch {
    return undefined
  }
  const headerText = [...request.headers].map(([name, value]) => `${name}: ${value}`).join("\n")
  return { request, entry, fromLink: link !== undefined, input: [url, safeDecode(url), request.url, safeDecode(request.url), headerText, safeDecode(headerText), built.text, safeDecode(built.text)].join("\n") }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "))
  } catch {
    return text
  }
}

/** The configuration a spec runs against. */
export function configOf(spec: RequestSpec, configs: readonly FuzzConfig[]): FuzzConfig {
  return configs[spec.config % configs.length]!
}

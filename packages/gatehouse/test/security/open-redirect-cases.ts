/**
 * The open-redirect matrix's inputs and its one rule. The inputs are callback URLs an attacker
 * would try (grouped by trick, built for the app's own origin so the userinfo and look-alike
 * tricks name it), and same-origin ones that must survive. The rule, {@link offOriginReason}, is
 * stricter than "a browser resolving it stays here": whatever the library hands out is read again
 * later (by Auth.js sharing the cookie, by client code doing `new URL(url)`, by a login page that
 * puts it into a link, by a server in another language), so it must name this origin on its own,
 * as printable ASCII without a backslash, with a path that cannot turn into a host.
 */

const EVIL = "evil.test"

/** Hostile callback URLs, by trick, for an app on `appOrigin` (e.g. `https://app.test`). */
export function hostileCallbackUrlGroups(appOrigin: string): Record<string, readonly string[]> {
  const app = new URL(appOrigin)
  const host = app.host
  const hostname = app.hostname
  const otherScheme = app.protocol === "https:" ? "http:" : "https:"

  return {
    "protocol-relative and slash confusions": [
      `//${EVIL}`,
      `//${EVIL}/`,
      `//${EVIL}/path?x=1#y`,
      `///${EVIL}`,
      `////${EVIL}`,
      `/////${EVIL}/x`,
      `//${EVIL}:443/x`,
      `//${EVIL}:80`,
      `//${EVIL}.`,
      `//EVIL.TEST`,
      `//${EVIL}#${host}`,
      `//${EVIL}?${host}`,
      `//${host}@${EVIL}`,
      `//user@${EVIL}`,
      `\\\\${EVIL}`,
      `\\${EVIL}`,
      `\\/${EVIL}`,
      `/\\${EVIL}`,
      `/\\/${EVIL}`,
      `//\\${EVIL}`,
      `\\//${EVIL}`,
      `\\\\\\${EVIL}`,
      `/\\\\${EVIL}`,
      `\\\\${EVIL}\\x`,
    ],
    "userinfo": [
      `https://${host}@${EVIL}`,
      `https://${hostname}:443@${EVIL}`,
      `https://${host}:pw@${EVIL}/`,
      `http://${host}@${EVIL}`,
      `${appOrigin}@${EVIL}`,
      `${appOrigin}@${EVIL}/x?y#z`,
      `https://user:pass@${EVIL}`,
      `https://@${EVIL}`,
      `https://${host}%40${EVIL}`,
      `https://${host}%2540${EVIL}`,
      `https://${host}\\@${EVIL}`,
      `https://${host}&@${EVIL}#@${host}`,
      `https://${EVIL}\\@${host}`,
      `https://${EVIL}#@${host}`,
      `https://${EVIL}?@${host}`,
      `https://${EVIL}%23@${host}`,
      `https://${host}@${EVIL}@${host}`,
    ],
    "other origins": [
      `https://${EVIL}`,
      `https://${EVIL}/`,
      `http://${EVIL}`,
      `https://${hostname}.${EVIL}`,
      `https://${EVIL}/${host}`,
      `https://${EVIL}/?next=${encodeURIComponent(appOrigin)}`,
      `https://sub.${hostname}/`,
      `${otherScheme}//${host}/`,
      `${otherScheme}//${host}/dashboard`,
      `${app.protocol}//${hostname}.`,
      `${app.protocol}//${hostname}.:${app.port || (app.protocol === "https:" ? 443 : 80)}/`,
      `${app.protocol}//${hostname}:444/`,
      `${app.protocol}//${hostname}:8443/x`,
      `${app.protocol}//${hostname}:0/`,
      `${app.protocol}//${hostname}:65536/`,
      `${app.protocol}//${hostname}:443.${EVIL}`,
      `ws://${host}/`,
      `wss://${EVIL}`,
      `https://localhost/`,
      `https://${EVIL}/%2e%2e/`,
    ],
    "scheme without slashes": [
      `https:${EVIL}`,
      `https:/${EVIL}`,
      `https:\\\\${EVIL}`,
      `https:\\${EVIL}`,
      `http:${EVIL}`,
      `http:/${EVIL}`,
      `HTTPS:${EVIL}`,
      `https:/\\${EVIL}`,
      `https:///${EVIL}`,
      `https:\\/\\/${EVIL}`,
      `${app.protocol}${EVIL}`,
    ],
    "script and other schemes": [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      "JAVASCRIPT:alert(1)",
      "java\tscript:alert(1)",
      "java\nscript:alert(1)",
      "java\rscript:alert(1)",
      "\tjavascript:alert(1)",
      " javascript:alert(1)",
      "\u0000javascript:alert(1)",
      "\u0001javascript:alert(1)",
      "javascript\t:alert(1)",
      "javascript:%0aalert(1)",
      `javascript://${host}/%0aalert(1)`,
      `javascript://%0aalert(1)//${appOrigin}`,
      `javascript:${appOrigin}`,
      "jav&#x09;ascript:alert(1)",
      "&#106;avascript:alert(1)",
      "javascript&colon;alert(1)",
      "%6Aavascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "DaTa:text/html,<script>alert(1)</script>",
      "d\tata:text/html,x",
      "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
      `data:,${appOrigin}`,
      "vbscript:msgbox(1)",
      "VbScRiPt:msgbox(1)",
      "vb\nscript:msgbox(1)",
      "file:///etc/passwd",
      `ftp://${EVIL}`,
      `mailto:x@${EVIL}`,
      `blob:https://${EVIL}/x`,
      `blob:${appOrigin}/x`,
      "about:blank",
      `view-source:https://${EVIL}`,
      `intent://${EVIL}#Intent;scheme=https;end`,
      "chrome://settings",
      "tel:+15551234567",
    ],
    "percent-encoded and double-encoded": [
      `%2F%2F${EVIL}`,
      `%2f%2f${EVIL}`,
      `/%2F%2F${EVIL}`,
      `/%2f/${EVIL}`,
      `/%2F%5C${EVIL}`,
      `/%5C${EVIL}`,
      `/%5C%5C${EVIL}`,
      `%5C%5C${EVIL}`,
      `%252F%252F${EVIL}`,
      `/%252F%252F${EVIL}`,
      `%25252F%25252F${EVIL}`,
      `https%3A%2F%2F${EVIL}`,
      `https%3A//${EVIL}`,
      `https:%2F%2F${EVIL}`,
      `%68ttps://${EVIL}`,
      `%2F%2F%65vil.test`,
      `/%09/${EVIL}`,
      `/%0a/${EVIL}`,
      `/%00/${EVIL}`,
      `//%65vil.test`,
      `//evil%2etest`,
      `/%2F%2F%2F${EVIL}`,
      `%0d%0a//${EVIL}`,
      `//%2F${EVIL}`,
      `/%E3%80%82/${EVIL}`,
      `https://evil%E3%80%82test`,
      `https://%65vil.test`,
      `${appOrigin}%2F%2F${EVIL}`,
      `${appOrigin}%40${EVIL}`,
    ],
    "unicode dots, slashes and look-alikes": [
      "//evil\u3002test",
      "//evil\uff0etest",
      "//evil\uff61test",
      "https://evil\u3002test",
      "https://evil\uff0etest",
      "https://evil\uff61test",
      `https://${hostname}\u3002${EVIL}`,
      `https://${hostname}\uff0e${EVIL}`,
      `https://${hostname}\uff61${EVIL}`,
      `\uff0f\uff0f${EVIL}`,
      `/\uff0f${EVIL}`,
      `\uff3c\uff3c${EVIL}`,
      `/\uff3c${EVIL}`,
      `\u2215\u2215${EVIL}`,
      `\u2044\u2044${EVIL}`,
      `\ufe68\ufe68${EVIL}`,
      `\u2216\u2216${EVIL}`,
      `\uff48\uff54\uff54\uff50\uff53://${EVIL}`,
      "https://\uff45\uff56\uff49\uff4c.test",
      "https://\u24d4\u24e5\u24d8\u24db.test",
      "https://\u0430pp.test",
      "https://app.t\u0435st",
      "https://xn--pp-7ka.test",
      "https://xn--80ak6aa92e.com",
      `https://${EVIL}\u200b`,
      `https://\u200b${EVIL}`,
      `https://${EVIL}\uff0f${host}`,
      `https://${EVIL}\u2044${host}`,
    ],
    "whitespace, CR/LF and NUL": [
      ` //${EVIL}`,
      `//${EVIL} `,
      `\t//${EVIL}`,
      `\n//${EVIL}`,
      `\r\n//${EVIL}`,
      `\u0000//${EVIL}`,
      `//${EVIL}\u0000`,
      `\u000b//${EVIL}`,
      `\u000c//${EVIL}`,
      `\u00a0//${EVIL}`,
      `\u2028//${EVIL}`,
      `\u3000//${EVIL}`,
      `\ufeff//${EVIL}`,
      `/\t/${EVIL}`,
      `/\n/${EVIL}`,
      `/\r/${EVIL}`,
      `/\r\n/${EVIL}`,
      `/ /${EVIL}`,
      `/\u0000/${EVIL}`,
      `/\\\t\\${EVIL}`,
      ` https://${EVIL}`,
      `https://${EVIL} `,
      `\thttps://${EVIL}`,
      `h\nttps://${EVIL}`,
      `https:/\n/${EVIL}`,
      `https://ev\til.test`,
      `  \t\n https://${EVIL}  \r\n`,
      `/\r\nLocation: https://${EVIL}`,
      "/\r\nSet-Cookie: x=y",
      "/%0d%0aSet-Cookie:x=y",
      `//${EVIL}%0d%0aSet-Cookie:x=y`,
      `https://${EVIL}/\r\nLocation: https://${EVIL}`,
      `${appOrigin}/\r\nLocation: https://${EVIL}`,
      `${appOrigin}\r\n@${EVIL}`,
    ],
    "mixed case": [
      `HTTPS://EVIL.TEST`,
      `hTtPs://eViL.TeSt`,
      `HtTp://evil.test`,
      `//EvIl.TeSt/x`,
      `HTTPS://${hostname.toUpperCase()}.EVIL.TEST`,
      `HTTPS://${host.toUpperCase()}@EVIL.TEST`,
      `${otherScheme.toUpperCase()}//${host.toUpperCase()}/`,
    ],
    "IP literals and numeric hosts": [
      "https://127.0.0.1",
      "http://127.0.0.1/",
      "https://[::1]",
      "https://[::ffff:127.0.0.1]",
      "https://[0:0:0:0:0:0:0:1]/",
      "https://2130706433",
      "https://0x7f000001",
      "https://0x7f.1",
      "https://017700000001",
      "https://127.1",
      "https://0",
      "//2130706433",
      "//0x7f.1/x",
      "http://169.254.169.254/latest/meta-data/",
      "https://[::1",
      "https://[fe80::1%25eth0]",
      "//[::1]",
      "https://3232235777",
    ],
    "dot segments": [
      `/..//${EVIL}`,
      `/a/../..//${EVIL}`,
      `/%2e%2e//${EVIL}`,
      `/.%2e//${EVIL}`,
      `/%2e%2e/%2f${EVIL}`,
      `/./\\${EVIL}`,
      `/.//${EVIL}`,
      `/..\\\\${EVIL}`,
      `${appOrigin}/..//${EVIL}`,
      `${appOrigin}//${EVIL}`,
      `${appOrigin}/%2e%2e//${EVIL}`,
      `${appOrigin}/.//${EVIL}`,
      `${appOrigin}/..\\\\${EVIL}`,
      `/x/..\\/${EVIL}`,
      `..//${EVIL}`,
      `./..//${EVIL}`,
      `/%2e%2e%5c%5c${EVIL}`,
      `/%2F/${EVIL}/../..//${EVIL}`,
    ],
    "very long": [
      `https://${EVIL}/${"a".repeat(10_000)}`,
      `//${EVIL}/${"a".repeat(10_000)}`,
      `https://${EVIL}/${"a".repeat(100_000)}`,
      `//${EVIL}/${"a".repeat(100_000)}`,
      `/${"/".repeat(10_000)}${EVIL}`,
      `${appOrigin}@${EVIL}/${"b".repeat(10_000)}`,
      `https://${"a.".repeat(5_000)}${EVIL}`,
      `javascript:${"/".repeat(10_000)}alert(1)`,
      `/${"%2F".repeat(5_000)}${EVIL}`,
    ],
  }
}

/** Every hostile callback URL for `appOrigin`, each once. */
export function hostileCallbackUrls(appOrigin: string): string[] {
  return [...new Set(Object.values(hostileCallbackUrlGroups(appOrigin)).flat())]
}

/** Same-origin callback URLs and the absolute URL each must come back as. */
export function benignCallbackUrls(appOrigin: string): [given: string, expected: string][] {
  return [
    ["/dashboard?x=1#y", `${appOrigin}/dashboard?x=1#y`],
    [`${appOrigin}/a/b?c=d&e=f#g`, `${appOrigin}/a/b?c=d&e=f#g`],
    ["/", `${appOrigin}/`],
    ["/search?q=%2F%2Fnot-a-host&next=%2Fx", `${appOrigin}/search?q=%2F%2Fnot-a-host&next=%2Fx`],
  ]
}

/**
 * Why `value`, handed out by the library for an app on `appOrigin`, could take someone elsewhere;
 * `undefined` when it cannot. A path must start with exactly one `/`; anything that names a
 * scheme must name this origin when parsed without a base.
 */
export function offOriginReason(value: string | null | undefined, appOrigin: string): string | undefined {
  if (value === null || value === undefined) return "missing"
  if (value === "") return "empty"
  if (/[^\x21-\x7e]/.test(value)) return "holds whitespace, a control character or non-ASCII"
  // WHATWG parsers read `\` as `/` in http(s) URLs, others (Python's urllib, many proxies) do not:
  // `https://app.test\@evil.test` is this origin to one and evil.test to the other.
  if (value.includes("\\")) return "holds a backslash, which URL parsers read differently"
  let url: URL
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(value)) {
    try {
      url = new URL(value)
    } catch {
      return "names a scheme but is no URL"
    }
  } else if (value.startsWith("/") && !value.startsWith("//") && !value.startsWith("/\\")) {
    url = new URL(value, appOrigin)
  } else {
    return "neither an absolute URL nor a path"
  }
  if (url.origin !== appOrigin) return `resolves to ${url.origin}`
  if (url.pathname.startsWith("//")) return "its path starts with //, a host when reused as a relative URL"
  return undefined
}

/** A value shortened for a failure message. */
export function shown(value: string | null | undefined): string {
  const json = JSON.stringify(value) ?? String(value)
  return json.length > 90 ? `${json.slice(0, 80)}…(${value!.length} chars)` : json
}

const EMPTY_ICON = '<link rel="icon" href="data:,">'

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", "#39": "'" }

function unescapeHtml(text: string): string {
  return text.replace(/&(#x[\da-f]+|#\d+|[a-z]+);/gi, (whole, entity: string) => {
    if (ENTITIES[entity.toLowerCase()] !== undefined) return ENTITIES[entity.toLowerCase()]!
    if (entity.startsWith("#x") || entity.startsWith("#X")) return String.fromCodePoint(parseInt(entity.slice(2), 16))
    if (entity.startsWith("#")) return String.fromCodePoint(parseInt(entity.slice(1), 10))
    return whole
  })
}

/**
 * The URLs a page sends a browser to: every `href`, `action` and `formaction`, and every hidden
 * `callbackUrl` input (a form posts it back, and the route then redirects there), unescaped.
 */
export function pageUrls(html: string): { where: string; url: string }[] {
  const found: { where: string; url: string }[] = []
  // The built-in pages' empty icon (so the browser asks the app for no /favicon.ico) names no
  // place at all; only that exact tag is passed over.
  html = html.replaceAll(EMPTY_ICON, "")
  for (const match of html.matchAll(/\s(href|action|formaction)\s*=\s*"([^"]*)"/gi)) {
    found.push({ where: `page ${match[1]!.toLowerCase()}`, url: unescapeHtml(match[2]!) })
  }
  for (const match of html.matchAll(/<input\b[^>]*>/gi)) {
    const tag = match[0]
    if (!/\sname\s*=\s*"callbackUrl"/i.test(tag)) continue
    const value = /\svalue\s*=\s*"([^"]*)"/i.exec(tag)?.[1]
    found.push({ where: "page hidden callbackUrl input", url: value === undefined ? "" : unescapeHtml(value) })
  }
  return found
}

/** The hidden `callbackUrl` values of a page: where its forms would send the user afterwards. */
export function hiddenCallbackUrls(html: string): string[] {
  return pageUrls(html)
    .filter((found) => found.where === "page hidden callbackUrl input")
    .map((found) => found.url)
}

/** The decoded value of cookie `name` set by a response with `headers` (the last line for it), if any. */
export function setCookieValue(headers: Headers, name: string): string | undefined {
  let value: string | undefined
  for (const line of headers.getSetCookie()) {
    const pair = line.split(";")[0]!
    const eq = pair.indexOf("=")
    if (pair.slice(0, eq) !== name) continue
    const raw = pair.slice(eq + 1)
    try {
      value = decodeURIComponent(raw)
    } catch {
      value = raw
    }
  }
  return value
}

/** Runs `task` over `items` with at most `limit` at a time. */
export async function eachLimited<T>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      await task(items[index]!, index)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
}

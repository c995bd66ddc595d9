/**
 * Host-header injection inputs: the headers a client (or a misconfigured proxy) can use to name
 * another host or protocol, and Host values that try to smuggle a path, credentials or a scheme
 * past a host check. Everything names `evil.test`, so an answer that mentions it was swayed.
 */

export const FOREIGN_HOST = "evil.test"

/** Header sets that each name a foreign host (or downgrade the protocol) some way. */
export const forgedHeaderSets: Record<string, Record<string, string>> = {
  "Host": { host: FOREIGN_HOST },
  "X-Forwarded-Host": { "x-forwarded-host": FOREIGN_HOST },
  "X-Forwarded-Host with a port, and X-Forwarded-Proto: http": { "x-forwarded-host": `${FOREIGN_HOST}:8443`, "x-forwarded-proto": "http" },
  "a list in X-Forwarded-Host": { "x-forwarded-host": `${FOREIGN_HOST}, app.test`, "x-forwarded-proto": "https, http" },
  "Forwarded (RFC 7239)": { forwarded: `for=203.0.113.7;host=${FOREIGN_HOST};proto=http` },
  "X-Original-Host, X-Host, X-Forwarded-Server, X-HTTP-Host-Override": {
    "x-original-host": FOREIGN_HOST,
    "x-host": FOREIGN_HOST,
    "x-forwarded-server": FOREIGN_HOST,
    "x-http-host-override": FOREIGN_HOST,
  },
  "all of them at once": {
    host: FOREIGN_HOST,
    "x-forwarded-host": FOREIGN_HOST,
    "x-forwarded-proto": "http",
    "x-forwarded-port": "80",
    forwarded: `host=${FOREIGN_HOST};proto=http`,
    "x-original-host": FOREIGN_HOST,
  },
}

/**
 * Host header values that are not plain hosts: each tries to carry a path, userinfo, query,
 * fragment, whitespace, a second host or a scheme along with (or instead of) a host.
 */
export const hostileHosts: readonly string[] = [
  `${FOREIGN_HOST}/path`,
  `app.test@${FOREIGN_HOST}`,
  `app.test:443@${FOREIGN_HOST}`,
  `${FOREIGN_HOST}#@app.test`,
  `${FOREIGN_HOST}?@app.test`,
  `${FOREIGN_HOST}?`,
  `${FOREIGN_HOST}#`,
  `${FOREIGN_HOST}\\app.test`,
  `${FOREIGN_HOST} app.test`,
  `${FOREIGN_HOST}\tapp.test`,
  `${FOREIGN_HOST}%2f..`,
  `${FOREIGN_HOST}%40app.test`,
  `app.test%2F@${FOREIGN_HOST}`,
  `//${FOREIGN_HOST}`,
  `http://${FOREIGN_HOST}`,
  `javascript:alert(1)`,
  `${FOREIGN_HOST}:99999`,
  `${FOREIGN_HOST}:port`,
  `[::1]@${FOREIGN_HOST}`,
  `[::1`,
  "",
]

/** X-Forwarded-Proto values that are not `http` or `https`. */
export const hostileProtos: readonly string[] = ["javascript", "file", "ftp", "data", `https://${FOREIGN_HOST}`, "https:/", "ws", "HTTPS\\", "gopher"]

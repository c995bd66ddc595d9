/** Cookies as a browser keeps them, without vitest, so the bench can use it too. */

/** Cookies as a browser keeps them for one origin: set by `Set-Cookie`, removed by `Max-Age=0`. */
export class CookieJar {
  readonly cookies = new Map<string, string>()

  store(response: Response): Response {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";")
      const eq = pair!.indexOf("=")
      const name = pair!.slice(0, eq)
      const value = pair!.slice(eq + 1)
      if (/;\s*Max-Age=0(;|$)/i.test(line) || value === "") this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return response
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ")
  }

  get(name: string): string | undefined {
    const value = this.cookies.get(name)
    return value === undefined ? undefined : decodeURIComponent(value)
  }
}


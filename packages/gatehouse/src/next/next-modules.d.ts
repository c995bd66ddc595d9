/**
 * The few Next.js functions the integration calls, declared here so the workspace need not
 * install Next (some 300 MB) to build: the application has it. Only what is used, with the
 * shapes Next 15/16 give them. Never emitted (a declaration file); the one public type of
 * `gatehouse-auth/next` that refers to them, `NextRequest`, names Next's own in the emitted
 * declarations, which the application's `next` resolves.
 */
declare module "next/headers.js" {
  interface CookieJar {
    set(name: string, value: string, options?: Record<string, unknown>): unknown
  }
  export function headers(): Promise<Headers>
  export function cookies(): Promise<CookieJar>
}

declare module "next/server.js" {
  /** Next's request: the part the integration reads. The app's own `next` gives the whole type. */
  export class NextRequest extends Request {
    readonly nextUrl: URL
  }
  export class NextResponse extends Response {
    static next(init?: ResponseInit): NextResponse
    static redirect(url: string | URL, init?: number | ResponseInit): NextResponse
  }
}

declare module "next/navigation" {
  export function redirect(url: string): never
}

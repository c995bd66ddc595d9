/**
 * The two SvelteKit functions the integration calls, and the environment modules it reads,
 * declared here so the workspace need not install Kit to build: the application has it. Only
 * what is used, with the shapes Kit 2 and 3 give them. Never emitted (a declaration file), and no
 * public type of `gatehouse-auth/sveltekit` refers to them.
 */
declare module "@sveltejs/kit" {
  /** `options` from Kit 3 on (Kit 2's takes two parameters, and JavaScript drops the third). */
  export function redirect(status: 300 | 301 | 302 | 303 | 304 | 305 | 306 | 307 | 308, location: string | URL, options?: { external?: boolean | string[] }): never
  export function error(status: number, body: string): never
}

declare module "$env/dynamic/private" {
  export const env: Record<string, string | undefined>
}

declare module "$app/environment" {
  export const building: boolean
}

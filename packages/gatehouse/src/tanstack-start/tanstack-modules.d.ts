/**
 * The few TanStack Start server functions the integration calls, declared here so the workspace
 * need not install TanStack Start (and Vite, nitro) to build: the application has it. Only what is
 * used, with the shapes `@tanstack/react-start/server` 1.x gives them. Never emitted (a declaration
 * file), and no public type of `gatehouse-auth/tanstack-start` refers to them.
 */
declare module "@tanstack/react-start/server" {
  export function getRequest(): Request
  export function getResponseHeader(name: string): string | undefined
  export function setResponseHeader(name: string, value: string | string[]): void
  export function appendResponseHeader(name: string, value: string | string[]): void
}

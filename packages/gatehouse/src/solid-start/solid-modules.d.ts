/**
 * The two Solid functions `createSession` calls, declared here so the workspace need not install
 * solid-js to build: the application has it. Never emitted (a declaration file), and no public
 * type of `gatehouse-auth/solid-start/client` refers to them.
 */
declare module "solid-js" {
  export function createSignal<T>(value: T): [() => T, (next: () => T) => T]
  export function onMount(fn: () => void): void
}

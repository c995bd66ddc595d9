// The components, compiled by the app's Vite (the package's `svelte` export condition).
export { default as SignIn } from "./SignIn.svelte"
export { default as SignOut } from "./SignOut.svelte"

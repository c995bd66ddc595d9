#!/usr/bin/env node
// @ts-check
/** `npm run demo`: loads (or creates) the `.env`, starts the demo, says what to try. */
import { fileURLToPath } from "node:url"
import { loadEnvFile } from "./env-file.js"
import { DEMO_EMAIL, DEMO_PASSWORD, startDemo } from "./demo.js"

const envPath = fileURLToPath(new URL("../.env", import.meta.url))
const { created } = loadEnvFile(envPath, process.env)
if (created) console.log(`No AUTH_SECRET was set, so a new one was written to ${envPath}.`)

const port = Number(process.env.PORT ?? 3000)
const demo = await startDemo({ port }).catch((error) => {
  console.error(error?.code === "EADDRINUSE" ? `Port ${port} is in use; try PORT=3001 npm run demo` : error)
  process.exit(1)
})

console.log(`
Gatehouse demo: ${demo.url}

  Sign in        ${demo.url}/auth/signin
    demo account ${DEMO_EMAIL} / ${DEMO_PASSWORD}
    email link   any address; the link arrives at ${demo.url}/dev/inbox
    OpenID       the Dev OpenID Provider takes any email (${DEMO_EMAIL} is the demo account)
    passkey      "Sign up with Passkey" creates one; passkeys work on localhost, not 127.0.0.1
  Protected page ${demo.url}/protected
  JSON API       ${demo.url}/api/me  (401 without a session)
  Organizations  ${demo.url}/organizations  (create one, invite an address: the link lands in the inbox)

Ctrl+C stops it. Data: examples/express/.data/ (delete it to start over).
`)

for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM"])) {
  process.once(signal, () => {
    demo.close().then(() => process.exit(0))
  })
}

// Bun: Bun.serve hands the app Web Requests as they are.
import { createApp } from "./app.mjs"

const handle = createApp(Bun.env)
Bun.serve({ hostname: "127.0.0.1", port: Number(Bun.env.PORT), fetch: handle })
console.log(JSON.stringify({ ready: true, version: Bun.version }))

// Deno: Deno.serve hands the app Web Requests as they are.
import { createApp } from "./app.mjs"

const handle = createApp(Deno.env.toObject())
Deno.serve({ hostname: "127.0.0.1", port: Number(Deno.env.get("PORT")), onListen: () => console.log(JSON.stringify({ ready: true, version: Deno.version.deno })) }, handle)

// A Cloudflare Worker: the environment arrives as bindings, with each request.
import { createApp } from "./app.mjs"

let handle
export default {
  fetch(request, env) {
    handle ??= createApp(env)
    return handle(request)
  },
}

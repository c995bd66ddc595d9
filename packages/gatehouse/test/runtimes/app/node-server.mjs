// Node: node:http, its requests turned into Web Requests and the Web Responses written back.
import { createServer } from "node:http"
import { Readable } from "node:stream"
import { createApp } from "./app.mjs"

const handle = createApp(process.env)

const server = createServer(async (incoming, outgoing) => {
  try {
    const headers = new Headers()
    for (const [name, value] of Object.entries(incoming.headers)) {
      for (const item of [value].flat()) if (item !== undefined) headers.append(name, item)
    }
    const hasBody = incoming.method !== "GET" && incoming.method !== "HEAD"
    const request = new Request(`http://${incoming.headers.host}${incoming.url}`, {
      method: incoming.method,
      headers,
      body: hasBody ? Readable.toWeb(incoming) : undefined,
      duplex: hasBody ? "half" : undefined,
    })
    const response = await handle(request)
    const out = {}
    response.headers.forEach((value, name) => {
      if (name !== "set-cookie") out[name] = value
    })
    const cookies = response.headers.getSetCookie()
    if (cookies.length > 0) out["set-cookie"] = cookies
    outgoing.writeHead(response.status, out)
    outgoing.end(Buffer.from(await response.arrayBuffer()))
  } catch (error) {
    console.error(error)
    outgoing.writeHead(500).end()
  }
})
server.listen(Number(process.env.PORT), "127.0.0.1", () => {
  console.log(JSON.stringify({ ready: true, version: process.version }))
})

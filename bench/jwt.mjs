// Session-token throughput, Gatehouse against Auth.js in the same process and run.
// Prints operations per second and the ratio; it never fails. Run: npm run bench (after npm run build).
import * as authjs from "@auth/core/jwt"
import * as gatehouse from "gatehouse/jwt"

const secret = "bench-secret-0123456789abcdef0123456789abcdef"
const salt = "authjs.session-token"
const claims = { name: "Ada Lovelace", email: "ada@example.com", picture: "https://example.com/a.png", sub: "user-1" }
const DURATION_MS = Number(process.env.BENCH_MS ?? 1000)

async function opsPerSecond(fn) {
  for (let i = 0; i < 50; i++) await fn() // warm up JIT and caches
  let count = 0
  const started = performance.now()
  while (performance.now() - started < DURATION_MS) {
    await fn()
    count++
  }
  return (count * 1000) / (performance.now() - started)
}

const token = await gatehouse.encode({ token: claims, secret, salt })
const request = new Request("https://app.test/", { headers: { cookie: `${salt}=${token}` } })

const cases = {
  encode: (lib) => () => lib.encode({ token: claims, secret, salt }),
  decode: (lib) => () => lib.decode({ token, secret, salt }),
  getToken: (lib) => () => lib.getToken({ req: request, secret }),
}

console.log("operation   gatehouse ops/s   auth.js ops/s   ratio (gatehouse / auth.js)")
for (const [name, make] of Object.entries(cases)) {
  const ours = await opsPerSecond(make(gatehouse))
  const theirs = await opsPerSecond(make(authjs))
  console.log(`${name.padEnd(11)} ${ours.toFixed(0).padStart(15)} ${theirs.toFixed(0).padStart(15)}   ${(ours / theirs).toFixed(2)}x`)
}

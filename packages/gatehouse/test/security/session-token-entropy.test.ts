/**
 * Database session tokens cannot be guessed: by default each is 32 bytes (256 bits) from the
 * platform's CSPRNG (`crypto.getRandomValues`), written as 64 lower-case hex characters. Auth.js
 * uses `crypto.randomUUID()`: 122 random bits, with version and variant bits fixed — which the
 * same statistics below catch, to show they can fail.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { resolveConfig } from "../../src/core/config.js"
import type { AuthConfig } from "../../src/types.js"
import { ada, Client, credentialsConfig } from "../flow/flow-helpers.js"

const SESSION_COOKIE = "__Secure-authjs.session-token"
const COUNT = 10_000
const TOKEN_SHAPE = /^[0-9a-f]{64}$/

afterEach(() => {
  vi.restoreAllMocks()
})

const defaultGenerator = () => resolveConfig(credentialsConfig()).session.generateSessionToken

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex")

/** Records every buffer `crypto.getRandomValues` fills, while still filling it for real. */
function recordRandomDraws(): Uint8Array[] {
  const draws: Uint8Array[] = []
  const original = crypto.getRandomValues.bind(crypto)
  vi.spyOn(crypto, "getRandomValues").mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
    const filled = original(array as Uint8Array<ArrayBuffer>) as unknown as T
    if (filled instanceof Uint8Array) draws.push(filled.slice())
    return filled
  })
  return draws
}

/**
 * What is wrong with a batch of hex tokens as unguessable 256-bit values: shape, repeats, shared
 * prefixes longer than chance, bits that are not set about half the time, hex digits that are not
 * equally common. Each bound is six standard deviations or more out, so a good generator fails
 * it about once in a billion runs.
 */
function weaknesses(tokens: string[]): string[] {
  const found: string[] = []
  const misshapen = tokens.filter((token) => !TOKEN_SHAPE.test(token))
  if (misshapen.length > 0) found.push(`${misshapen.length} tokens are not 64 lower-case hex characters, e.g. ${misshapen[0]}`)
  if (new Set(tokens).size !== tokens.length) found.push(`${tokens.length - new Set(tokens).size} repeated tokens`)

  // Sorted neighbours share the longest prefixes. For 10k random hex strings the longest is
  // about log16(10k² / 2) ≈ 6.4 characters; 12 or more happens with probability ~2e-7.
  const sorted = [...tokens].sort()
  let longest = 0
  for (let i = 1; i < sorted.length; i++) {
    let shared = 0
    while (shared < sorted[i]!.length && sorted[i]![shared] === sorted[i - 1]![shared]) shared++
    longest = Math.max(longest, shared)
  }
  if (longest >= 12) found.push(`two tokens share a ${longest}-character prefix`)

  // Each of the 256 bit positions: set in n/2 ± 6σ tokens (σ = √n / 2).
  const bits = new Array<number>(256).fill(0)
  for (const token of tokens) {
    for (let nibble = 0; nibble < Math.min(64, token.length); nibble++) {
      const value = parseInt(token[nibble]!, 16)
      for (let bit = 0; bit < 4; bit++) if (value & (8 >> bit)) bits[nibble * 4 + bit]! += 1
    }
  }
  const sigma = Math.sqrt(tokens.length) / 2
  const biased = bits.map((count, position) => ({ count, position })).filter(({ count }) => Math.abs(count - tokens.length / 2) > 6 * sigma)
  if (biased.length > 0) {
    found.push(`${biased.length} bit positions are biased, e.g. bit ${biased[0]!.position} is set in ${biased[0]!.count} of ${tokens.length}`)
  }

  // Hex digit frequencies: chi-square with 15 degrees of freedom; above 70 has probability < 1e-8.
  const digits = new Array<number>(16).fill(0)
  let total = 0
  for (const token of tokens) {
    for (const char of token) {
      const value = parseInt(char, 16)
      if (Number.isNaN(value)) continue
      digits[value]! += 1
      total += 1
    }
  }
  const expected = total / 16
  const chiSquare = digits.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0)
  if (chiSquare > 70) found.push(`hex digits are unevenly used (chi-square ${chiSquare.toFixed(1)})`)
  return found
}

describe("the default session token", () => {
  it("is 64 lower-case hex characters, i.e. 256 bits", () => {
    const generate = defaultGenerator()
    const token = generate()
    expect(token).toMatch(TOKEN_SHAPE)
    expect(Buffer.from(token, "hex")).toHaveLength(32)
  })

  it("is the hex of 32 bytes drawn from crypto.getRandomValues, all of them used", () => {
    const generate = defaultGenerator()
    const draws = recordRandomDraws()
    const token = generate()
    const full = draws.filter((draw) => draw.length === 32)
    expect(full).toHaveLength(1)
    expect(token).toBe(hex(full[0]!))
  })

  it(`shows no weakness over ${COUNT.toLocaleString("en")} tokens: all distinct, no long shared prefix, unbiased bits and digits`, () => {
    const generate = defaultGenerator()
    const tokens = Array.from({ length: COUNT }, () => generate())
    expect(new Set(tokens).size).toBe(COUNT)
    expect(weaknesses(tokens)).toEqual([])
  })

  it("is held to statistics that do catch a weaker generator (Auth.js's randomUUID, a low-entropy hex)", () => {
    const uuids = Array.from({ length: COUNT }, () => crypto.randomUUID().replaceAll("-", ""))
    const uuidReport = weaknesses(uuids)
    expect(uuidReport.some((line) => line.includes("not 64 lower-case hex"))).toBe(true)
    // The version nibble is always 4: its bits are stuck.
    expect(uuidReport.some((line) => line.includes("bit positions are biased"))).toBe(true)

    // The right shape, but only 32 random bits: a long shared prefix and uneven digits give it away.
    const padded = Array.from({ length: COUNT }, () => `${"0".repeat(56)}${hex(crypto.getRandomValues(new Uint8Array(4)))}`)
    const paddedReport = weaknesses(padded)
    expect(paddedReport.some((line) => line.includes("prefix"))).toBe(true)
    expect(paddedReport.some((line) => line.includes("chi-square"))).toBe(true)
  })
})

describe("through a real credentials sign-in with database sessions", () => {
  async function signedInClient() {
    const adapter = MemoryAdapter()
    const user = await adapter.createUser({ id: crypto.randomUUID(), name: ada.name, email: `${crypto.randomUUID()}@app.test`, emailVerified: null })
    const config: AuthConfig = credentialsConfig({
      adapter,
      session: { strategy: "database" },
      providers: [
        {
          id: "credentials",
          name: "Credentials",
          type: "credentials",
          credentials: {},
          authorize: ({ password }) => (password === "correct horse" ? { id: user.id, name: user.name } : null),
        },
      ],
    })
    const client = new Client(config)
    const response = await client.signIn({ password: "correct horse" })
    expect(response.status).toBe(302)
    return { client, user }
  }

  it("puts a 64-hex-character token in the session cookie, not a UUID or a JWE, and it is the session", async () => {
    const { client, user } = await signedInClient()
    const cookie = client.jar.get(SESSION_COOKIE)
    expect(cookie).toMatch(TOKEN_SHAPE)
    expect(await client.session()).toMatchObject({ user: { email: user.email } })
  })

  it("uses the default generator: the cookie is the hex of one 32-byte CSPRNG draw made during the sign-in", async () => {
    const draws = recordRandomDraws()
    const { client } = await signedInClient()
    const cookie = client.jar.get(SESSION_COOKIE)!
    expect(draws.filter((draw) => draw.length === 32).map(hex)).toContain(cookie)
  })

  it("gives every sign-in its own token", async () => {
    const cookies = await Promise.all([signedInClient(), signedInClient(), signedInClient()])
    const values = cookies.map(({ client }) => client.jar.get(SESSION_COOKIE))
    expect(values.every((value) => value !== undefined && TOKEN_SHAPE.test(value))).toBe(true)
    expect(new Set(values).size).toBe(3)
  })
})

/**
 * A {@link SharedStore} on Redis, through a node-redis client the application creates, connects
 * and closes. Every instance of the app given the same Redis (and prefix) shares rate-limit counts,
 * spent passkey challenges, the OAuth refresh lock, cached session versions and the optional
 * session cache.
 *
 * Each command has a short timeout, and a client that is not connected fails at once instead of
 * queueing: Gatehouse then falls back or refuses for that use and logs a warning (see the README's
 * "Running many instances"), so an unreachable Redis never holds requests up.
 *
 * @example
 * ```ts
 * import { createClient } from "redis"
 * import { redisStore } from "gatehouse-auth/stores/redis"
 *
 * const redis = createClient({ url: "redis://127.0.0.1:6379" })
 * redis.on("error", () => {}) // node-redis reconnects by itself; Gatehouse logs what it affects
 * await redis.connect()
 *
 * export const authConfig = { providers, adapter, secret, sharedStore: redisStore({ client: redis }) }
 * ```
 * @module gatehouse-auth/stores/redis
 */
import { SharedStoreError } from "../errors.js"
import type { SharedStore } from "./index.js"

/**
 * The part of a node-redis client (`createClient()` from `redis` or `@redis/client`, version 4
 * or later) the store uses. Structural, so this module imports no Redis package.
 */
export interface RedisClientLike {
  /** Runs one command; node-redis takes `{ timeout }` in milliseconds as its second argument. */
  sendCommand(args: string[], options?: { timeout?: number }): Promise<unknown>
  /** `false` while the client is not connected (node-redis); then commands fail at once. */
  readonly isReady?: boolean
}

/** Options of {@link redisStore}. */
export interface RedisStoreOptions {
  /** A connected node-redis client. The application owns it: connects it, closes it. */
  client: RedisClientLike
  /** Put before every key, so one Redis can serve several apps. Default `"gatehouse:"`. */
  prefix?: string
  /** How long one command may take before it counts as failed (ms). Default 500. */
  commandTimeoutMs?: number
}

// INCR, and an expiry when the window starts (or when a key somehow has none), in one step.
const INCREMENT_SCRIPT =
  "local n = redis.call('INCR', KEYS[1]) if n == 1 or redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return n"

/**
 * The store on `client`. Keys are `<prefix><use>:<hex hash>`; values are counts, markers and
 * (with the session cache) the cached session row and user, never a session token.
 *
 * @example
 * ```ts
 * const sharedStore = redisStore({ client: redis, prefix: "myapp:auth:", commandTimeoutMs: 300 })
 * ```
 */
export function redisStore(options: RedisStoreOptions): SharedStore {
  const { client } = options
  if (!client || typeof client.sendCommand !== "function") {
    throw new SharedStoreError("redisStore needs a node-redis client (createClient() from the redis package)")
  }
  const prefix = options.prefix ?? "gatehouse:"
  const timeout = options.commandTimeoutMs ?? 500

  const command = async (args: string[]): Promise<unknown> => {
    if (client.isReady === false) throw new SharedStoreError("Redis is not connected")
    let timer: ReturnType<typeof setTimeout> | undefined
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new SharedStoreError(`Redis did not answer ${args[0]} within ${timeout} ms`)), timeout)
    })
    try {
      // The client's own timeout drops the command from its queue; the race covers clients without one.
      return await Promise.race([client.sendCommand(args, { timeout }), expired])
    } catch (error) {
      if (error instanceof SharedStoreError) throw error
      throw new SharedStoreError(`Redis ${args[0]} failed`, { cause: { err: error instanceof Error ? error : new Error(String(error)) } })
    } finally {
      clearTimeout(timer)
    }
  }

  return {
    async increment(key, windowSeconds) {
      const count = await command(["EVAL", INCREMENT_SCRIPT, "1", prefix + key, String(ms(windowSeconds))])
      if (typeof count !== "number") throw new SharedStoreError(`Redis answered an increment with ${JSON.stringify(count)}`)
      return count
    },
    async setIfAbsent(key, value, ttlSeconds) {
      return (await command(["SET", prefix + key, value, "NX", "PX", String(ms(ttlSeconds))])) !== null
    },
    async get(key) {
      const value = await command(["GET", prefix + key])
      return typeof value === "string" ? value : null
    },
    async set(key, value, ttlSeconds) {
      await command(["SET", prefix + key, value, "PX", String(ms(ttlSeconds))])
    },
    async delete(key) {
      await command(["DEL", prefix + key])
    },
  }
}

/** A duration in whole milliseconds, at least 1 (Redis refuses an expiry of 0). */
function ms(seconds: number): number {
  return Math.max(1, Math.ceil(seconds * 1000))
}

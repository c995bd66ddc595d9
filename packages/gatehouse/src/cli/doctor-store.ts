/**
 * The doctor's shared-store check. The app builds its store in code, so the doctor reads the
 * variable the README's Redis example reads, `REDIS_URL`, and checks that the server answers a
 * `PING`. Other names (`KV_URL`, `UPSTASH_REDIS_REST_URL`, …) are not read: a platform sets them
 * whether or not the app gives them to Gatehouse, and some are REST endpoints, not Redis's protocol,
 * so checking them would report stores the app does not use.
 * @module
 */
import { isSet, named, type DoctorEnv, type Finding } from "./doctor-findings.js"
import { firstLine } from "./redaction.js"
import { pingRedis, RedisPingError, redisEndpoint, redisLocation, type RedisEndpoint } from "./redis-ping.js"

const CHECK = "store"

/** The variable read. */
export const STORE_VARIABLE = "REDIS_URL"

/** How long connecting and the answer to `PING` may take together. */
export const STORE_TIMEOUT_MS = 3_000

/** The findings about the shared store. */
export async function checkStore(env: DoctorEnv): Promise<Finding[]> {
  if (!isSet(env, STORE_VARIABLE)) {
    return [{ check: CHECK, level: "ok", message: `skipped: ${STORE_VARIABLE} is unset (one instance needs no shared store)` }]
  }
  const variable = named(env, STORE_VARIABLE)
  let endpoint: RedisEndpoint
  try {
    endpoint = redisEndpoint(env.env[STORE_VARIABLE]!)
  } catch (error) {
    return [{ check: CHECK, level: "error", message: `${variable} is not usable: ${message(error)}` }]
  }
  try {
    await pingRedis(endpoint, STORE_TIMEOUT_MS)
  } catch (error) {
    return [{ check: CHECK, level: "error", message: `${variable}: ${redisLocation(endpoint)} is unreachable: ${message(error)}` }]
  }
  return [{ check: CHECK, level: "ok", message: `${variable}: ${redisLocation(endpoint)} answers` }]
}

function message(error: unknown): string {
  return error instanceof RedisPingError ? error.message : firstLine(error)
}

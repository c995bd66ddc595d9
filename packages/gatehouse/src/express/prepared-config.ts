/**
 * The app's config with the environment applied: once per config object, to a copy, from one
 * snapshot of `process.env`, so every request (and every `getSession`) sees the same values.
 * @module
 */
import process from "node:process"
import { createActionURL, setEnvDefaults, type AuthConfig, type EnvObject } from "../index.js"
import { InvalidConfig } from "../errors.js"

/** The configuration of `ServerAuth`: everything `Auth` takes except `raw`. */
export type ServerAuthConfig = Omit<AuthConfig, "raw">

/** A config ready for `Auth`, and the environment it was prepared with. */
export interface PreparedConfig {
  config: ServerAuthConfig & { basePath: string }
  env: EnvObject
}

const prepared = new WeakMap<ServerAuthConfig, PreparedConfig>()

/**
 * `config` with the environment's defaults filled in.
 *
 * @throws {InvalidConfig} when `AUTH_URL` is set but unusable: a configuration error for the
 *   app's error handler, not a bad request from each client.
 */
export function prepareConfig(config: ServerAuthConfig): PreparedConfig {
  let ready = prepared.get(config)
  if (!ready) {
    const env: EnvObject = Object.freeze({ ...process.env })
    try {
      createActionURL("session", "http", new Headers({ host: "localhost" }), env)
    } catch (error) {
      throw new InvalidConfig("AUTH_URL is set but is not a usable http(s) URL", { cause: error })
    }
    const copy = { ...config }
    setEnvDefaults(env, copy)
    ready = { config: copy as PreparedConfig["config"], env }
    prepared.set(config, ready)
  }
  return ready
}

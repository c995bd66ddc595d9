/**
 * The app's config prepared by the kernel, from one snapshot of `process.env` taken the first
 * time the config object is used, so every request (and every `getSession`) sees the same values.
 * @module
 */
import process from "node:process"
import { prepareConfig as prepare, type PreparedConfig } from "../framework/index.js"
import type { AuthConfig } from "../index.js"

/** The configuration of `ServerAuth`: everything `Auth` takes except `raw`. */
export type ServerAuthConfig = Omit<AuthConfig, "raw">

const snapshots = new WeakMap<ServerAuthConfig, Readonly<Record<string, string | undefined>>>()

/**
 * `config` with the environment applied (see the kernel's `prepareConfig`), under `/auth` unless
 * the config or `AUTH_URL` says otherwise, reading the client's address where `toWebRequest`
 * writes `req.ip` (unless the app names its own `trustedIpHeader`).
 *
 * @throws {InvalidConfig} when `AUTH_URL` is set but unusable.
 */
export function prepareConfig(config: ServerAuthConfig): PreparedConfig<ServerAuthConfig> {
  let env = snapshots.get(config)
  if (!env) snapshots.set(config, (env = Object.freeze({ ...process.env })))
  return prepare(config, env, { clientAddress: true })
}

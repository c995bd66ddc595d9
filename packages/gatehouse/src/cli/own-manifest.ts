/**
 * gatehouse-auth's own `package.json`, read beside this module at run time (`src/cli/` and
 * `dist/cli/` both sit two folders below it), for the version and engines the commands name.
 * @module
 */
import { readFileSync } from "node:fs"

/** The fields of gatehouse-auth's manifest the commands read. */
export interface OwnManifest {
  version: string
  engines?: { node?: unknown }
}

/** gatehouse-auth's `package.json`. */
export function ownManifest(): OwnManifest {
  return JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as OwnManifest
}

/**
 * What one module specifier becomes: the table of `authjs-mapping.ts` applied, with the
 * package's own provider modules as the list of providers that exist.
 * @module
 */
import { readdirSync } from "node:fs"
import { ADAPTER_PACKAGE_SUFFIX, AUTHJS_PACKAGES, SPECIFIER_MAPPINGS, UNMAPPED_PACKAGE_REASON, UNMAPPED_SPECIFIERS } from "./authjs-mapping.js"

/** A specifier that becomes `to`, or one of an Auth.js package that has no Gatehouse module (`unmapped` says why). */
export type SpecifierOutcome = { to: string } | { unmapped: string }

/** Whether Gatehouse has a provider module of this name (`github` for `gatehouse-auth/providers/github`). */
export type ProviderCheck = (name: string) => boolean

/**
 * The package name of a bare specifier (`@auth/core` of `@auth/core/jwt`, `next-auth` of
 * `next-auth/react`) and the rest; `undefined` for relative and absolute paths and URLs.
 */
export function splitSpecifier(specifier: string): { name: string; subpath: string } | undefined {
  if (specifier === "" || specifier.startsWith(".") || specifier.startsWith("/") || specifier.includes(":")) return undefined
  const parts = specifier.split("/")
  const length = specifier.startsWith("@") ? 2 : 1
  if (parts.length < length || parts.slice(0, length).some((part) => part === "")) return undefined
  return { name: parts.slice(0, length).join("/"), subpath: parts.slice(length).join("/") }
}

/**
 * Whether a specifier is one this command acts on: a module of one of the mapped Auth.js
 * packages, or of another `@auth/*` package that is not an adapter.
 */
export function isAuthjsSpecifier(specifier: string): boolean {
  const parts = splitSpecifier(specifier)
  if (!parts) return false
  return AUTHJS_PACKAGES.includes(parts.name) || isOtherAuthjsIntegration(parts.name)
}

/** `@auth/qwik` and the like: an Auth.js package that is neither mapped here nor an adapter. */
export function isOtherAuthjsIntegration(name: string): boolean {
  return name.startsWith("@auth/") && !name.endsWith(ADAPTER_PACKAGE_SUFFIX) && !AUTHJS_PACKAGES.includes(name)
}

/**
 * What `specifier` becomes, or `undefined` when it is not an Auth.js module this command acts on
 * (another package, a relative path, an adapter).
 *
 * @example
 * ```ts
 * mapSpecifier("next-auth/providers/github", () => true) // → { to: "gatehouse-auth/providers/github" }
 * mapSpecifier("next-auth/middleware", () => true)       // → { unmapped: "next-auth v4's middleware …" }
 * mapSpecifier("react", () => true)                      // → undefined
 * ```
 */
export function mapSpecifier(specifier: string, hasProvider: ProviderCheck): SpecifierOutcome | undefined {
  const parts = splitSpecifier(specifier)
  if (!parts) return undefined
  if (isOtherAuthjsIntegration(parts.name)) return { unmapped: UNMAPPED_PACKAGE_REASON }
  if (!AUTHJS_PACKAGES.includes(parts.name)) return undefined
  for (const mapping of SPECIFIER_MAPPINGS) {
    if (mapping.from === specifier) return { to: mapping.to }
    if (!mapping.from.endsWith("/*")) continue
    const prefix = mapping.from.slice(0, -1)
    const name = specifier.startsWith(prefix) ? specifier.slice(prefix.length) : ""
    if (name === "" || name.includes("/")) continue
    if (!hasProvider(name)) return { unmapped: `Gatehouse has no provider module "${name}"` }
    return { to: mapping.to.slice(0, -1) + name }
  }
  const unmapped = UNMAPPED_SPECIFIERS.find((entry) => entry.from === specifier)
  if (unmapped) return { unmapped: unmapped.reason }
  return { unmapped: `not a module Gatehouse has a counterpart for (${parts.name} has no "${parts.subpath}" that Gatehouse maps)` }
}

let shippedProviders: ReadonlySet<string> | undefined

/**
 * The package's own provider modules: the files beside this one's folder, under `providers/`
 * (`.js` in the published package, `.ts` when run from the sources).
 */
export function shippedProvider(name: string): boolean {
  shippedProviders ??= new Set(
    readdirSync(new URL("../providers/", import.meta.url))
      .filter((file) => (file.endsWith(".js") || file.endsWith(".ts")) && !file.endsWith(".d.ts"))
      .map((file) => file.slice(0, -3)),
  )
  return shippedProviders.has(name)
}

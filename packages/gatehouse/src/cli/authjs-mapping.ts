/**
 * Which Auth.js module becomes which Gatehouse module: the table `migrate-from-authjs` applies
 * and the README's "Coming from Auth.js" section lists (a test holds the two, and the package's
 * exports map, together). Data only.
 * @module
 */

/**
 * One Auth.js specifier and the Gatehouse specifier it becomes. A `*` at the end of both stands
 * for the same last segment (a provider's file name).
 */
export interface SpecifierMapping {
  from: string
  to: string
  /** What the Gatehouse module is, for the README when the names alone do not say it. */
  note?: string
}

/** An Auth.js specifier with no Gatehouse module, and what to do instead. */
export interface UnmappedSpecifier {
  from: string
  reason: string
}

/** The Auth.js packages whose modules are mapped, which `package.json` entries are replaced by `gatehouse-auth`. */
export const AUTHJS_PACKAGES: readonly string[] = ["next-auth", "@auth/core", "@auth/express", "@auth/sveltekit", "@auth/solid-start"]

/** Every Auth.js module that has a Gatehouse counterpart, in the order the README lists them. */
export const SPECIFIER_MAPPINGS: readonly SpecifierMapping[] = [
  { from: "next-auth", to: "gatehouse-auth/next" },
  { from: "next-auth/react", to: "gatehouse-auth/react" },
  { from: "next-auth/webauthn", to: "gatehouse-auth/webauthn" },
  { from: "next-auth/jwt", to: "gatehouse-auth/jwt" },
  { from: "next-auth/adapters", to: "gatehouse-auth/adapters" },
  { from: "next-auth/providers", to: "gatehouse-auth/providers", note: "the provider types (`Provider`, `ProviderId`, …)" },
  { from: "next-auth/providers/*", to: "gatehouse-auth/providers/*" },
  { from: "@auth/core", to: "gatehouse-auth" },
  { from: "@auth/core/types", to: "gatehouse-auth/types" },
  { from: "@auth/core/jwt", to: "gatehouse-auth/jwt" },
  { from: "@auth/core/errors", to: "gatehouse-auth/errors" },
  { from: "@auth/core/adapters", to: "gatehouse-auth/adapters" },
  { from: "@auth/core/providers", to: "gatehouse-auth/providers", note: "the provider types (`Provider`, `ProviderId`, …)" },
  { from: "@auth/core/providers/*", to: "gatehouse-auth/providers/*" },
  { from: "@auth/express", to: "gatehouse-auth/express" },
  { from: "@auth/express/adapters", to: "gatehouse-auth/adapters" },
  { from: "@auth/express/providers", to: "gatehouse-auth/providers", note: "the provider types (`Provider`, `ProviderId`, …)" },
  { from: "@auth/express/providers/*", to: "gatehouse-auth/providers/*" },
  { from: "@auth/sveltekit", to: "gatehouse-auth/sveltekit" },
  { from: "@auth/sveltekit/client", to: "gatehouse-auth/client" },
  { from: "@auth/sveltekit/webauthn", to: "gatehouse-auth/webauthn" },
  { from: "@auth/sveltekit/components", to: "gatehouse-auth/sveltekit/components" },
  { from: "@auth/sveltekit/adapters", to: "gatehouse-auth/adapters" },
  { from: "@auth/sveltekit/providers", to: "gatehouse-auth/providers", note: "the provider types (`Provider`, `ProviderId`, …)" },
  { from: "@auth/sveltekit/providers/*", to: "gatehouse-auth/providers/*" },
  { from: "@auth/solid-start", to: "gatehouse-auth/solid-start" },
  { from: "@auth/solid-start/client", to: "gatehouse-auth/solid-start/client" },
  { from: "@auth/solid-start/adapters", to: "gatehouse-auth/adapters" },
  { from: "@auth/solid-start/providers", to: "gatehouse-auth/providers", note: "the provider types (`Provider`, `ProviderId`, …)" },
  { from: "@auth/solid-start/providers/*", to: "gatehouse-auth/providers/*" },
]

/** Auth.js modules that have no Gatehouse counterpart; any other subpath of an {@link AUTHJS_PACKAGES} package is unmapped too. */
export const UNMAPPED_SPECIFIERS: readonly UnmappedSpecifier[] = [
  {
    from: "next-auth/middleware",
    reason: "next-auth v4's middleware (v5 throws on it); export `auth` from your auth.ts as `proxy` (or `middleware`) instead",
  },
  {
    from: "next-auth/next",
    reason: "next-auth v4's getServerSession (v5 throws on it); call `auth()` from your auth.ts instead",
  },
  {
    from: "next-auth/client",
    reason: "next-auth v3's client; import from gatehouse-auth/react",
  },
]

/**
 * Where an Auth.js package's name in a `package.json` tells the user what to do: `@auth/*`
 * packages that are neither mapped nor adapters (`@auth/qwik`, …) have no Gatehouse integration.
 */
export const UNMAPPED_PACKAGE_REASON = "no Gatehouse integration for this framework yet; its imports are left as they are"

/**
 * How Auth.js's adapter packages end (`@auth/prisma-adapter`, `@auth/drizzle-adapter`, …): they
 * work with Gatehouse as they are, so their imports and `package.json` entries are left alone.
 */
export const ADAPTER_PACKAGE_SUFFIX = "-adapter"

/**
 * Theme values checked before they reach a page. Colours go into a `<style>` element, where HTML
 * escaping does nothing (its content is raw text), so they are validated instead.
 * @module
 */
import type { Theme } from "../../types.js"

type ColorScheme = NonNullable<Theme["colorScheme"]>

const colorSchemes: ReadonlySet<string> = new Set<ColorScheme>(["auto", "dark", "light"])

// Hex, a colour keyword, or rgb()/rgba() with plain numbers: nothing that can close a rule or the element.
const safeColor = /^#[0-9a-fA-F]{3,8}$|^[a-zA-Z]+$|^rgba?\([\d\s.,%]+\)$/

/** The configured colour scheme, or `auto` when it is not one of `auto`, `dark`, `light`. */
export function colorSchemeOf(value: unknown): ColorScheme {
  return typeof value === "string" && colorSchemes.has(value) ? (value as ColorScheme) : "auto"
}

/** `value` when it is a plain CSS colour (hex, keyword, `rgb()`/`rgba()`), otherwise `undefined`. */
export function cssColor(value: unknown): string | undefined {
  return typeof value === "string" && safeColor.test(value) ? value : undefined
}

/**
 * `value` when it is an absolute `http(s)` URL or a same-origin path (`/…` but not `//…`),
 * otherwise `undefined`; other schemes such as `javascript:` and `data:` are refused. Not escaped.
 */
export function logoUrl(value: unknown): string | undefined {
  if (typeof value !== "string" || value === "") return undefined
  // `/\` is read by browsers as `//`, i.e. another host.
  if (value.startsWith("/")) return /^\/[/\\]/.test(value) ? undefined : value
  try {
    const { protocol } = new URL(value)
    return protocol === "http:" || protocol === "https:" ? value : undefined
  } catch {
    return undefined
  }
}

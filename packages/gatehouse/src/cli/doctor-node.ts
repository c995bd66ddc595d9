/**
 * The doctor's Node.js check: the running version against `engines.node` of gatehouse-auth's own
 * `package.json`.
 * @module
 */
import type { Finding } from "./doctor-findings.js"
import { ownManifest } from "./own-manifest.js"

const CHECK = "node"

/** The `engines.node` range of the installed gatehouse-auth; `undefined` when it has none. */
export function enginesNode(): string | undefined {
  const range = ownManifest().engines?.node
  return typeof range === "string" ? range : undefined
}

/** The finding for Node `version` (`process.versions.node`) against `range`. */
export function checkNode(version: string, range: string | undefined): Finding[] {
  if (range === undefined) return [{ check: CHECK, level: "ok", message: `Node.js ${version}; gatehouse-auth names no required version` }]
  const satisfied = satisfies(version, range)
  if (satisfied === undefined) return [{ check: CHECK, level: "warn", message: `Node.js ${version}; cannot read the required range "${range}"` }]
  if (!satisfied) return [{ check: CHECK, level: "error", message: `Node.js ${version} is outside gatehouse-auth's supported range ${range}` }]
  return [{ check: CHECK, level: "ok", message: `Node.js ${version} is within ${range}` }]
}

type Version = [number, number, number]

/**
 * Whether `version` is in the npm range `range`, for the forms `engines` fields use: `||`
 * alternatives of space-separated comparators (`>=20.19`, `<25`, `^22.12.0`, `~20.19`, `22`,
 * `22.x`); `undefined` for a form it does not read (and pre-release tags, which it ignores).
 */
export function satisfies(version: string, range: string): boolean | undefined {
  const current = parseVersion(version.replace(/^v/, "").replace(/[-+].*$/, ""))
  if (!current || current.partial) return undefined
  const alternatives = range.split("||").map((part) => part.trim().split(/\s+/).filter(Boolean))
  let any = false
  for (const comparators of alternatives) {
    let all = true
    for (const comparator of comparators.length === 0 ? ["*"] : comparators) {
      const result = matches(current.version, comparator)
      if (result === undefined) return undefined
      all &&= result
    }
    any ||= all
  }
  return any
}

function matches(v: Version, comparator: string): boolean | undefined {
  if (comparator === "*" || comparator === "x") return true
  const match = /^(>=|<=|>|<|=|\^|~)?v?(.+)$/.exec(comparator)
  if (!match) return undefined
  const bound = parseVersion(match[2]!)
  if (!bound) return undefined
  const { version: b, partial } = bound
  const cmp = compare(v, b)
  switch (match[1]) {
    case ">=":
      return cmp >= 0
    case ">":
      // `>20` means from 21: a partial bound excludes the whole of what it names.
      return partial === 0 ? cmp > 0 : compare(v, next(b, partial)) >= 0
    case "<":
      return cmp < 0
    case "<=":
      return partial === 0 ? cmp <= 0 : compare(v, next(b, partial)) < 0
    case "^":
      return cmp >= 0 && compare(v, b[0] > 0 || partial === 2 ? [b[0] + 1, 0, 0] : b[1] > 0 || partial === 1 ? [0, b[1] + 1, 0] : [0, 0, b[2] + 1]) < 0
    case "~":
      return cmp >= 0 && compare(v, partial === 2 ? [b[0] + 1, 0, 0] : [b[0], b[1] + 1, 0]) < 0
    default:
      // `22`, `22.x`, `=22.12.0`: every version the given parts name.
      return partial === 0 ? cmp === 0 : cmp >= 0 && compare(v, next(b, partial)) < 0
  }
}

/** The first version after everything a partial version (`22`, `20.19`) names. */
function next(b: Version, partial: number): Version {
  return partial === 2 ? [b[0] + 1, 0, 0] : [b[0], b[1] + 1, 0]
}

/** `major[.minor[.patch]]` (`x` or `*` for a missing part), and how many trailing parts were left out. */
function parseVersion(text: string): { version: Version; partial: number } | undefined {
  const parts = text.split(".")
  if (parts.length > 3) return undefined
  const numbers: number[] = []
  for (const part of parts) {
    if (/^[xX*]$/.test(part)) break
    if (!/^\d+$/.test(part)) return undefined
    numbers.push(Number(part))
  }
  if (numbers.length === 0) return undefined
  const partial = 3 - numbers.length
  return { version: [numbers[0]!, numbers[1] ?? 0, numbers[2] ?? 0], partial }
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2]
}

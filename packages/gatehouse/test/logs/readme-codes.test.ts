/**
 * The README's "Logs" section names every code an operator can meet in the log with what to do:
 * each `WarningCode` (src/warnings.ts) and each warning logged by its own code in src/ has a row
 * of the Warnings table; each error type logged at the error level has a row of the errors table,
 * and each client-caused type (a warning line) is named above it. A new code without its row
 * fails here.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import * as errors from "../../src/errors.js"
import { WARNING_MESSAGES } from "../../src/core/logger.js"
import { NOTICE_UNSENDABLE } from "../../src/core/two-factor/notify.js"

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url))
const SRC = fileURLToPath(new URL("../../src/", import.meta.url))

/** The text under `heading` (a `## ` or `### ` line) up to the next heading of that level or above. */
function under(text: string, heading: string): string {
  const start = text.indexOf(`\n${heading}\n`)
  if (start === -1) throw new Error(`README has no "${heading}"`)
  const level = heading.indexOf(" ")
  const rest = text.slice(start + heading.length + 2)
  const next = rest.search(new RegExp(`\\n#{1,${level}} `))
  return next === -1 ? rest : rest.slice(0, next)
}

/** The codes in the first cell of each table row (several where a row groups codes). */
function firstCells(text: string): Set<string> {
  const codes = new Set<string>()
  for (const [, cell] of text.matchAll(/^\|([^|\n]*)\|/gm)) for (const [, code] of cell!.matchAll(/`([^`]+)`/g)) codes.add(code!)
  return codes
}

const logs = under(readFileSync(join(ROOT, "README.md"), "utf8"), "## Logs")
const warningsTable = firstCells(under(logs, "### Warnings"))
const errorsSection = under(logs, "### Errors in the log")
const errorsTable = firstCells(errorsSection)

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(folder, entry.name)) : entry.name.endsWith(".ts") ? [join(folder, entry.name)] : [],
  )
}

describe("the README's Logs section", () => {
  it("has a row for every WarningCode", () => {
    const declared = [...readFileSync(join(SRC, "warnings.ts"), "utf8").matchAll(/^\s*\|\s*"([a-z0-9-]+)"/gm)].map(([, code]) => code!)
    // The union as written and the messages the logger has for it are the same list.
    expect(new Set(declared)).toEqual(new Set(Object.keys(WARNING_MESSAGES)))
    expect(declared.length).toBeGreaterThan(10)
    expect(declared.filter((code) => !warningsTable.has(code))).toEqual([])
  })

  it("has a row for every warning src/ logs under a code of its own (shared store, claimed accounts, …)", () => {
    const logged = new Set<string>([NOTICE_UNSENDABLE])
    for (const file of sourceFiles(SRC)) {
      for (const [, code] of readFileSync(file, "utf8").matchAll(/\bwarn\(\s*"([a-z][a-z0-9]*(?:-[a-z0-9]+)+)"/g)) logged.add(code!)
    }
    expect([...logged]).toEqual(expect.arrayContaining(["shared-store-unavailable", "shared-store-recovered", "unproven-account-claimed"]))
    expect([...logged].filter((code) => !warningsTable.has(code))).toEqual([])
  })

  it("names every error type: those logged as errors in the table, those a client causes (warning lines) above it", () => {
    const types = Object.values(errors)
      .filter((value): value is typeof errors.AuthError => typeof value === "function" && value.prototype instanceof Error && "clientCaused" in value)
      .map((error) => ({ type: error.type, clientCaused: error.clientCaused }))
    expect(types.length).toBeGreaterThan(40)
    const faults = [...new Set(types.filter((error) => !error.clientCaused).map((error) => error.type))]
    const clientCaused = [...new Set(types.filter((error) => error.clientCaused).map((error) => error.type))]
    expect(faults.filter((type) => !errorsTable.has(type))).toEqual([])
    expect(clientCaused.filter((type) => errorsTable.has(type) || !errorsSection.includes(`\`${type}\``))).toEqual([])
  })
})

/**
 * The codemod's `package.json` edit: Auth.js's framework and core packages become one
 * `gatehouse-auth` entry in the section the first of them was in, adapters stay, and every other
 * byte of the file is kept.
 */
import { describe, expect, it } from "vitest"
import { migratePackageJson, PackageJsonError } from "../../src/cli/package-json.js"

const RANGE = "^0.1.0"

describe("package.json dependencies", () => {
  it("replaces next-auth where it stands, keeping the order, indentation and everything else", () => {
    const before = `{\n\t"name": "app",\n\t"dependencies": {\n\t\t"next": "16.0.0",\n\t\t"next-auth": "5.0.0-beta.25",\n\t\t"react": "19.0.0"\n\t},\n\t"scripts": { "build": "next build" }\n}\n`
    const { text, changes } = migratePackageJson(before, RANGE)
    expect(text).toBe(before.replace('"next-auth": "5.0.0-beta.25"', '"gatehouse-auth": "^0.1.0"'))
    expect(changes).toEqual([{ section: "dependencies", name: "next-auth", version: "5.0.0-beta.25", replacedBy: RANGE, line: 5 }])
  })

  it.each([
    ["first", `{\n  "dependencies": {\n    "next-auth": "5",\n    "@auth/core": "0.41",\n    "next": "16"\n  }\n}\n`, `{\n  "dependencies": {\n    "gatehouse-auth": "^0.1.0",\n    "next": "16"\n  }\n}\n`],
    ["last", `{\n  "dependencies": {\n    "next": "16",\n    "next-auth": "5",\n    "@auth/core": "0.41"\n  }\n}\n`, `{\n  "dependencies": {\n    "next": "16",\n    "gatehouse-auth": "^0.1.0"\n  }\n}\n`],
    ["around another", `{\n  "dependencies": {\n    "@auth/core": "0.41",\n    "next": "16",\n    "next-auth": "5"\n  }\n}\n`, `{\n  "dependencies": {\n    "gatehouse-auth": "^0.1.0",\n    "next": "16"\n  }\n}\n`],
    ["on one line", `{"dependencies":{"a":"1","next-auth":"5","@auth/core":"0.41","b":"2"}}`, `{"dependencies":{"a":"1","gatehouse-auth":"^0.1.0","b":"2"}}`],
  ])("makes two Auth.js packages one gatehouse-auth entry (%s)", (_where, before, after) => {
    const { text, changes } = migratePackageJson(before, RANGE)
    expect(text).toBe(after)
    expect(changes.filter((change) => change.replacedBy === RANGE)).toHaveLength(1)
    expect(changes).toHaveLength(2)
  })

  it("puts gatehouse-auth in dependencies when next-auth was there, and empties the section @auth/core leaves", () => {
    const before = `{\n  "devDependencies": {\n    "@auth/core": "0.41.3"\n  },\n  "dependencies": {\n    "next-auth": "5.0.0-beta.25"\n  }\n}\n`
    const { text, changes } = migratePackageJson(before, RANGE)
    expect(text).toBe(`{\n  "devDependencies": {},\n  "dependencies": {\n    "gatehouse-auth": "^0.1.0"\n  }\n}\n`)
    expect(changes.map((change) => [change.section, change.name, change.replacedBy, change.line])).toEqual([
      ["dependencies", "next-auth", RANGE, 6],
      ["devDependencies", "@auth/core", undefined, 3],
    ])
  })

  it("keeps a dev-only Auth.js package a dev dependency", () => {
    const { text } = migratePackageJson(`{ "devDependencies": { "@auth/express": "0.12.3", "vitest": "4" } }`, RANGE)
    expect(JSON.parse(text)).toEqual({ devDependencies: { "gatehouse-auth": RANGE, vitest: "4" } })
  })

  it("adds no second gatehouse-auth when there is one", () => {
    const { text, changes } = migratePackageJson(`{ "dependencies": { "gatehouse-auth": "^0.1.0", "@auth/sveltekit": "1.11.3" } }`, RANGE)
    expect(JSON.parse(text)).toEqual({ dependencies: { "gatehouse-auth": "^0.1.0" } })
    expect(changes).toEqual([{ section: "dependencies", name: "@auth/sveltekit", version: "1.11.3", replacedBy: undefined, line: 1 }])
  })

  it("leaves Auth.js adapters, overrides and other packages alone", () => {
    const before = `{\n  "dependencies": {\n    "@auth/prisma-adapter": "2.7.0",\n    "@auth/drizzle-adapter": "1.7.0",\n    "@next-auth/prisma-adapter": "1.0.7",\n    "next-auth-extra": "1"\n  },\n  "overrides": { "next-auth": { "nodemailer": "7" } }\n}\n`
    const { text, changes, notices } = migratePackageJson(before, RANGE)
    expect(text).toBe(before)
    expect(changes).toEqual([])
    expect(notices).toEqual([])
  })

  it("names an Auth.js integration Gatehouse has none for, with its line, and leaves it", () => {
    const before = `{\n  "dependencies": {\n    "@auth/qwik": "0.8.0"\n  }\n}\n`
    const { text, notices } = migratePackageJson(before, RANGE)
    expect(text).toBe(before)
    expect(notices).toEqual([{ section: "dependencies", name: "@auth/qwik", line: 3 }])
  })

  it("keeps CRLF line ends and a byte order mark", () => {
    const before = `\ufeff{\r\n  "dependencies": {\r\n    "next-auth": "5",\r\n    "react": "19"\r\n  }\r\n}\r\n`
    expect(migratePackageJson(before, RANGE).text).toBe(before.replace('"next-auth": "5"', '"gatehouse-auth": "^0.1.0"'))
  })

  it("changes nothing the second time", () => {
    const once = migratePackageJson(`{ "dependencies": { "next-auth": "5", "@auth/core": "0.41" } }`, RANGE).text
    const twice = migratePackageJson(once, RANGE)
    expect(twice.text).toBe(once)
    expect(twice.changes).toEqual([])
  })

  it.each([
    ["[]", "not a JSON object"],
    ['{ "dependencies": { "next-auth": "5", } }', "not valid JSON (at line 1)"],
    ['{ "a": 1 } x', "not valid JSON"],
    ['{ "a": tru }', "not valid JSON"],
  ])("refuses %s: %s", (text, message) => {
    expect(() => migratePackageJson(text, RANGE)).toThrow(PackageJsonError)
    expect(() => migratePackageJson(text, RANGE)).toThrow(message)
  })
})

/**
 * Replacing Auth.js's framework and core packages with `gatehouse-auth` in a `package.json`, as
 * text edits: every other byte of the file (order, indentation, line ends) stays as it was.
 * @module
 */
import { AUTHJS_PACKAGES } from "./authjs-mapping.js"
import { isOtherAuthjsIntegration } from "./authjs-specifiers.js"

/** The sections that list packages, in the order a new entry's section is chosen from. */
export const DEPENDENCY_SECTIONS = ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"] as const

/** A `package.json` whose text is not a JSON object. */
export class PackageJsonError extends Error {
  override name = "PackageJsonError"
}

/** One entry changed: removed, or replaced by `gatehouse-auth`. */
export interface DependencyChange {
  section: string
  name: string
  version: string
  /** `gatehouse-auth`'s range when this entry became it; `undefined` when it was removed. */
  replacedBy: string | undefined
  /** The 1-based line of the entry. */
  line: number
}

/** An entry left alone that the user should look at (an Auth.js integration Gatehouse does not have). */
export interface DependencyNotice {
  section: string
  name: string
  line: number
}

/** What {@link migratePackageJson} did. */
export interface PackageJsonMigration {
  text: string
  changes: DependencyChange[]
  notices: DependencyNotice[]
}

interface Member {
  key: string
  keyStart: number
  keyEnd: number
  valueStart: number
  valueEnd: number
  /** Set for object values: their members. */
  members?: Member[]
  /** Set for string values. */
  string?: string
}

/**
 * `text` with the Auth.js framework and core packages (next-auth, @auth/core, @auth/express,
 * @auth/sveltekit, @auth/solid-start) removed from every dependency section and one
 * `"gatehouse-auth": range` put where the first of them was: in `dependencies` if one was
 * there, else in the first section that had one. Nothing is added when `gatehouse-auth` is
 * already listed. Adapter packages stay.
 *
 * @throws {@link PackageJsonError} when the text is not a JSON object.
 * @example
 * ```ts
 * migratePackageJson(`{ "dependencies": { "next-auth": "5.0.0-beta.25" } }`, "^0.1.0").text
 * // → `{ "dependencies": { "gatehouse-auth": "^0.1.0" } }`
 * ```
 */
export function migratePackageJson(text: string, range: string): PackageJsonMigration {
  const root = parseObject(text)
  const changes: DependencyChange[] = []
  const notices: DependencyNotice[] = []
  const removals: { section: string; sectionMember: Member; member: Member }[] = []
  let alreadyListed = false
  for (const section of DEPENDENCY_SECTIONS) {
    const sectionMember = root.find((member) => member.key === section)
    for (const member of sectionMember?.members ?? []) {
      if (member.key === "gatehouse-auth") alreadyListed = true
      if (AUTHJS_PACKAGES.includes(member.key)) removals.push({ section, sectionMember: sectionMember!, member })
      else if (isOtherAuthjsIntegration(member.key)) notices.push({ section, name: member.key, line: lineOf(text, member.keyStart) })
    }
  }
  if (removals.length === 0) return { text, changes, notices }

  const replaced = alreadyListed ? undefined : (removals.find((removal) => removal.section === "dependencies") ?? removals[0])
  const edits: { start: number; end: number; text: string }[] = []
  for (const removal of removals) {
    const { member, sectionMember } = removal
    const isReplaced = removal === replaced
    changes.push({ section: removal.section, name: member.key, version: member.string ?? text.slice(member.valueStart, member.valueEnd), replacedBy: isReplaced ? range : undefined, line: lineOf(text, member.keyStart) })
    if (isReplaced) {
      // The key and the value, each in place: the spacing around the colon stays the file's.
      edits.push({ start: member.keyStart, end: member.keyEnd, text: JSON.stringify("gatehouse-auth") })
      edits.push({ start: member.valueStart, end: member.valueEnd, text: JSON.stringify(range) })
    }
  }
  // Removals by section: the members a section keeps decide where each deleted one's comma goes.
  for (const sectionMember of new Set(removals.map((removal) => removal.sectionMember))) {
    const members = sectionMember.members!
    const removed = new Set(removals.filter((removal) => removal.sectionMember === sectionMember && removal !== replaced).map((removal) => removal.member))
    if (removed.size === members.length) {
      edits.push({ start: sectionMember.valueStart, end: sectionMember.valueEnd, text: "{}" })
      continue
    }
    members.forEach((member, index) => {
      if (!removed.has(member)) return
      // Up to the next member kept, or back to the previous member kept for the last ones.
      const nextKept = members.slice(index + 1).find((other) => !removed.has(other))
      if (nextKept) {
        edits.push({ start: member.keyStart, end: nextKept.keyStart, text: "" })
      } else {
        const previousKept = members.slice(0, index).reverse().find((other) => !removed.has(other))!
        const start = members[index - 1] === previousKept ? previousKept.valueEnd : member.keyStart
        edits.push({ start, end: member.valueEnd, text: "" })
      }
    })
  }
  return { text: applyEdits(text, edits), changes, notices }
}

/** `text` with non-overlapping edits applied; edits covering one another are merged to the wider. */
function applyEdits(text: string, edits: { start: number; end: number; text: string }[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || b.end - a.end)
  let out = ""
  let pos = 0
  for (const edit of sorted) {
    if (edit.start < pos) continue
    out += text.slice(pos, edit.start) + edit.text
    pos = edit.end
  }
  return out + text.slice(pos)
}

/** The 1-based line of an offset. */
export function lineOf(text: string, offset: number): number {
  let line = 1
  for (let pos = text.indexOf("\n"); pos !== -1 && pos < offset; pos = text.indexOf("\n", pos + 1)) line++
  return line
}

/** The members of the JSON object `text` is, with their positions; objects nested at any depth keep theirs. */
function parseObject(text: string): Member[] {
  const parser = new JsonParser(text)
  parser.space()
  if (text.charCodeAt(parser.pos) === 0xfeff) parser.pos++
  parser.space()
  if (text[parser.pos] !== "{") throw new PackageJsonError("package.json is not a JSON object")
  const members = parser.object()
  parser.space()
  if (parser.pos !== text.length) throw parser.error()
  return members
}

class JsonParser {
  pos = 0
  constructor(readonly text: string) {}

  error(): PackageJsonError {
    return new PackageJsonError(`package.json is not valid JSON (at line ${lineOf(this.text, this.pos)})`)
  }

  space(): void {
    while (this.pos < this.text.length && " \t\n\r".includes(this.text[this.pos]!)) this.pos++
  }

  /** An object from its `{`; the position ends after its `}`. */
  object(): Member[] {
    const members: Member[] = []
    this.pos++
    this.space()
    if (this.text[this.pos] === "}") {
      this.pos++
      return members
    }
    for (;;) {
      this.space()
      if (this.text[this.pos] !== '"') throw this.error()
      const keyStart = this.pos
      const key = this.string()
      const keyEnd = this.pos
      this.space()
      if (this.text[this.pos] !== ":") throw this.error()
      this.pos++
      this.space()
      const valueStart = this.pos
      const member: Member = { key, keyStart, keyEnd, valueStart, valueEnd: valueStart }
      const char = this.text[this.pos]
      if (char === "{") member.members = this.object()
      else if (char === '"') member.string = this.string()
      else this.value()
      member.valueEnd = this.pos
      members.push(member)
      this.space()
      if (this.text[this.pos] === ",") {
        this.pos++
        continue
      }
      if (this.text[this.pos] === "}") {
        this.pos++
        return members
      }
      throw this.error()
    }
  }

  /** A string from its opening quote, decoded by JSON.parse. */
  string(): string {
    const start = this.pos
    this.pos++
    while (this.pos < this.text.length && this.text[this.pos] !== '"') {
      if (this.text[this.pos] === "\\") this.pos++
      this.pos++
    }
    if (this.pos >= this.text.length) throw this.error()
    this.pos++
    try {
      return JSON.parse(this.text.slice(start, this.pos)) as string
    } catch {
      throw this.error()
    }
  }

  /** Any other value (array, number, literal), checked by JSON.parse. */
  value(): void {
    const start = this.pos
    const char = this.text[this.pos]
    if (char === "[") {
      this.pos++
      this.space()
      if (this.text[this.pos] === "]") {
        this.pos++
        return
      }
      for (;;) {
        this.space()
        const inner = this.text[this.pos]
        if (inner === "{") this.object()
        else if (inner === '"') this.string()
        else this.value()
        this.space()
        if (this.text[this.pos] === ",") this.pos++
        else if (this.text[this.pos] === "]") {
          this.pos++
          return
        } else throw this.error()
      }
    }
    while (this.pos < this.text.length && !",}] \t\n\r".includes(this.text[this.pos]!)) this.pos++
    try {
      JSON.parse(this.text.slice(start, this.pos))
    } catch {
      throw this.error()
    }
  }
}

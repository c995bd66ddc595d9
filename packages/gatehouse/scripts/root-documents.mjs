// prepack: the README, LICENSE and CHANGELOG live at the repository root, where GitHub shows
// them; npm packs only what is in this folder, so they are copied in (and git-ignored here).
// Each copy is written beside its target and renamed over it, so a pack running at the same
// time (the tests pack from several workers) never reads a half-written file.
import { copyFileSync, renameSync } from "node:fs"
import { fileURLToPath } from "node:url"

const root = new URL("../../../", import.meta.url)
const here = new URL("../", import.meta.url)
for (const name of ["README.md", "LICENSE", "CHANGELOG.md"]) {
  const target = fileURLToPath(new URL(name, here))
  const partial = `${target}.${process.pid}.partial`
  copyFileSync(fileURLToPath(new URL(name, root)), partial)
  renameSync(partial, target)
}

/**
 * Provisioning of the browser the tests drive: Debian's Chromium, installed by the global setup
 * when missing.
 */
import { execFileSync } from "node:child_process"
import { existsSync } from "node:fs"

/** Where Chromium is expected: `CHROMIUM_PATH`, else Debian's package's binary. */
export const CHROMIUM_EXECUTABLE = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"

/**
 * The Chromium binary, installing Debian's `chromium` package once when it is missing and we may
 * (root, apt-get): never a browser download of playwright's own, which this network refuses.
 * Called by the global setup, so the install happens before any test's clock starts.
 */
export function ensureChromium(): string {
  if (existsSync(CHROMIUM_EXECUTABLE)) return CHROMIUM_EXECUTABLE
  const isRoot = process.getuid?.() === 0
  if (isRoot && existsSync("/usr/bin/apt-get") && CHROMIUM_EXECUTABLE === "/usr/bin/chromium") {
    // No stdin: a prompt must fail the install, not hang the test run; nor may a stalled download (10 min).
    const options = { stdio: ["ignore", "inherit", "inherit"] as ("ignore" | "inherit")[], env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" }, timeout: 600_000 }
    execFileSync("apt-get", ["update"], options)
    execFileSync("apt-get", ["install", "-y", "--no-install-recommends", "chromium"], options)
  }
  if (!existsSync(CHROMIUM_EXECUTABLE)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_EXECUTABLE}. ${isRoot ? "" : "Not root, so it was not installed. "}` +
        "Install it (Debian/Ubuntu: apt-get install chromium) or set CHROMIUM_PATH.",
    )
  }
  return CHROMIUM_EXECUTABLE
}

#!/usr/bin/env node
/**
 * The `gatehouse` executable (`npx gatehouse-auth secret`): runs {@link main} on the process's
 * arguments, directory and streams.
 * @module
 */
import process from "node:process"
import { main } from "./main.js"

try {
  // exitCode, not exit(): output still being written to a pipe is flushed before Node exits.
  process.exitCode = await main(process.argv.slice(2), {
    cwd: process.cwd(),
    env: process.env,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  })
} catch (error) {
  // Only a bug gets here; a user still sees one line, not a stack trace.
  process.stderr.write(`gatehouse: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exitCode = 1
}

// Every connection a command opens is closed or cut off by its own deadline; should one still hold
// the event loop (a bug), the command has answered, so the process ends rather than hanging a deploy.
setTimeout(() => process.exit(), 5_000).unref()

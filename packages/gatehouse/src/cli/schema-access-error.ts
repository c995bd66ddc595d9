/**
 * The schema commands' one error: a database that could not be reached or read. A leaf, so the
 * driver loading and the status reading can both throw it.
 * @module
 */

/** A database that could not be reached or read; the message is one line, without the password. */
export class SchemaAccessError extends Error {
  override name = "SchemaAccessError"
}

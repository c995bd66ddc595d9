/**
 * The adapters the database-session flow tests run against: each opens a fresh store and
 * closes it afterwards.
 */
import type { Adapter } from "../../src/adapters/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"

export interface StoredAdapter {
  name: string
  open(): Promise<{ adapter: Adapter & Required<Pick<Adapter, "createUser" | "getSessionAndUser" | "createSession">>; close(): Promise<void> }>
}

export const storedAdapters: StoredAdapter[] = [
  { name: "memory", open: async () => ({ adapter: MemoryAdapter(), close: async () => {} }) },
]

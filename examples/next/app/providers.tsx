"use client"
import type { ReactNode } from "react"
import { SessionProvider, type SessionData } from "gatehouse-auth/react"

export function Providers({ session, children }: { session: SessionData; children: ReactNode }) {
  return <SessionProvider session={session}>{children}</SessionProvider>
}

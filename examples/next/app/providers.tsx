"use client"
import type { ReactNode } from "react"
import { SessionProvider } from "gatehouse-auth/react"

export function Providers({ children }: { children: ReactNode }) {
  return <SessionProvider>{children}</SessionProvider>
}

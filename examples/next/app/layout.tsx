import type { ReactNode } from "react"
import { auth } from "@/auth"
import { Providers } from "./providers"

export const metadata = { title: "Gatehouse on Next.js" }

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The client's SessionProvider starts with the session the server already has: no fetch.
  const session = await auth()
  return (
    <html lang="en">
      <body>
        <Providers session={session}>{children}</Providers>
      </body>
    </html>
  )
}

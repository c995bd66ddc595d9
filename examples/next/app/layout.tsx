import type { ReactNode } from "react"
import { Providers } from "./providers"

export const metadata = { title: "Gatehouse on Next.js" }

/**
 * No session read here: with Cache Components, request data at the top of the root layout would
 * hold every page behind the request. The client's SessionProvider fetches the session once.
 */
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  )
}

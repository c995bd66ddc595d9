import { HeadContent, Outlet, Scripts, createRootRoute } from "@tanstack/react-router"
import { useEffect, type ReactNode } from "react"

export const Route = createRootRoute({
  head: () => ({ meta: [{ charSet: "utf-8" }, { title: "Gatehouse on TanStack Start" }] }),
  component: () => <Outlet />,
  shellComponent: RootDocument,
})

function RootDocument({ children }: { children: ReactNode }) {
  // The tests wait for this: the page's handlers are attached.
  useEffect(() => document.body.setAttribute("data-hydrated", ""), [])
  return (
    <html lang="en">
      <head>
        <HeadContent />
      </head>
      <body>
        {children}
        <Scripts />
      </body>
    </html>
  )
}

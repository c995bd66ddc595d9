import { Router } from "@solidjs/router"
import { FileRoutes } from "@solidjs/start/router"
import { Suspense } from "solid-js"

export default function App() {
  return (
    <Router
      root={(props) => (
        <>
          <nav>
            <a href="/">Home</a> · <a href="/signin">Sign in</a> · <a href="/protected">Protected page</a> · <a href="/account">Account</a> ·{" "}
            <a href="/client">Client session</a> · <a href="/api/me">/api/me</a>
          </nav>
          <Suspense>{props.children}</Suspense>
        </>
      )}
    >
      <FileRoutes />
    </Router>
  )
}

import { Router } from "@solidjs/router"
import { FileRoutes } from "@solidjs/start/router"
import { onMount, Suspense } from "solid-js"

export default function App() {
  // The sign-in page's forms and buttons run client code, which does nothing until the page is
  // hydrated; the tests wait for this mark before using them.
  onMount(() => {
    document.body.dataset.hydrated = "true"
  })
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

/**
 * The page's Suspense boundary: the page reads the session, which is request data, and Cache
 * Components wants every such read inside one (the page itself stays as it was without them).
 */
export default function Loading() {
  return <p>Loading…</p>
}

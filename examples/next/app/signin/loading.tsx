/** The page's Suspense boundary: it reads its search params, request data under Cache Components. */
export default function Loading() {
  return <p>Loading…</p>
}

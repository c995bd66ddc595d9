import { ClientSession } from "./client-session"

export default function ClientPage() {
  return (
    <main>
      <h1>Client component</h1>
      <ClientSession />
    </main>
  )
}

import { auth } from "../../auth.js"

export default async function Protected() {
  const session = await auth()
  return <p id="protected">Protected page for {session?.user?.name}</p>
}

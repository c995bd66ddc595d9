// The example's one user; an app checks its own user store (see gatehouse-auth/password).
export function checkPassword(email: unknown, password: unknown) {
  const expected = process.env.DEMO_PASSWORD
  if (!expected || email !== "ada@example.com" || password !== expected) return null
  return { id: "ada", email: "ada@example.com", name: "Ada Lovelace" }
}

// src/routes/api/auth/$.ts
import { createFileRoute } from "@tanstack/react-router"
import { handlers } from "~/lib/auth"

export const Route = createFileRoute("/api/auth/$")({ server: { handlers } })

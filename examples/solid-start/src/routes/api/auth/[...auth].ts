import { SignalAuth } from "gatehouse-auth/solid-start"
import { authConfig } from "~/lib/auth"

export const { GET, POST } = SignalAuth(authConfig)

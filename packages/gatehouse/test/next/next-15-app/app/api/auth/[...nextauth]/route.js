import { handlers } from "../../../../auth.js"

export const { GET, POST } = handlers

/// <reference types="@solidjs/start/env" />
import type { Session } from "gatehouse-auth/types"

declare global {
  namespace App {
    interface RequestEventLocals {
      /** Set by the middleware on the paths it guards. */
      session?: Session
    }
  }
}

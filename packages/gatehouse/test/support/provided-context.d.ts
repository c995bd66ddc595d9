// Types what the global setup hands to test files via inject(); a module, so this augments vitest.
export {}

declare module "vitest" {
  export interface ProvidedContext {
    /** Connection URL of the run's PostgreSQL server; "" when it could not be started. */
    postgresUrl: string
    /** Why the server could not be started; "" when it runs. */
    postgresError: string
    /** Connection URL of the run's Redis server; "" when it could not be started. */
    redisUrl: string
    /** Why Redis could not be started; "" when it runs. */
    redisError: string
    /** Why Chromium is not there for the browser tests; "" when it is. */
    chromiumError: string
  }
}

/**
 * Config copies made by the integration kernel for server actions on frameworks that check the
 * origin of every POST themselves (Next.js server actions, SvelteKit form actions). Their CSRF
 * check is skipped like any `skipCSRFCheck` config, but that is the design, not a weakened app, so
 * they raise no `csrf-disabled` warning.
 * @module
 */
const originChecked = new WeakSet<object>()

/** Marks `config` as one whose POSTs the framework checks; returns it. */
export function markOriginChecked<Config extends object>(config: Config): Config {
  originChecked.add(config)
  return config
}

/** Whether the kernel marked `config` with {@link markOriginChecked}. */
export function isOriginChecked(config: object): boolean {
  return originChecked.has(config)
}

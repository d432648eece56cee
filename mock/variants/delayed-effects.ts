/**
 * A conformant layout: actions are "accepted, not completed, when the call returns", so their
 * effects may show only later. Here the store's changes that reads can observe (DNS values,
 * SFTP removals, site-admin users) take effect `delayMs` after the answer; the answer itself is
 * the reference's. The state properties must read until the effect shows, and pass.
 */
import { handlers } from '../app.ts';
import type { Handlers } from '../handler.ts';
import type { Store } from '../store.ts';
import type { Variant } from '../variant.ts';
import { conformant } from './build.ts';

/** The catalogue's delay: well within the state window against the embedded mock (2 s). */
export const EFFECT_DELAY_MS = 100;

/** The store's observable changes, and what each answers at once while the change waits. */
const deferred: Readonly<Record<string, (store: Store, ...args: never[]) => unknown>> = {
  updateDnsRecords: () => undefined,
  removeSftpAccount: () => undefined,
  // wpa-create-user answers whether it will add the user: it will unless the address exists.
  addWpAdmin: (store, env: Parameters<Store['hasWpAdmin']>[0], email: string) => !store.hasWpAdmin(env, email),
};

/** The store as handlers see it: the deferred changes happen `delayMs` later (the timer never keeps the process alive). */
function later(store: Store, delayMs: number): Store {
  return new Proxy(store, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      const now = typeof key === 'string' ? deferred[key] : undefined;
      if (!now) return value.bind(target);
      return (...args: never[]) => {
        setTimeout(() => value.apply(target, args), delayMs).unref();
        return now(target, ...args);
      };
    },
  });
}

/** The reference mock, its actions' effects showing `delayMs` after their answers. */
export function delayedEffects(delayMs: number, name = 'effects-after-delay'): Variant {
  const delayed = Object.fromEntries(
    Object.entries(handlers).map(([endpoint, handler]) => [endpoint, (context: Parameters<typeof handler>[0]) => handler({ ...context, store: later(context.store, delayMs) } as never)]),
  ) as unknown as Handlers;
  return conformant(name, `Changes of DNS values, SFTP removals and site-admin users show only ${delayMs} ms after the answer (accepted, not completed).`, { handlers: delayed });
}

export const delayedVariants: readonly Variant[] = [delayedEffects(EFFECT_DELAY_MS)];

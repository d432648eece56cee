/**
 * Keys that are almost the company's (AUTH-401): the canonical values of the credential
 * operators (spec/operators/credentials.ts), what an off-by-one or a lax comparison lets through
 * (a server that compares the first 16 characters, a prefix, or without case). Each is derived
 * from the real key, so the sanitizer learns it as a secret of its own, shown as the key's marker
 * with what was done to it, and curl lines rebuild it from `$HSC_API_KEY` in the shell: no form
 * of the key is ever printed. Drawn variants (any position) are learned the same way, from the
 * probes that carry them (`Probe.secrets`).
 */
import type { Secret } from '../../sanitize/sanitizer.ts';
import { keyVariants, type KeyVariant } from '../../spec/operators/credentials.ts';

export type NearMiss = KeyVariant;

/** A key variant as a secret: hidden wherever it stands, named after the key it comes from. */
export const variantSecret = (variant: KeyVariant, name = 'HSC_API_KEY'): Secret => ({ value: variant.value, name: `${name} with ${variant.how}`, kind: 'key', shell: variant.shell });

/** The canonical near misses of `key`, as a variable named `name` holds it (none equal to the key, none empty). */
export function nearMissKeys(key: string, name = 'HSC_API_KEY'): NearMiss[] {
  return keyVariants(key, name)
    .map((a) => a.first)
    .filter((m) => m.value !== '' && m.value !== key);
}

/** The near misses as secrets. */
export const nearMissSecrets = (key: string, name = 'HSC_API_KEY'): Secret[] => nearMissKeys(key, name).map((m) => variantSecret(m, name));

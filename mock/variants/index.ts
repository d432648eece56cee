/**
 * The catalogue: every fault and conformant variant of the mock, in one list. Adding one is one
 * entry in the family file it belongs to (faults-*.ts, conformant.ts); a layout (mock/layouts.ts)
 * is one more conformant entry by itself, and a fault in a layout one row of `faultsInLayouts`.
 */
import { layoutNamed, layouts } from '../layouts.ts';
import type { Variant } from '../variant.ts';
import { conformantVariants } from './conformant.ts';
import { authFaults } from './faults-auth.ts';
import { notFoundFaults, schemaFaults } from './faults-data.ts';
import { acceptanceFaults, inputFaults, limitFaults } from './faults-input.ts';
import { stateFaults } from './faults-state.ts';
import { isolationFaults } from './faults-isolation.ts';
import { ackFaults, contentTypeFaults, errorBodyFaults, operationIdFaults, statusSetFaults, transportFaults } from './faults-wire.ts';

/** The reference mock in each layout: conformant servers laid out differently from ours. */
const layoutVariants: readonly Variant[] = layouts.map((l) => ({ name: `layout-${l.name}`, kind: 'conformant', description: `Layout ${l.name}: ${l.description}`, hooks: {}, layout: l.name }));

const families: readonly Variant[] = [
  ...authFaults,
  ...errorBodyFaults,
  ...statusSetFaults,
  ...contentTypeFaults,
  ...ackFaults,
  ...operationIdFaults,
  ...schemaFaults,
  ...notFoundFaults,
  ...isolationFaults,
  ...limitFaults,
  ...inputFaults,
  ...acceptanceFaults,
  ...stateFaults,
  ...transportFaults,
  ...conformantVariants,
];

/**
 * Faults in other layouts: a fault must be caught however the data is arranged. Each row is a
 * fault of the families above and a layout where the suite must look further for what it needs.
 */
const faultsInLayouts: readonly (readonly [fault: string, layout: string])[] = [
  ['dns-update-wrong-types-accepted', 'staging-domain-without-dns'],
  ['dns-update-valid-refused', 'staging-domain-without-dns'],
  ['ack-201-instead-of-202', 'staging-domain-without-dns'],
  ['dns-update-not-applied', 'staging-domain-without-dns'],
  ['dns-removal-not-applied', 'delayed-effects'],
  ['sftp-removal-not-applied', 'staging-without-sftp-and-backups'],
  ['opid-malformed-uuid', 'staging-without-sftp-and-backups'],
  ['ack-status-200-in-body', 'staging-without-sftp-and-backups'],
  ['auth-ignored-run-wp-cli', 'only-live'],
  ['unknown-env-500', 'only-live'],
  ['foreign-site-readable', 'staging-first'],
  ['search-replace-unicode-500', 'empty-lists'],
];

function inLayout(faultName: string, layout: string): Variant {
  const fault = families.find((v) => v.name === faultName);
  if (!fault || fault.kind !== 'fault') throw new Error(`faultsInLayouts: no fault named '${faultName}'`);
  layoutNamed(layout);
  return { ...fault, name: `${fault.name}-in-${layout}`, description: `${fault.description} (layout ${layout})`, layout };
}

export const catalogue: readonly Variant[] = [...families, ...layoutVariants, ...faultsInLayouts.map(([fault, layout]) => inLayout(fault, layout))];

export function variantNamed(name: string): Variant {
  const found = catalogue.find((v) => v.name === name);
  if (!found) throw new Error(`no variant named '${name}' (see hosted-site-contract self-test --list)`);
  return found;
}

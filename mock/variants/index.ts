/**
 * The catalogue: every fault and conformant variant of the mock, in one list. Adding one is one
 * entry in the family file it belongs to (faults-*.ts, conformant.ts).
 */
import type { Variant } from '../variant.ts';
import { conformantVariants } from './conformant.ts';
import { authFaults } from './faults-auth.ts';
import { notFoundFaults, schemaFaults } from './faults-data.ts';
import { delayedVariants } from './delayed-effects.ts';
import { acceptanceFaults, inputFaults, limitFaults } from './faults-input.ts';
import { stateFaults } from './faults-state.ts';
import { ackFaults, contentTypeFaults, errorBodyFaults, operationIdFaults, statusSetFaults, transportFaults } from './faults-wire.ts';

export const catalogue: readonly Variant[] = [
  ...authFaults,
  ...errorBodyFaults,
  ...statusSetFaults,
  ...contentTypeFaults,
  ...ackFaults,
  ...operationIdFaults,
  ...schemaFaults,
  ...notFoundFaults,
  ...limitFaults,
  ...inputFaults,
  ...acceptanceFaults,
  ...stateFaults,
  ...transportFaults,
  ...conformantVariants,
  ...delayedVariants,
];

export function variantNamed(name: string): Variant {
  const found = catalogue.find((v) => v.name === name);
  if (!found) throw new Error(`no variant named '${name}' (see hosted-site-contract self-test --list)`);
  return found;
}

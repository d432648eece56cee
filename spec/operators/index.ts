/**
 * The registry of mutation operators (operator.ts): every one the suite draws from, and the ones
 * it never draws from because the document does not decide their values (`unused`, with why).
 */
import { credentialOperators, unusedCredentialOperators } from './credentials.ts';
import { jsonOperators, unusedJsonOperators } from './json.ts';
import { clientShape, validRequest, type Operator } from './operator.ts';
import { patternOperators } from './patterns.ts';
import { referenceOperators, unusedReferenceOperators } from './references.ts';
import { typeOperators, unusedTypeOperators } from './types.ts';

export type { Applied, Operator, OperatorFamily } from './operator.ts';
export { clientShape, credentialOperators, jsonOperators, patternOperators, referenceOperators, typeOperators, validRequest };

/** Every operator, the unused ones last. */
export const operators: readonly Operator[] = [
  validRequest,
  clientShape,
  ...Object.values(jsonOperators),
  ...Object.values(typeOperators),
  ...Object.values(patternOperators),
  ...Object.values(credentialOperators),
  ...Object.values(referenceOperators),
  ...unusedJsonOperators,
  ...unusedTypeOperators,
  ...unusedCredentialOperators,
  ...unusedReferenceOperators,
];

const byId = new Map(operators.map((o) => [o.id, o]));

/** The operator of an id; a combined id (`type:string+type:later-item`) names its first part's. */
export const operatorNamed = (id: string): Operator | undefined => byId.get(id) ?? byId.get(id.split('+')[0]!);

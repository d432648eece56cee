/**
 * The catalogue: every fault and conformant variant of the mock, in one list. Adding one is one
 * entry in the family file it belongs to (faults-*.ts, conformant.ts); a layout (mock/layouts.ts)
 * is one more conformant entry by itself, and a fault in a layout one row of `faultsInLayouts`.
 */
import { api } from '../../spec/api.ts';
import { inScope } from '../../spec/queries.ts';
import { layoutNamed, layouts } from '../layouts.ts';
import type { Variant } from '../variant.ts';
import { conformantVariants } from './conformant.ts';
import { blindConformant, blindFaults, blindStatementFaults } from './faults-blind.ts';
import { realConformant, realFaults } from './faults-real.ts';
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
  // Written after the mutation operators, from how real servers go wrong (faults-real.ts).
  ...realFaults,
  ...realConformant,
  // Written blind, from the document alone, by someone who had not read the suite (faults-blind.ts).
  ...blindFaults,
  ...blindStatementFaults,
  ...blindConformant,
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

/** Variants loaded from a module of the user's (`self-test --variants FILE`): found by name beside the catalogue's. */
const loaded: Variant[] = [];

/**
 * Loads a module whose `variants` export is a list of variants (the format of mock/variant.ts),
 * so the self-test's runs find them by name. Names may not repeat the catalogue's; a fault names
 * a rule of the model and an endpoint in its scope, as the catalogue's do. Returns the variants
 * the module holds (once loaded, the same again).
 */
export async function loadVariants(file: string): Promise<readonly Variant[]> {
  const { pathToFileURL } = await import('node:url');
  const { resolve } = await import('node:path');
  let module: { variants?: unknown };
  try {
    module = (await import(pathToFileURL(resolve(file)).href)) as { variants?: unknown };
  } catch (error) {
    // A .ts file outside an ES-module package loads as CommonJS, which cannot import the catalogue's modules.
    const message = error instanceof Error ? error.message : String(error);
    if (/require\(\)|ES Module|ERR_REQUIRE_ESM/.test(message)) throw new Error(`${file} loads as CommonJS: name it .mts, or put it beside a package.json with "type": "module"`);
    // A compile error's first line only says there is one: where it is comes next.
    const lines = message.split('\n').map((l) => l.trim()).filter(Boolean);
    throw new Error(`${file} does not load: ${lines[0]?.endsWith(':') && lines[1] ? `${lines[0]} ${lines[1]}` : (lines[0] ?? 'unknown error')}`);
  }
  const list = module.variants;
  if (!Array.isArray(list) || !list.every((v) => v && typeof v === 'object' && typeof v.name === 'string' && (v.kind === 'fault' || v.kind === 'conformant') && v.hooks && typeof v.hooks === 'object')) {
    throw new Error(`${file} exports no \`variants\`: a list of { name, kind: 'fault' | 'conformant', rule?, endpoint?, description, hooks }`);
  }
  for (const v of list as Variant[]) {
    if (loaded.some((x) => x === v)) continue;
    const unfit = v.kind === 'fault' ? faultUnfit(v) : undefined;
    if (unfit) throw new Error(`${file}: the fault '${v.name}' ${unfit}`);
    if (catalogue.some((x) => x.name === v.name) || loaded.some((x) => x.name === v.name)) throw new Error(`${file}: the variant name '${v.name}' is taken`);
    loaded.push(v);
  }
  return list as Variant[];
}

/** Why a fault cannot be judged: it names no rule of the model, no endpoint of it, or one outside the rule's scope. */
function faultUnfit(v: Variant): string | undefined {
  const r = api.rules.find((x) => x.id === v.rule);
  if (!r) return v.rule === undefined ? 'names no rule (`rule`: the id of the rule it breaks, spec/rules.ts)' : `names '${v.rule}', no rule of the model (spec/rules.ts)`;
  const e = api.endpoints.find((x) => x.name === v.endpoint);
  if (v.endpoint !== undefined && !e) return `names the endpoint '${v.endpoint}', none of the model's (spec/endpoints.ts)`;
  if (e && !inScope(r, e)) return `names ${v.rule} on ${v.endpoint}, which the rule does not cover`;
  return undefined;
}

/** The catalogue and every variant loaded since. */
export const allVariants = (): readonly Variant[] => [...catalogue, ...loaded];

export function variantNamed(name: string): Variant {
  const found = catalogue.find((v) => v.name === name) ?? loaded.find((v) => v.name === name);
  if (!found) throw new Error(`no variant named '${name}' (see hosted-site-contract self-test --list)`);
  return found;
}

/**
 * The reference docs, written from the code so they cannot go stale: every command's usage and
 * flags from the rows `help` prints (bin/commands.ts), every code of the model (rules,
 * unknowns, assumptions, conflicts) whole, as `explain` prints it (spec/codes.ts), and the mock's
 * catalogue of variants (mock/variants/).
 * `npm run docs` writes them; `npm run docs -- --check` (and a test) fails on drift, naming the
 * file, as `generate --check` does for generated/.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { commands } from '../bin/commands.ts';
import { PROGRAM } from '../bin/package-info.ts';
import { codes, explanation } from '../spec/codes.ts';
import { apiIdentity } from '../spec/identity.ts';
import { catalogue } from '../mock/variants/index.ts';
import { REPORT_SCHEMA_FILE } from '../conformance/report/json.ts';
import type { Variant } from '../mock/variant.ts';

const root = new URL('../', import.meta.url);

const BANNER = `<!-- written by scripts/reference-docs.ts from the code (npm run docs); do not edit: a test fails on drift -->`;

const fence = (text: string) => ['```text', text, '```'].join('\n');

function commandsDoc(): string {
  const sections = commands.map((c) => [`## ${c.name}`, '', c.summary, '', fence(`${PROGRAM} ${c.usage}${c.flags?.length ? `\n\n${c.flags.join('\n')}` : ''}`)].join('\n'));
  return [BANNER, '', '# Commands', '', `Every command of \`${PROGRAM}\`, as \`${PROGRAM} help <command>\` prints it.`, '', ...sections.flatMap((s) => [s, ''])].join('\n');
}

const KIND_TITLES = { rule: 'Rules (checked by the suite)', unknown: 'Unknowns (what the document does not show)', assumption: 'Assumptions (choices made where the document is silent)', conflict: 'Conflicts (statements of the document that disagree)' } as const;

function rulesDoc(): string {
  const parts = (Object.keys(KIND_TITLES) as (keyof typeof KIND_TITLES)[]).flatMap((kind) => [
    `## ${KIND_TITLES[kind]}`,
    '',
    ...codes.filter((c) => c.kind === kind).flatMap((c) => [`### ${c.id}`, '', fence(explanation(c)), '']),
  ]);
  return [BANNER, '', '# Rules, unknowns, assumptions and conflicts', '', `Every code of the model of ${apiIdentity.title} (spec ${apiIdentity.specVersion}), as \`${PROGRAM} explain <code>\` prints it.`, '', ...parts].join('\n');
}

/** A Markdown table cell: one line, its pipes escaped. */
const cell = (text: string) => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');

function variantsDoc(): string {
  const rows = (kind: Variant['kind']) =>
    catalogue
      .filter((v) => v.kind === kind)
      .map((v) => `| \`${v.name}\` | ${kind === 'fault' ? `${v.rule ?? ''} ${v.endpoint ?? ''}`.trim() : (v.layout ?? '')} | ${cell(v.description)} |`);
  return [
    BANNER,
    '',
    '# Mock variants',
    '',
    `The catalogue \`${PROGRAM} self-test\` runs the suite against: \`${PROGRAM} mock --variant NAME\` serves one, \`conform --mock-variant NAME\` tests one.`,
    '',
    `## Faults (${catalogue.filter((v) => v.kind === 'fault').length}): each breaks one rule on one endpoint, and must be caught there`,
    '',
    '| name | rule, endpoint | what it does |',
    '|---|---|---|',
    ...rows('fault'),
    '',
    `## Conformant variants (${catalogue.filter((v) => v.kind === 'conformant').length}): servers that differ from the mock within the document, and must pass`,
    '',
    '| name | layout | how it differs |',
    '|---|---|---|',
    ...rows('conformant'),
    '',
  ].join('\n');
}

type Schema = { type?: string | string[]; const?: unknown; enum?: unknown[]; $ref?: string; description?: string; properties?: Record<string, Schema>; required?: string[]; items?: Schema; anyOf?: Schema[]; oneOf?: Schema[]; $defs?: Record<string, Schema> };

/** A schema's type in a word or two: `string`, `array of Failure`, `"…@1"`. */
function typeOf(s: Schema): string {
  if (s.const !== undefined) return `\`${JSON.stringify(s.const)}\``;
  if (s.enum) return s.enum.map((v) => `\`${JSON.stringify(v)}\``).join(', ');
  if (s.$ref) return s.$ref.split('/').at(-1)!;
  if (s.anyOf ?? s.oneOf) return (s.anyOf ?? s.oneOf)!.map(typeOf).join(' or ');
  if (s.type === 'array') return `array of ${s.items ? typeOf(s.items) : 'any'}`;
  return Array.isArray(s.type) ? s.type.join(' or ') : (s.type ?? 'any');
}

/** Every field of a schema's object, nested objects one level down as `parent.child`. */
function fieldRows(schema: Schema, prefix = '', depth = 0): string[] {
  return Object.entries(schema.properties ?? {}).flatMap(([name, field]) => [
    `| \`${prefix}${name}\` | ${cell(typeOf(field))} | ${schema.required?.includes(name) ? 'yes' : ''} | ${cell(field.description ?? '')} |`,
    ...(depth === 0 && field.properties ? fieldRows(field, `${prefix}${name}.`, depth + 1) : []),
  ]);
}

function schemaSection(title: string, file: string): string[] {
  const schema = JSON.parse(readFileSync(new URL(`generated/${file}`, root), 'utf8')) as Schema & { title?: string };
  return [
    `## ${title}`,
    '',
    `\`${file}\` (in the package: \`${PROGRAM}/${file}\`)${schema.description ? `: ${cell(schema.description)}` : ''}`,
    '',
    '| field | type | required | what it holds |',
    '|---|---|---|---|',
    ...fieldRows(schema),
    '',
  ];
}

function reportsDoc(): string {
  return [
    BANNER,
    '',
    '# Report formats',
    '',
    `What each command writes is in its flags (\`${PROGRAM} help conform\`, \`help proxy\`, \`help diff\`; [commands.md](commands.md)); how to read a run's report, in [the live-API guide](../live-api.md#reports). The JSON reports follow these schemas, shipped in the package and checked against real runs by the tests.`,
    '',
    ...schemaSection('conform --reporter json', REPORT_SCHEMA_FILE),
    ...schemaSection('diff --format json', 'contract-diff.schema.json'),
  ].join('\n');
}

/** Each reference file, by its path in the repository, and its text. */
export function referenceDocs(): readonly { readonly path: string; readonly text: string }[] {
  return [
    { path: 'docs/reference/commands.md', text: commandsDoc() },
    { path: 'docs/reference/rules.md', text: rulesDoc() },
    { path: 'docs/reference/variants.md', text: variantsDoc() },
    { path: 'docs/reference/reports.md', text: reportsDoc() },
  ];
}

/** The files that differ from what the code writes (missing ones too). */
export function staleReferenceDocs(): string[] {
  return referenceDocs()
    .filter((doc) => {
      try {
        return readFileSync(new URL(doc.path, root), 'utf8') !== doc.text;
      } catch {
        return true;
      }
    })
    .map((doc) => doc.path);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--check')) {
    const stale = staleReferenceDocs();
    for (const path of stale) console.error(`${path} is out of date with the code: run npm run docs`);
    process.exitCode = stale.length ? 1 : 0;
    if (!stale.length) console.log('docs/reference/ is up to date with the code');
  } else {
    for (const doc of referenceDocs()) writeFileSync(new URL(doc.path, root), doc.text);
    console.log(`wrote ${referenceDocs().map((d) => d.path).join(', ')}`);
  }
}

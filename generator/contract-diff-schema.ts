/**
 * The JSON Schema of `hosted-site-contract diff --format json` (`contract-diff.schema.json`):
 * what a CI step may rely on. Classes and kinds are read from the diff engine's tables, so the
 * schema and the engine cannot drift apart; the banner travels as `$comment`, as in `schemas.json`.
 */
import { CHANGE_CLASSES } from '../diff/change.ts';
import { changeKinds } from '../diff/classes.ts';
import { DIFF_FORMAT } from '../diff/report.ts';
import { bannerLines, normalizeText, type Generate } from './output.ts';

const GENERATOR = 'generator/contract-diff-schema.ts';
export const CONTRACT_DIFF_SCHEMA_FILE = 'contract-diff.schema.json';

const text = { type: 'string' } as const;
const textOrNull = { type: ['string', 'null'] } as const;

const side = {
  type: 'object',
  additionalProperties: false,
  required: ['source', 'specVersion'],
  properties: {
    source: { ...text, description: 'The git ref, the file as given, or `working tree`.' },
    specVersion: { ...text, description: 'The document version the snapshot encodes.' },
  },
} as const;

const change = {
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'classes', 'subject', 'operations', 'before', 'after', 'sections', 'summary'],
  properties: {
    kind: { enum: [...changeKinds] },
    classes: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: [...CHANGE_CLASSES] } },
    subject: { ...text, description: '`METHOD /path` as the document writes it (optionally with the place in it), a resource and field, a rule or gap id.' },
    operations: { type: 'array', items: { ...text, pattern: '^(GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS) /' }, description: 'The endpoints the change touches.' },
    before: { ...textOrNull, description: 'The old value in words; null where the fact did not exist.' },
    after: { ...textOrNull, description: 'The new value in words; null where the fact no longer exists.' },
    sections: {
      type: 'object',
      additionalProperties: false,
      required: ['before', 'after'],
      properties: { before: textOrNull, after: textOrNull },
      description: 'The section of the old and new document the fact is cited from.',
    },
    summary: text,
    ignored: { ...text, description: 'Listed in the --ignore file: its reason there. An ignored change fails no --fail-on.' },
  },
} as const;

export function contractDiffSchema(banner: string): Record<string, unknown> {
  return {
    $comment: banner,
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'hosted-site-contract diff --format json',
    type: 'object',
    additionalProperties: false,
    required: ['format', 'from', 'to', 'counts', 'changes'],
    properties: {
      format: { const: DIFF_FORMAT },
      from: side,
      to: side,
      counts: {
        type: 'object',
        additionalProperties: false,
        required: ['total', ...CHANGE_CLASSES],
        properties: Object.fromEntries(['total', ...CHANGE_CLASSES].map((k) => [k, { type: 'integer', minimum: 0 }])),
      },
      changes: { type: 'array', items: change },
      ignore: {
        type: 'object',
        additionalProperties: false,
        required: ['file', 'ignored', 'gone'],
        description: 'With --ignore: the file, how many changes it ignored, and its lines that match no change any more.',
        properties: { file: text, ignored: { type: 'integer', minimum: 0 }, gone: { type: 'array', items: text } },
      },
    },
  };
}

export const generateContractDiffSchema: Generate = (api) => [
  { path: CONTRACT_DIFF_SCHEMA_FILE, contents: normalizeText(JSON.stringify(contractDiffSchema(bannerLines(api, GENERATOR).join(' ')), null, 2)) },
];

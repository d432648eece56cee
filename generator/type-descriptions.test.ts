/** Descriptions from doc comments: a field's own first, else its type's; through arrays, records, optional fields, bases and imports. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describedByType } from './type-descriptions.ts';

const dir = mkdtempSync(join(tmpdir(), 'hsc-descriptions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

writeFileSync(
  join(dir, 'other.ts'),
  `/** An item, from another module. */
export interface Item {
  /** Its name. */
  readonly name: string;
  readonly size: number;
}
`,
);
writeFileSync(
  join(dir, 'main.ts'),
  `import type { Item } from './other.ts';
/** The base's fields come too. */
interface Base {
  /** Made by. */
  readonly tool: string;
}
/** Counts by key. */
type Counts = Readonly<Record<string, {
  /** How many. */
  readonly n: number;
}>>;
export interface Top extends Base {
  /** The items, listed. */
  readonly items: readonly Item[];
  readonly counts: Counts;
  readonly maybe?: Item;
  readonly plain: string;
}
`,
);

const object = (properties: Record<string, unknown>) => ({ type: 'object', properties });
const item = object({ name: { type: 'string' }, size: { type: 'number' } });
const schema = object({
  tool: { type: 'string' },
  items: { type: 'array', items: item },
  counts: { type: 'object', additionalProperties: object({ n: { type: 'integer' } }) },
  maybe: item,
  plain: { type: 'string' },
  notInTheType: { type: 'string' },
});

describe('describedByType', () => {
  const out = describedByType(schema, join(dir, 'main.ts'), 'Top') as any;

  it("a field's own comment, else the comment of the type it names", () => {
    expect(out.properties.items.description).toBe('The items, listed.');
    expect(out.properties.counts.description).toBe('Counts by key.');
    expect(out.properties.maybe.description).toBe('An item, from another module.');
  });

  it('through arrays, records and optional fields, into the imported module and the base interface', () => {
    expect(out.properties.items.items.description).toBe('An item, from another module.');
    expect(out.properties.items.items.properties.name.description).toBe('Its name.');
    expect(out.properties.maybe.properties.name.description).toBe('Its name.');
    expect(out.properties.counts.additionalProperties.properties.n.description).toBe('How many.');
    expect(out.properties.tool.description).toBe('Made by.');
  });

  it('nothing where the type says nothing, and a description already written is kept', () => {
    expect(out.properties.plain.description).toBeUndefined();
    expect(out.properties.items.items.properties.size.description).toBeUndefined();
    expect(out.properties.notInTheType).toEqual({ type: 'string' });
    const written = describedByType(object({ plain: { type: 'string', description: 'Mine.' }, items: { type: 'array', description: 'Mine too.' } }), join(dir, 'main.ts'), 'Top') as any;
    expect(written.properties.plain.description).toBe('Mine.');
    expect(written.properties.items.description).toBe('Mine too.');
  });

  it('a type the module does not declare is an error, not an empty schema', () => {
    expect(() => describedByType(schema, join(dir, 'main.ts'), 'Nope')).toThrow(/declares no type Nope/);
  });
});

/**
 * The model's codes (codes.ts): every rule, unknown, assumption and conflict has an entry, a
 * one-line meaning made of its own entry's words, and an explanation that shows the entry's
 * statement and citation verbatim and adds only what the model records.
 */
import { describe, expect, it } from 'vitest';
import { api } from './api.ts';
import { codeEntry, codeList, codes, explanation, meaningOf, withMeaning, type Code, type CodeEntry } from './codes.ts';
import { operation } from './queries.ts';

const allIds: Code[] = [...api.rules.map((r) => r.id), ...api.unknowns.map((u) => u.id), ...api.assumptions.map((a) => a.id), ...api.conflicts.map((c) => c.id)];

/** Lower-case words of a text, for comparing a meaning with the entry it comes from. */
const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9_]+/g) ?? []);
/** The text of an entry a meaning may draw on. */
const sourceOf = (c: CodeEntry): string => {
  switch (c.kind) {
    case 'rule':
      return c.entry.title;
    case 'unknown':
      return c.entry.what;
    case 'assumption':
      return c.entry.choice;
    case 'conflict':
      return `${c.entry.letter.says} ${c.entry.reading.says}`;
  }
};

describe('codes', () => {
  it('hold every id of the model once, and find each in any case', () => {
    expect(codes.map((c) => c.id).sort()).toEqual([...allIds].sort());
    expect(new Set(allIds).size).toBe(allIds.length);
    for (const id of allIds) {
      expect(codeEntry(id)?.id).toBe(id);
      expect(codeEntry(id.toLowerCase())?.id).toBe(id);
    }
    expect(codeEntry('UNK-NOT-IN-THE-MODEL')).toBeUndefined();
  });
});

describe('meaningOf and withMeaning', () => {
  it.each(codes.map((c) => [c.id, c] as const))('%s: one line, drawn from its own entry', (id, entry) => {
    const meaning = meaningOf(id);
    expect(meaning).not.toMatch(/\n/);
    expect(meaning.length).toBeGreaterThan(10);
    // Nearly every word of the meaning is the entry's own (a few joining words are ours).
    const own = words(sourceOf(entry));
    const foreign = [...words(meaning)].filter((w) => !own.has(w));
    expect(foreign.length, `${meaning}\nwords not in the entry: ${foreign.join(', ')}`).toBeLessThanOrEqual(5);
    expect(withMeaning(id)).toBe(`${id} (${meaning})`);
  });

  it('a rule means its title; an unknown says what the document does not show', () => {
    for (const rule of api.rules) expect(meaningOf(rule.id)).toBe(rule.title);
    for (const unknown of api.unknowns) expect(meaningOf(unknown.id).toLowerCase()).toContain(unknown.what.replace(/\.$/, '').toLowerCase());
  });

  it('throws for a code the model lacks: a caller that cites one is a bug', () => {
    expect(() => meaningOf('ASM-NOT-IN-THE-MODEL')).toThrow(/ASM-NOT-IN-THE-MODEL/);
  });
});

describe('codeList', () => {
  it('has one line per code, beginning with the code and holding its meaning', () => {
    const lines = codeList().split('\n');
    for (const id of allIds) {
      const line = lines.filter((l) => l.trim().split(/\s+/)[0] === id);
      expect(line, id).toHaveLength(1);
      expect(line[0]).toContain(meaningOf(id));
    }
  });
});

describe('explanation', () => {
  const explained = (id: Code) => explanation(codeEntry(id)!);

  it.each(codes.map((c) => [c.id, c] as const))('%s: its statement and citation verbatim', (id, c) => {
    const text = explained(id);
    expect(text.startsWith(`${id}: ${meaningOf(id)}`)).toBe(true);
    const cites = c.kind === 'conflict' ? [c.entry.letter.cite, c.entry.reading.cite] : [c.entry.cite];
    for (const cite of cites) {
      expect(text).toContain(`§${cite.section}`);
      if (cite.quote) expect(text).toContain(cite.quote);
    }
    const statements =
      c.kind === 'rule' ? [c.entry.statement] : c.kind === 'unknown' ? [c.entry.what] : c.kind === 'assumption' ? [c.entry.choice, c.entry.why] : [c.entry.letter.says, c.entry.reading.says, c.entry.mockWhy];
    for (const statement of statements) expect(text).toContain(statement);
  });

  it('a rule scoped to named endpoints lists exactly those', () => {
    for (const rule of api.rules) {
      if (typeof rule.scope !== 'object') continue;
      const listed = api.endpoints.filter((e) => explained(rule.id).split('\n').includes(`    ${operation(e)}`));
      expect(listed.map((e) => e.name).sort(), rule.id).toEqual([...rule.scope.endpoints].sort());
    }
  });

  it('a conflict names its endpoints, the side the mock takes, and the status the reading adds', () => {
    for (const conflict of api.conflicts) {
      const text = explained(conflict.id);
      for (const name of conflict.endpoints) expect(text).toContain(operation(api.endpoints.find((e) => e.name === name)!));
      const mockLine = text.split('\n').find((l) => l.startsWith('the mock:'))!;
      expect(mockLine).toMatch(conflict.mock === 'reading' ? /reading/ : /letter/);
      if (conflict.extraStatus !== undefined) expect(text.split('\n').find((l) => l.startsWith('the suite:'))).toContain(String(conflict.extraStatus));
      for (const rule of api.rules.filter((r) => r.conflicts?.includes(conflict.id))) expect(text).toContain(rule.id);
    }
  });

  it('an unknown links the assumptions that cite the same words of the document, and only those', () => {
    for (const unknown of api.unknowns) {
      const text = explained(unknown.id);
      for (const a of api.assumptions) {
        const same = a.cite.section === unknown.cite.section && a.cite.quote !== undefined && a.cite.quote === unknown.cite.quote;
        expect(text.includes(a.id), `${unknown.id} and ${a.id}`).toBe(same);
      }
    }
  });

  it('names the fields that rest on a code where the model marks them', () => {
    const field = api.endpoints.flatMap((e) => (e.body ?? []).filter((f) => f.assumption).map((f) => ({ e, f })))[0]!;
    expect(explained(field.f.assumption!)).toContain(`${operation(field.e)}: body field ${field.f.name}`);
    const param = api.endpoints.flatMap((e) => e.queryParams.filter((p) => p.assumption).map((p) => ({ e, p })))[0]!;
    expect(explained(param.p.assumption!)).toContain(`${operation(param.e)}: query parameter ${param.p.name}`);
  });

  it('says nothing of the mock or the suite where the model records nothing of them', () => {
    // An unknown no assumption shares words with and no field names: its statement and citation only.
    const bare = api.unknowns.find((u) => !api.assumptions.some((a) => a.cite.quote === u.cite.quote) && !JSON.stringify([api.resources, api.endpoints]).includes(`"${u.id}"`))!;
    const text = explained(bare.id);
    expect(text).not.toMatch(/\bmock\b/);
    expect(text).not.toMatch(/\bsuite\b/);
    expect(text.split('\n').filter((l) => !l.includes(bare.what) && !l.includes(bare.cite.section) && !l.startsWith(`${bare.id}:`))).toHaveLength(1); // the line saying what an unknown is
  });
});

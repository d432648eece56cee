/**
 * The reference docs cannot go stale: what is on disk is what the code writes (the commands'
 * own rows, the model's codes), and a change to either shows here as drift, naming the file.
 */
import { describe, expect, it } from 'vitest';
import { commands } from '../bin/commands.ts';
import { catalogue } from '../mock/variants/index.ts';
import { codes } from '../spec/codes.ts';
import { referenceDocs, staleReferenceDocs } from './reference-docs.ts';

describe('docs/reference/', () => {
  it('is what the code writes (npm run docs rewrites it)', () => {
    expect(staleReferenceDocs()).toEqual([]);
  });

  it('names every command with its usage, every code of the model under its own heading, and every variant of the catalogue', () => {
    const [commandsDoc, rulesDoc, variantsDoc] = referenceDocs().map((d) => d.text);
    for (const c of commands) expect(commandsDoc).toContain(`## ${c.name}\n`);
    for (const c of commands) expect(commandsDoc).toContain(c.usage);
    for (const c of codes) expect(rulesDoc).toContain(`### ${c.id}\n`);
    for (const v of catalogue) expect(variantsDoc).toContain(`| \`${v.name}\` |`);
  });
});

/**
 * The worked example: a fictitious next version of the document (diff/fixtures/next-version/)
 * and the model updated to it. The fixture model must say what the fixture document says, and
 * the diff's Markdown must match the reviewed expectation written by hand from the edits.
 */
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { api } from '../spec/api.ts';
import { contractOf } from '../spec/contract.ts';
import { readSections, tableRows, documentPath } from '../spec/document.ts';
import { citesOf, operation, quotePieces } from '../spec/queries.ts';
import { diffContracts } from './engine.ts';
import { NEXT_SPEC_VERSION, nextVersion } from './fixtures/next-version/model.ts';
import { renderMarkdown } from './markdown.ts';
import { runDiff } from './cli.ts';
import { nextContractText } from './fixtures/next-version/write-contract.ts';
import { reportOf } from './report.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/next-version/${name}`, import.meta.url), 'utf8');
const nextDocument = fixture('hosted-site-api.md');
const next = nextVersion(api);
const sections = readSections(nextDocument);
const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

describe('the fictitious next version', () => {
  it('is a different document from the product\'s, of version 1.107.0', () => {
    expect(nextDocument).not.toBe(readFileSync(documentPath, 'utf8'));
    expect(next.specVersion).toBe(NEXT_SPEC_VERSION);
    expect(sections.find((s) => s.path === 'Versioning')!.body).toContain(`with version \`${NEXT_SPEC_VERSION}\``);
  });

  it('has the endpoints its tables list, and marks deprecated those they mark', () => {
    const rows = sections.filter((s) => s.path.startsWith('Endpoints > ') && /endpoints/.test(s.path)).flatMap((s) => tableRows(s.body));
    const listed = rows.map((cells) => `${cells[0]} ${cells[1]!.split(' ')[0]}`);
    expect([...next.endpoints.map(operation)].sort()).toEqual([...listed].sort());
    const marked = rows.filter((cells) => cells[1]!.includes('deprecated')).map((cells) => `${cells[0]} ${cells[1]!.split(' ')[0]}`);
    expect(next.endpoints.filter((e) => e.deprecated).map(operation).sort()).toEqual(marked.sort());
  });

  it('quotes only words the fictitious document holds', () => {
    const text = squash(nextDocument);
    for (const cite of citesOf(next)) {
      expect(sections.some((s) => s.path === cite.section), cite.section).toBe(true);
      // As spec/api.test.ts reads them (quotePieces: a quote may elide with "..." / "(...)").
      for (const piece of quotePieces(cite.quote)) expect(text, piece).toContain(squash(piece));
    }
    // The quotes the edits changed, and only the new document's words: not the old ones.
    expect(text).not.toContain('max length 5000');
    expect(text).not.toContain('The other four allowed values');
  });

  it('states the five exp_interval values and the limit its model holds', () => {
    const body = (name: string) => next.endpoints.find((e) => e.name === name)!.body!;
    const interval = body('changeSshExpirationInterval')[0]!.type;
    const command = body('runWpCliCommand')[0]!.type;
    expect(interval.kind === 'string' && interval.enum).toMatchObject({ size: 5 });
    const shown = interval.kind === 'string' ? interval.enum!.shown : [];
    expect(shown).toHaveLength(5);
    for (const value of shown) expect(nextDocument).toContain(`\`${value}\``);
    expect(command.kind === 'string' && nextDocument.includes(`maximum length ${command.maxLength} characters`)).toBe(true);
  });
});

describe('the diff from today to the next version', () => {
  it('ships its contract snapshot, what the generator writes for the fixture model (write-contract.ts rewrites it)', () => {
    expect(fixture('contract.json') === nextContractText(), 'diff/fixtures/next-version/contract.json is stale: npx tsx diff/fixtures/next-version/write-contract.ts').toBe(true);
  });

  it('the one command the guide gives diffs the two snapshots into the reviewed Markdown (sources aside)', async () => {
    const guide = readFileSync(new URL('../docs/spec-upgrades.md', import.meta.url), 'utf8');
    const command = /^npx hosted-site-contract (diff --from \S+ --to diff\/fixtures\/next-version\/contract\.json)$/m.exec(guide)?.[1];
    expect(command, 'the worked example\'s diff command in docs/spec-upgrades.md').toBeDefined();
    let out = '';
    const stdout = new Writable({ write: (chunk: Buffer, _e, done) => ((out += chunk.toString('utf8')), done()) });
    const cwd = process.cwd();
    process.chdir(fileURLToPath(new URL('..', import.meta.url)));
    try {
      expect(await runDiff(command!.split(' ').slice(1), { stdout, stderr: new Writable({ write: (_c, _e, done) => done() }) })).toBe(0);
    } finally {
      process.chdir(cwd);
    }
    const sourcesAside = (text: string) => text.replace(/^## Contract diff: .*$/m, '');
    expect(sourcesAside(out)).toBe(sourcesAside(fixture('expected-report.md')));
  });

  it('renders as the reviewed Markdown', () => {
    const [today, tomorrow] = [contractOf(api), contractOf(next)];
    const report = reportOf({ source: 'main', specVersion: today.specVersion }, { source: 'working tree', specVersion: tomorrow.specVersion }, diffContracts(today, tomorrow));
    expect(renderMarkdown(report)).toBe(fixture('expected-report.md'));
  });
});

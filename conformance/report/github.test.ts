/**
 * `--reporter github`: workflow commands read back the way GitHub's runner reads them (a command
 * per line, `::name key=value,…::message`, the escapes undone in the runner's order) say what the
 * report says, one per distinct failure up to what GitHub shows, whatever a target put in the
 * values; the job summary keeps every value inside its cell and its code; the README's CI example
 * runs real flags; and a run in a workflow step appends its summary to GITHUB_STEP_SUMMARY, or,
 * unset, writes none and says nothing of it. Expected texts are written here by hand.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { seedCompanies } from '../../mock/fixtures.ts';
import { runConform } from '../cli.ts';
import { parseConformArgs } from '../options.ts';
import type { Failure, Report } from '../types.ts';
import { ANNOTATIONS_SHOWN, escapeData, escapeProperty, renderGithub } from './github.ts';
import { markdownText, renderJobSummary } from './job-summary.ts';
import { failureOf, reportOf } from './test-kit.ts';

interface Command {
  readonly name: string;
  readonly properties: Readonly<Record<string, string>>;
  readonly message: string;
}

/** The runner's unescaping (actions/runner ActionCommand): `%25` last, so an escaped `%0A` stays text. */
const unescape = (text: string, property: boolean) =>
  (property ? text.replace(/%3A/g, ':').replace(/%2C/g, ',') : text).replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');

/** Every line of `output` as the runner reads a workflow command; a line that is none fails the test. */
function commands(output: string): Command[] {
  expect(output === '' || output.endsWith('\n')).toBe(true);
  return output
    .split('\n')
    .slice(0, -1)
    .map((line) => {
      const m = /^::([a-z-]+)(?: ([^:]*))?::(.*)$/.exec(line);
      expect(m, line).not.toBeNull();
      const properties = Object.fromEntries(
        (m![2] ?? '')
          .split(',')
          .filter(Boolean)
          .map((p) => [p.slice(0, p.indexOf('=')), unescape(p.slice(p.indexOf('=') + 1), true)]),
      );
      return { name: m![1]!, properties, message: unescape(m![3]!, false) };
    });
}

/** With an answer, as a run's failures carry one. */
const failure = (n: number, more: Partial<Failure> = {}): Failure => failureOf(n, { response: { status: 500, headers: {}, text: '{}', ms: 3 }, ...more });
const report = reportOf;

describe('escaping, as GitHub documents it', () => {
  it.each([
    ['data: %, CR and LF', escapeData('50% done\r\nnext: a, b'), '50%25 done%0D%0Anext: a, b'],
    ['a property: `:` and `,` as well', escapeProperty('50% done\r\nnext: a, b'), '50%25 done%0D%0Anext%3A a%2C b'],
    ['an escape written out stays text', escapeData('%0A'), '%250A'],
  ])('%s', (_, got, want) => expect(got).toBe(want));
});

describe('annotations', () => {
  it('one ::error per distinct failure, titled with its rules and operation, saying why, where, the answer, the seed and the curl line', () => {
    const twice = failure(2, { rules: ['ERR-BODY', 'STATUS-SET'], message: 'first reason\nsecond reason', occurrences: 3, operation: 'GET /sites/{site_id}' });
    const parsed = commands(renderGithub(report([failure(1), twice])));
    expect(parsed.map((c) => [c.name, c.properties])).toEqual([
      ['error', { title: 'ERR-BODY on GET /validate' }],
      ['error', { title: 'ERR-BODY + STATUS-SET on GET /sites/{site_id}' }],
    ]);
    expect(parsed[0]!.message).toBe(["failure 1", 'why', 'probe: probe', 'request: GET http://h/v2/validate', 'response: 500 in 3 ms', 'seed: 7', "curl: curl -sS http://h/v2/validate -H 'x: 1'"].join('\n'));
    expect(parsed[1]!.message.split('\n').slice(0, 5)).toEqual(['failure 2', expect.stringMatching(/^rules: ERR-BODY, STATUS-SET \(/), 'first reason', 'second reason', 'probe: probe; seen 3 times, the same symptom']);
  });

  it('warnings as ::warning; a conforming run without warnings writes nothing', () => {
    const warned = report([], { warnings: [failure(1, { severity: 'warning', title: 'odd id' })], summary: { ...report([]).summary, warnings: 1 } });
    expect(commands(renderGithub(warned)).map((c) => [c.name, c.properties.title, c.message.split('\n')[0]])).toEqual([['warning', 'ERR-BODY on GET /validate', 'odd id']]);
    expect(renderGithub(report([]))).toBe('');
  });

  it('whatever a value holds, each annotation is one command, read back as written (control characters shown escaped)', () => {
    const hostile = 'a%0A b%25 c: d, e\r\n::set-output name=x::y\n::add-mask::z \u001b[31mred';
    const parsed = commands(renderGithub(report([failure(1, { title: hostile, operation: `GET /x, y: ${hostile}` })])));
    expect(parsed).toHaveLength(1);
    expect(parsed[0]!.properties.title).toBe('ERR-BODY on GET /x, y: a%0A b%25 c: d, e\\u000d\\n::set-output name=x::y\\n::add-mask::z \\u001b[31mred');
    expect(parsed[0]!.message.split('\n')[0]).toBe('a%0A b%25 c: d, e\\u000d\\n::set-output name=x::y\\n::add-mask::z \\u001b[31mred');
  });

  it(`at most ${ANNOTATIONS_SHOWN} of a kind (GitHub drops the rest): the last counts the others, those not listed too`, () => {
    const listed = Array.from({ length: 13 }, (_, i) => failure(i + 1));
    const many = report(listed, { summary: { ...report(listed).summary, distinctFailures: 15 } });
    const parsed = commands(renderGithub(many));
    expect(parsed).toHaveLength(10);
    expect(parsed.slice(0, 9).map((c) => c.message.split('\n')[0])).toEqual(['failure 1', 'failure 2', 'failure 3', 'failure 4', 'failure 5', 'failure 6', 'failure 7', 'failure 8', 'failure 9']);
    expect(parsed[9]).toMatchObject({ name: 'error', properties: { title: '6 more distinct failures' } });
    expect(parsed[9]!.message).toMatch(/job summary/);
    // Exactly as many as GitHub shows: all of them, no count.
    expect(commands(renderGithub(report(listed.slice(0, 10)))).map((c) => c.message.split('\n')[0])).toEqual(listed.slice(0, 10).map((f) => f.title));
  });

  it(`known findings as notices, at most ${ANNOTATIONS_SHOWN} with the baseline's fixed entries, the last counting the rest`, () => {
    const known = Array.from({ length: 12 }, (_, i) => failure(i + 1, { known: 'accepted' }));
    const parsed = commands(renderGithub(report(known, { ok: true, baseline: { file: 'b.json', known: 12, new: 0, gone: ['AUTH-401 GET /validate → status 200'], notJudged: [] } })));
    const notices = parsed.filter((c) => c.name === 'notice');
    expect(parsed.filter((c) => c.name === 'error')).toEqual([]);
    expect(notices).toHaveLength(ANNOTATIONS_SHOWN);
    expect(notices.slice(0, 8).map((c) => c.properties.title)).toEqual(known.slice(0, 8).map((f) => `known (baseline): ${f.rules.join(' + ')} on ${f.operation}`));
    expect(notices[8]!.properties.title).toBe('4 more known findings');
    expect(notices[9]!.properties.title).toBe('baseline: 1 entry no longer occurs');
  });

  it('--fail-on-skip: a run failed by its skips alone gets the coverage gate as an ::error', () => {
    const gated = report([], {
      ok: false,
      options: { failOnSkip: true },
      summary: { ...report([]).summary, skipped: 3 },
      coverage: { checked: 1, total: 4, skipped: [{ reason: 'needs --allow-destructive', count: 3 }], rules: {} },
    });
    expect(commands(renderGithub(gated))).toEqual([
      { name: 'error', properties: { title: 'coverage gate (--fail-on-skip)' }, message: '3 of 4 checks skipped (--fail-on-skip):\n- needs --allow-destructive (3)' },
    ]);
  });
});

describe('the job summary', () => {
  it.each([
    ['a pipe, which would end a cell', 'a|b', 'a\\|b'],
    ['HTML', '<img src=x onerror=alert(1)>', '\\<img src=x onerror=alert(1)\\>'],
    ['a link', '[click](http://evil.example)', '\\[click\\](http://evil.example)'],
    ['a mention, an issue and an image', '@octocat #1 ![x]', '\\@octocat \\#1 \\!\\[x\\]'],
    ['emphasis, code and strike-through', '*a* _b_ `c` ~d~', '\\*a\\* \\_b\\_ \\`c\\` \\~d\\~'],
    ['math and entities', '$x$ &amp;', '\\$x\\$ \\&amp;'],
    ['a backslash, and a line break (one line)', 'a\\b\nc', 'a\\\\b\\\\nc'],
  ])('escapes %s', (_, given, want) => expect(markdownText(given)).toBe(want));

  it('keeps each failure in its row and each curl line in its block, whatever they hold', () => {
    const hostile = failure(1, { title: 'a | b ``` c\n| x | y |', curl: "curl 'x' -d '````'" });
    const text = renderJobSummary(report([hostile, failure(2)]));
    const rows = text.split('\n').filter((line) => line.startsWith('| ERR-BODY'));
    expect(rows).toHaveLength(2);
    // Five cell borders a row: unescaped pipes only.
    for (const row of rows) expect(row.replace(/\\\\/g, '').match(/(?<!\\)\|/g)).toHaveLength(5);
    expect(text).toContain("\n`````sh\ncurl 'x' -d '````'\n`````\n");
  });

  it('opens with the verdict line and ends with what made the report', () => {
    const lines = renderJobSummary(report([failure(1)])).trimEnd().split('\n');
    expect(lines[2]).toMatch(/^✗ does not conform: 1 distinct failure/);
    expect(lines.at(-1)).toMatch(/^<sub>hosted-site-contract \d+\.\d+\.\d+/);
  });
});

describe('a run in a workflow step (in this process, against the embedded mock)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hsc-github-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function conform(args: readonly string[], env: NodeJS.ProcessEnv) {
    const out = { stdout: '', stderr: '' };
    const sink = (k: keyof typeof out) => new Writable({ write: (chunk: Buffer, _e, done) => ((out[k] += chunk.toString('utf8')), done()) });
    const code = await runConform(args, { stdout: sink('stdout'), stderr: sink('stderr'), env });
    return { code, ...out };
  }
  const failing = ['--mock-variant', 'error-status-mismatch', '--only', 'ERR-BODY', '--runs', '2', '--reporter', 'github'];

  it('annotates on stdout and appends the job summary to GITHUB_STEP_SUMMARY, keeping what was there; no key of the mock anywhere', async () => {
    const summary = join(dir, 'step-summary.md');
    await writeFile(summary, '## an earlier step\n| a | b |');
    const run = await conform([...failing, '--reporter', 'json', '--output', join(dir, 'report.json')], { GITHUB_STEP_SUMMARY: summary });
    expect(run.code).toBe(1);
    const json = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as Report;
    const annotations = commands(run.stdout);
    expect(annotations.map((c) => c.name)).toEqual(json.failures.map(() => 'error'));
    expect(annotations.length).toBeGreaterThan(0);
    const written = await readFile(summary, 'utf8');
    expect(written.startsWith('## an earlier step\n| a | b |\n\n### ')).toBe(true);
    for (const f of json.failures) expect(written).toContain(markdownText(f.title));
    expect(run.stderr.trimEnd().split('\n').at(-1)).toMatch(/^✗ does not conform/);
    for (const { apiKey } of seedCompanies()) {
      for (const form of [apiKey, apiKey.slice(0, 12)]) expect(run.stdout + written).not.toContain(form);
    }
  });

  it('without GITHUB_STEP_SUMMARY: the annotations, no summary and no word of one', async () => {
    const run = await conform(failing, {});
    expect(run.code).toBe(1);
    expect(commands(run.stdout).length).toBeGreaterThan(0);
    expect(run.stderr).not.toMatch(/summary|GITHUB_STEP_SUMMARY/);
  });

  it('a GITHUB_STEP_SUMMARY that cannot be written is a usage error, before the run', async () => {
    await expect(conform(failing, { GITHUB_STEP_SUMMARY: dir })).rejects.toThrow(/GITHUB_STEP_SUMMARY: .* is a directory, not a file/);
  });
});

describe('where --reporter github writes', () => {
  const where = (...args: string[]) => parseConformArgs(args, {}).destinations.map((d) => [d.reporter, typeof d.to === 'object' ? 'file' : d.to]);
  it.each([
    ['alone: stdout, where GitHub reads commands', ['--reporter', 'github'], [['github', 'stdout']]],
    ['with the console: the console to stderr', ['--reporter', 'console', '--reporter', 'github'], [['console', 'stderr'], ['github', 'stdout']]],
    ['with junit and --output: junit to the file, github on stdout', ['--reporter', 'github', '--reporter', 'junit', '--output', join(tmpdir(), 'hsc-never-written.xml')], [['github', 'stdout'], ['junit', 'file']]],
    ['alone with --output: the file', ['--reporter', 'github', '--output', join(tmpdir(), 'hsc-never-written.txt')], [['github', 'file']]],
  ])('%s', (_, args, want) => expect(where(...args)).toEqual(want));

  it('with json and no --output: refused, one report at most on stdout', () => {
    expect(() => where('--reporter', 'github', '--reporter', 'json')).toThrow(/--reporter github and --reporter json together need --output FILE/);
  });
});

describe("the live-API guide's CI example (docs/live-api.md)", () => {
  const guide = readFileSync(fileURLToPath(new URL('../../docs/live-api.md', import.meta.url)), 'utf8');
  const at = guide.indexOf('\n## In GitHub Actions\n');
  const next = guide.indexOf('\n## ', at + 1);
  const section = guide.slice(at, next < 0 ? undefined : next);
  const blocks = [...section.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);

  /** What the workflow's variables stand for: a base URL and a site id of the right shape. */
  const STAND_INS: Readonly<Record<string, string>> = { BASE_URL: 'https://api.example.com/v2', SITE_ID: '11111111-1111-4111-8111-111111111111' };

  it('is one workflow whose conform step runs real flags, --reporter github among them, the key from a secret', () => {
    expect(blocks).toHaveLength(1);
    const workflow = parse(blocks[0]!) as { jobs: Record<string, { steps: { run?: string; env?: Record<string, string> }[] }> };
    const conform = Object.values(workflow.jobs).flatMap((job) => job.steps.filter((s) => /hosted-site-contract conform/.test(s.run ?? '')));
    expect(conform).toHaveLength(1);
    const step = conform[0]!;
    expect(step.env?.HSC_API_KEY).toMatch(/^\$\{\{ secrets\.\w+ \}\}$/);
    const words = step.run!.replace(/\\\n/g, ' ').trim().split(/\s+/);
    const args = words
      .slice(words.indexOf('conform') + 1)
      .map((w) => w.replace(/^"(.*)"$/, '$1'))
      .map((w, i, all) => {
        const variable = /^\$(\w+)$/.exec(w)?.[1];
        if (variable) {
          expect(STAND_INS[variable], `a stand-in for $${variable}`).toBeDefined();
          return STAND_INS[variable]!;
        }
        return all[i - 1] === '--output' ? join(tmpdir(), `hsc-readme-${w}`) : w;
      });
    const options = parseConformArgs(args, { HSC_API_KEY: 'key-from-a-secret-0123' });
    expect(options.destinations.find((d) => d.reporter === 'github')?.to).toBe('stdout');
    expect(options.destinations.find((d) => d.reporter === 'console')?.to).toBe('stderr');
  });
});

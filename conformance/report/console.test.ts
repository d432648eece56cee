/**
 * The console report stays readable: alike failures and huge curl lines are cut, never silently;
 * the notes every run repeats are one line per kind unless --verbose; the verdict ends it.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConform } from '../cli.ts';
import { coverageOf, pairKey } from '../coverage.ts';
import type { CheckSummary, Failure, Report } from '../types.ts';
import type { Progress } from '../runner.ts';
import { api } from '../../spec/api.ts';
import { finalLine, renderConsole } from './console.ts';
import { createProgress } from './progress.ts';
import { failureOf, reportOf } from './test-kit.ts';

const failure = (n: number, curl?: string): Failure => failureOf(n, curl === undefined ? {} : { curl });
const report = (failures: Failure[]): Report => reportOf(failures);

describe('renderConsole', () => {
  it('shows failures of different titles in full, three per (rules, operation), and the others one line each', () => {
    const text = renderConsole(report([1, 2, 3, 4, 5].map((n) => failure(n))));
    expect(text.match(/^ {4}curl: /gm)).toHaveLength(3);
    expect(text).toContain('  ✗ failure 3\n    probe:');
    expect(text).toContain('  ✗ failure 4 (1, each in full in --reporter json): probe\n');
    expect(text).toContain('  ✗ failure 5 (1, each in full in --reporter json): probe\n');
  });

  it('shows every failure in full when there are three or fewer, without a count', () => {
    const text = renderConsole(report([failure(1), failure(2)]));
    expect(text.match(/^ {4}curl: /gm)).toHaveLength(2);
    expect(text).not.toContain('more like it');
  });

  it('shows alike failures (same rules, operation and title) once in full, the others as one line naming their probes', () => {
    const alike = Array.from({ length: 9 }, (_, i): Failure => ({ ...failure(0), title: 'answered 500, expected 202', probe: `valid request ${i + 1} of 9` }));
    const text = renderConsole(report(alike));
    expect(text.match(/^ {4}curl: /gm)).toHaveLength(1);
    expect(text).toContain('    probe:    valid request 1 of 9\n');
    expect(text).toContain('    … and 8 more like it (each in full in --reporter json): valid request 2 of 9; valid request 3 of 9; valid request 4 of 9; valid request 5 of 9; valid request 6 of 9; and 3 more\n');
  });

  it('shows a failure alike one of another operation as one line pointing to it', () => {
    const on = (operation: string, probe: string): Failure => ({ ...failure(0), rule: 'AUTH-401', rules: ['AUTH-401'], operation, title: '401 message names no key', probe });
    const ops = ['GET /validate', 'GET /sites/{site_id}', 'GET /company/{id}/users'];
    const text = renderConsole(report(ops.flatMap((op) => [on(op, 'no Authorization header'), on(op, 'an invalid API key')])));
    expect(text.match(/^ {4}curl: /gm)).toHaveLength(1);
    for (const op of ops.slice(1)) {
      expect(text).toContain(`AUTH-401  ${op}  (2)\n  ✗ 401 message names no key (2, like the one in full under GET /validate above): no Authorization header; an invalid API key\n`);
    }
  });

  it('accounts for every listed failure, in full or on a line, and stays short', () => {
    const failureArb = fc.record({
      rules: fc.constantFrom<Failure['rules']>(['ERR-BODY'], ['AUTH-401'], ['ERR-BODY', 'STATUS-SET']),
      operation: fc.constantFrom('GET /validate', 'GET /sites/{site_id}', 'POST /sites/tools/search-and-replace'),
      title: fc.constantFrom('answered 500', 'odd body', '401 names no key'),
      probe: fc.string({ minLength: 1, maxLength: 20 }),
    });
    fc.assert(
      fc.property(fc.array(failureArb, { maxLength: 60 }), (drawn) => {
        const list = drawn.map((d): Failure => ({ ...failure(0), ...d, rule: d.rules[0]! }));
        const text = renderConsole(report(list));
        const lines = text.split('\n');
        const full = lines.filter((l) => l.startsWith('    curl: ')).length;
        const more = lines.reduce((n, l) => n + Number(/^ {4}… and (\d+) more like it/.exec(l)?.[1] ?? 0), 0);
        const alike = lines.reduce((n, l) => n + Number(/^ {2}✗ .* \((\d+), (?:like the one|each in full)/.exec(l)?.[1] ?? 0), 0);
        expect(full + more + alike).toBe(list.length);
        // Each kind of failure (rules and title) in full at most once.
        expect(full).toBeLessThanOrEqual(new Set(list.map((f) => `${f.rules.join('+')} ${f.title}`)).size);
        const headers = [...text.matchAll(/^\S.*  \((\d+)\)$/gm)].reduce((n, m) => n + Number(m[1]), 0);
        expect(headers).toBe(list.length);
      }),
    );
  });

  it('replaces a curl line too long for a terminal by a pointer to the JSON report', () => {
    const long = `curl -sS http://h/v2/x --data-raw '${'a'.repeat(5000)}'`;
    const text = renderConsole(report([failure(1, long)]));
    expect(text).not.toContain('a'.repeat(2000));
    expect(text).toContain(`(${long.length} characters: see failures[].curl of --reporter json)`);
    expect(renderConsole(report([failure(1)]))).toContain('curl:     curl -sS http://h/v2/validate');
  });
});

/** A report of rows only: `skipped` reasons per row, the rest passed; coverage derived as the runner derives it. */
const rowsReport = (reasons: readonly string[], passed: number, extra: Partial<Report> = {}): Report => {
  const checks: CheckSummary[] = [
    ...Array.from({ length: passed }, (_, i): CheckSummary => ({ rule: 'AUTH-401', operation: `GET /p${i}`, outcome: 'passed', exchanges: 1 })),
    ...reasons.map((reason, i): CheckSummary => ({ rule: 'ACK-202', operation: `POST /a${i}`, outcome: 'skipped', exchanges: 0, reason })),
  ];
  return {
    ...report([]),
    ok: true,
    summary: { passed, failed: 0, skipped: reasons.length, warnings: 0, distinctFailures: 0, ruleViolations: 0, failingExchanges: 0 },
    checks,
    coverage: coverageOf(checks, new Map()),
    ...extra,
  };
};

describe('the closing line', () => {
  const skips = [...Array<string>(48).fill('needs --allow-destructive'), ...Array.from({ length: 7 }, (_, i) => `no answer this rule judges among the ${i + 2} exchanges of this operation`)];

  it('states nothing more than the totals when every check ran', () => {
    expect(finalLine(rowsReport([], 293))).toMatch(/^✓ conforms on 293 of 293 checks \(100%\): 293 passed, 0 failed, 0 skipped, 0 warnings — /);
  });

  it('under --only, says which rules it judged of the document’s, even when nothing was skipped', () => {
    const narrowed = rowsReport([], 27, { options: { only: ['AUTH-401'] } });
    expect(finalLine(narrowed)).toMatch(new RegExp(`^✓ conforms on 27 of 27 checks \\(100%\\): 27 passed, 0 failed, 0 skipped, 0 warnings — only 1 of ${api.rules.length} rules judged \\(--only AUTH-401\\) — `));
  });

  it('says one of a thing in the singular, wherever it counts', () => {
    const one = rowsReport(['needs --allow-destructive'], 0, { ok: false, options: { failOnSkip: true } });
    const withWarning = { ...one, summary: { ...one.summary, warnings: 1 } };
    expect(finalLine(withWarning)).toMatch(/^✗ does not conform: 1 of 1 check skipped \(--fail-on-skip\) — 0 passed, 0 failed, 1 warning; skipped: /);
    const failing = { ...withWarning, summary: { ...withWarning.summary, distinctFailures: 1, ruleViolations: 1, failingExchanges: 1 } };
    expect(finalLine(failing)).toMatch(/^✗ does not conform: 1 distinct failure \(1 rule violation\), from 1 failing exchange, on 0 of 1 check, and 1 check skipped \(--fail-on-skip\) — /);
    expect(renderConsole(failing)).toContain('SKIPPED: 1 of 1 row, by reason');
    expect(finalLine(rowsReport(['needs --allow-destructive'], 1))).toMatch(/^✓ conforms on 1 of 2 checks \(50%\) — 1 skipped: needs --allow-destructive \(1\); 0 warnings — /);
  });

  it('states on how many checks a pass rests, and why the others were skipped, grouped', () => {
    expect(finalLine(rowsReport(skips, 238))).toMatch(
      /^✓ conforms on 238 of 293 checks \(81%\) — 55 skipped: needs --allow-destructive \(48\), no answer this rule judges among the N exchanges of this operation \(7\); 0 warnings — /,
    );
  });

  it('--fail-on-skip: says the skips failed the run', () => {
    const gated = rowsReport(skips, 238, { ok: false, options: { failOnSkip: true } });
    expect(finalLine(gated)).toMatch(/^✗ does not conform: 55 of 293 checks skipped \(--fail-on-skip\) — 238 passed, 0 failed, 0 warnings; skipped: needs --allow-destructive \(48\), /);
  });

  it('a failing run counts distinct failures, the rule violations they carry and the failing exchanges they cover, and its coverage when rows were skipped', () => {
    const failing = (skipped: string[]) => {
      const base = rowsReport(skipped, 10);
      return { ...base, ok: false, summary: { ...base.summary, passed: 8, failed: 2, distinctFailures: 1, ruleViolations: 2, failingExchanges: 30 } };
    };
    expect(finalLine(failing([]))).toMatch(/^✗ does not conform: 1 distinct failure \(2 rule violations\), from 30 failing exchanges — 8 passed, 2 failed, 0 skipped, 0 warnings — /);
    expect(finalLine(failing(['needs --allow-destructive']))).toMatch(
      /^✗ does not conform: 1 distinct failure \(2 rule violations\), from 30 failing exchanges, on 10 of 11 checks — 8 passed, 2 failed, 0 warnings; 1 skipped: needs --allow-destructive \(1\) — /,
    );
  });

  it('the SKIPPED section counts rows per reason group and names a few', () => {
    const text = renderConsole(rowsReport(skips, 238));
    expect(text).toContain('SKIPPED: 55 of 293 rows, by reason');
    expect(text).toContain('  - needs --allow-destructive (48): ACK-202 POST /a0, ACK-202 POST /a1, ACK-202 POST /a2, ACK-202 POST /a3, ACK-202 POST /a4, ACK-202 POST /a5, and 42 more');
    expect(text).toContain('  - no answer this rule judges among the N exchanges of this operation (7): ACK-202 POST /a48, ');
  });
});

describe('rows judged in part', () => {
  it('are counted per reason group and a few named, as skipped rows are; none, no section', () => {
    const base = rowsReport([], 5);
    expect(renderConsole(base)).not.toContain('JUDGED IN PART');
    // Rows GET /p0..p3 passed with some probes not sent: three for want of a company user, one for --allow-destructive.
    const reasons = new Map([
      ...[0, 1, 2].map((i): [string, string[]] => [pairKey('AUTH-401', `GET /p${i}`), [`no company user was discovered, so ${i + 1} probes were not sent`]]),
      [pairKey('AUTH-401', 'GET /p3'), ['its valid boundary cases need --allow-destructive']],
    ]);
    const text = renderConsole({ ...base, coverage: coverageOf(base.checks, reasons) });
    expect(text).toContain('JUDGED IN PART: 4 of 5 rows (some of their probes not sent), by reason');
    expect(text).toContain('  - no company user was discovered, so N probes were not sent (3): AUTH-401 GET /p0, AUTH-401 GET /p1, AUTH-401 GET /p2\n');
    expect(text).toContain('  - its valid boundary cases need --allow-destructive (1): AUTH-401 GET /p3\n');
    // The closing line's ✓ says how many it judged only in part.
    expect(finalLine({ ...base, coverage: coverageOf(base.checks, reasons) })).toMatch(/^✓ conforms on 5 of 5 checks \(100%\): 5 passed, 4 judged in part, 0 failed, 0 skipped, /);
    expect(finalLine(base)).not.toContain('judged in part');
  });
});

describe('a failure that broke several rules', () => {
  it('is shown once, under the rules it broke together, naming them all', () => {
    const merged: Failure = { ...failure(1), rules: ['ERR-BODY', 'STATUS-SET'], message: 'ERR-BODY: odd. x\nSTATUS-SET: odd status. y' };
    const text = renderConsole({ ...report([merged]), summary: { passed: 0, failed: 2, skipped: 0, warnings: 0, distinctFailures: 1, ruleViolations: 2, failingExchanges: 1 } });
    expect(text).toContain('FAILURES: 1 distinct failure (2 rule violations), from 1 failing exchange\n');
    expect(text).toContain('ERR-BODY + STATUS-SET  GET /validate  (1)');
    expect(text).toContain('    rules:    ERR-BODY, STATUS-SET (one exchange, 2 rules broken)');
    expect(text).toContain('    why:      ERR-BODY: odd. x\n              STATUS-SET: odd status. y\n');
    expect(text.match(/failure 1/g)).toHaveLength(1);
  });
});

describe('a failure that occurred more than once', () => {
  it('says how often, and names the probes of the next occurrences, with their titles where they differ', () => {
    const request = { method: 'GET', url: 'http://h/v2/validate', headers: {} };
    const many: Failure = {
      ...failure(1),
      occurrences: 40,
      examples: [
        { probe: 'second probe', title: 'failure 1', request },
        { probe: 'third probe', title: 'another title', request },
      ],
    };
    const text = renderConsole({ ...report([many]), summary: { passed: 0, failed: 1, skipped: 0, warnings: 0, distinctFailures: 1, ruleViolations: 1, failingExchanges: 40 } });
    expect(text).toContain('FAILURES: 1 distinct failure (1 rule violation), from 40 failing exchanges\n');
    expect(text).toContain('    seen:     40 times, the same symptom; also in: second probe; third probe (another title); and 37 more\n');
    // Shown once in full: the occurrences are not echoes.
    expect(text.match(/^ {4}curl: /gm)).toHaveLength(1);
    // Occurrences of one label are named once, with how many they are.
    const repeated: Failure = { ...many, occurrences: 4, examples: [0, 1, 2].map(() => ({ probe: 'unknown site_id (a random UUID)', title: 'failure 1', request })) };
    expect(renderConsole(report([repeated]))).toContain('    seen:     4 times, the same symptom; also in: unknown site_id (a random UUID) ×3\n');
    expect(renderConsole(report([failure(2)]))).not.toContain('seen:');
  });
});

describe('progress', () => {
  const lines = (updates: readonly Progress[]) => {
    const written: string[] = [];
    const progress = createProgress({ write: (t: string) => written.push(t) }, 60_000);
    for (const p of updates) progress.update(p);
    return written.join('');
  };
  const at = (phase: Progress['phase'], done: number, total: number, extra: Partial<Progress> = {}): Progress => ({ phase, done, total, requests: 1000 + done, failures: 1, ...extra });

  it('prints the final figure of shrinking, though it ended before its budget', () => {
    const text = lines([at('shrinking', 0, 400), at('shrinking', 1, 400), at('shrinking', 232, 400), at('shrinking', 232, 400, { ended: true })]);
    expect(text).toBe('shrinking failures: 0 extra requests of at most 400, 1000 requests\nshrinking failures: done, 232 extra requests of a budget of 400, 1232 requests\n');
  });

  it('says the rate of the last seconds, the 429s met, and when the probes will be done at that pace', () => {
    let now = 0;
    const written: string[] = [];
    const progress = createProgress({ write: (t: string) => written.push(t) }, 5_000, () => now);
    // 2 probes a second, each one request, 3 answers of 429 so far: 100 probes left take 50 s.
    for (let done = 0; done <= 20; done++) {
      progress.update(at('probes', done, 120, { requests: done, throttled: 3 }));
      now += 500;
    }
    expect(written.at(-1)).toBe('probes 20/120, 20 requests, 1 distinct failure, 2.0/s, 3 throttled, ETA 50s\n');
  });

  it('counts distinct failures, in the singular when there is one', () => {
    expect(lines([at('probes', 0, 10, { failures: 0 }), at('probes', 10, 10)])).toBe('probes 0/10, 1000 requests, 0 distinct failures\nprobes 10/10, 1010 requests, 1 distinct failure\n');
  });
});

describe('a real run against the embedded mock: the notes every run repeats, and the verdict last', () => {
  let dir: string;
  /** `conform ARGS` in this process: the console report (stdout) and the JSON report of the same run. */
  async function conform(...args: string[]): Promise<{ code: number; text: string; report: Report }> {
    let text = '';
    const stdout = new Writable({ write: (chunk: Buffer, _e, done) => ((text += chunk.toString('utf8')), done()) });
    const stderr = new Writable({ write: (_c, _e, done) => done() });
    const file = join(dir, `${args.join('_').replace(/\W/g, '')}.json`);
    const code = await runConform([...args, '--runs', '5', '--reporter', 'console', '--reporter', 'json', '--output', file], { stdout, stderr, env: {} });
    return { code, text, report: JSON.parse(await readFile(file, 'utf8')) as Report };
  }
  const notesOf = (text: string) => {
    const lines = text.split('\n');
    const from = lines.findIndex((l) => l.startsWith('NOTES')) + 1;
    return lines.slice(from, lines.indexOf('', from));
  };
  const opensWith = (note: string, id: string) => note.startsWith(`${id} `) || note.startsWith(`${id}:`);
  /** The model's assumptions or conflicts the JSON report states a note of, by the id the note opens with. */
  const stated = (report: Report, ids: readonly string[]) => ids.filter((id) => report.notes.some((n) => opensWith(n, id)));

  let short: Awaited<ReturnType<typeof conform>>;
  let verbose: Awaited<ReturnType<typeof conform>>;
  let failing: Awaited<ReturnType<typeof conform>>;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hsc-console-'));
    // One after another: other test files run beside this one.
    short = await conform();
    verbose = await conform('--verbose');
    failing = await conform('--mock-variant', 'error-status-mismatch', '--only', 'ERR-BODY');
  }, 60_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('by default, the assumptions and the conflicts met are one line each, naming every one; the other notes stay as they are', () => {
    const assumed = stated(short.report, api.assumptions.map((a) => a.id));
    const conflicts = stated(short.report, api.conflicts.map((c) => c.id));
    expect(assumed.length).toBeGreaterThan(1);
    expect(conflicts.length).toBeGreaterThan(1);
    const notes = notesOf(short.text);
    expect(notes).toHaveLength(short.report.notes.length - assumed.length - conflicts.length + 2);
    // Each on one line: whole, or a head of it and how many characters were left out.
    const shows = (line: string | undefined, full: string) => {
      const cut = /^ {2}- (.*) \[\+(\d+)\]$/.exec(line ?? '');
      if (!cut) return expect(line).toBe(`  - ${full}`);
      expect(full.startsWith(cut[1]!) && cut[1]!.length + Number(cut[2]) === full.length, `${line} shows a head of: ${full}`).toBe(true);
      expect(line!.length).toBeLessThanOrEqual(120);
    };
    const assumedLine = notes.filter((n) => n.startsWith('  - assumed ('));
    expect(assumedLine).toHaveLength(1);
    shows(assumedLine[0], `assumed (${assumed.length}; --verbose says what each assumes): ${assumed.join(', ')}`);
    const conflictLine = notes.filter((n) => n.startsWith('  - conflicts met ('));
    expect(conflictLine).toHaveLength(1);
    shows(conflictLine[0], `conflicts met (${conflicts.length}; either side accepted; --verbose quotes the letter and the reading): ${conflicts.join(', ')}`);
    const others = short.report.notes.filter((n) => ![...assumed, ...conflicts].some((id) => opensWith(n, id)));
    const rest = notes.filter((n) => n !== assumedLine[0] && n !== conflictLine[0]);
    expect(rest).toHaveLength(others.length);
    others.forEach((note, i) => shows(rest[i], note));
  });

  it('--verbose: every note in full, as the JSON report has it', () => {
    expect(notesOf(verbose.text)).toEqual(verbose.report.notes.map((n) => `  - ${n}`));
    expect(verbose.report.options.strict).toBe(false);
  });

  it('a passing default run reads in at most 25 lines: the table one line (--verbose shows it), each note one; a failing run keeps the table', () => {
    const lines = short.text.trimEnd().split('\n');
    expect(lines.length, short.text).toBeLessThanOrEqual(25);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^SUMMARY: ${new Set(short.report.checks.map((c) => c.rule)).size} rules over ${short.report.checks.length} rows \\(rule × operation\\), none failed \\(--verbose shows the table\\)$`)));
    expect(verbose.text).toContain('SUMMARY (rows are rule × operation)');
    expect(failing.text).toContain('SUMMARY (rows are rule × operation)');
  });

  it('the verdict counts coverage as a figure, rounded down: 299 of 300 is not 100%', () => {
    expect(finalLine(rowsReport(['needs --allow-destructive'], 299))).toMatch(/^✓ conforms on 299 of 300 checks \(99%\) — /);
  });

  it('after the embedded mock, a person at a terminal is told what next, after the verdict; a log is not', async () => {
    const run = async (isTTY: boolean) => {
      let err = '';
      const stderr = Object.assign(new Writable({ write: (chunk: Buffer, _e, done) => ((err += chunk.toString('utf8')), done()) }), { isTTY });
      const stdout = new Writable({ write: (_c, _e, done) => done() });
      await runConform(['--runs', '1', '--only', 'BASE-PATH'], { stdout, stderr, env: {} });
      // The last line a terminal shows: progress redraws its line (`\r`, erase), so lines end at either break.
      return err
        .split(/[\r\n]/)
        .map((l) => l.replace(/\x1b\[[0-9;]*[A-Za-z]/g, ''))
        .filter((l) => l !== '')
        .at(-1)!;
    };
    expect(await run(true)).toMatch(/^next: your own API: export HSC_API_KEY, then npx --no-install hosted-site-contract conform --base-url https:\/\/api\.example\.com\/v2 --site-id SITE_UUID/);
    expect(await run(false)).not.toMatch(/^next:/);
  });

  it('ends with the verdict, conforming or not', () => {
    expect(short.code).toBe(0);
    expect(short.text.trimEnd().split('\n').at(-1)).toMatch(/^✓ conforms on \d+ of \d+ checks \(\d+%\): /);
    expect(failing.code).toBe(1);
    expect(failing.text.trimEnd().split('\n').at(-1)).toMatch(/^✗ does not conform: /);
  });
});

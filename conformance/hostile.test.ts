/**
 * The suite against hostile targets: the CLI, run as a user runs it, against the mock with one
 * misbehaviour (hostile/servers.ts). Under scope `all` discovery cannot work: exit 2, the cause
 * named on one line of stderr. Under `some` one endpoint misbehaves: exit 1, the cause named in
 * the JSON report. Always: within a hang guard, no crash, no signal, no exhausted heap, and no
 * form of a secret in any byte the run wrote. The forms are computed here, independently of the
 * project's sanitizer, so the test does not share its blind spots.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { describe, inject, it, vi } from 'vitest';
import { phpJsonEncode } from '../sanitize/echo-forms.ts';
import { runConformCli, type CliRun } from './hostile/cli-run.ts';
import { behaviours, CAP_CUT_KEPT, DECOY_PASSWORD, ECHO_FORMS, injectionMarker, ONE_SCOPE, SERVED_LAYOUTS, startHostile, UNREAD_FORMS, type Behaviour, type Scope } from './hostile/servers.ts';

/**
 * A row's run is killed at this bound, and that is a failure: a hang guard, many times what a run
 * takes, never the property tested (how soon a wait ends is the transport's, tested on its own
 * clock in http.test.ts; a busy machine may stretch any run, and that is no verdict).
 */
const ROW_BOUND_MS = 100_000;
/** Rows about time: judged against a short --timeout-ms, the one that proves their point. */
const TIME_ROWS: ReadonlySet<Behaviour> = new Set(['never-answers', 'headers-then-stall', 'byte-per-second', 'throttled-forever']);
/** Rows that break a state property's data: its failure waits out the state window (`--state-window-s`) to reproduce itself. */
const STATE_ROWS: ReadonlySet<Behaviour> = new Set(['quote-injection']);
/** The deadline of each request in rows not about time: patient, as a loaded machine (other files beside them) can stall a sound answer for seconds. */
const PATIENT_TIMEOUT_MS = 20_000;
// Two cores: two runs at once. More starve the children (and this process, which serves them)
// enough that a sound answer can miss the --timeout-ms deadline (cli-run.ts gives 2 s).
vi.setConfig({ maxConcurrency: 2 });

const timeout = /no complete answer within \d+ ms/;
const malformed = /malformed HTTP answer/;
const sizeCap = /cut at the size cap/;
const redirect = /redirect.*Location: http/;

/** One entry per behaviour of a group. */
const each = <K extends Behaviour, V>(keys: readonly K[], value: (key: K) => V): Record<K, V> => Object.fromEntries(keys.map((k) => [k, value(k)])) as Record<K, V>;

/** The cause each behaviour must be named by, in the wording the suite gives it; none for a conformant row. */
const causes: Readonly<Record<Behaviour, readonly RegExp[]>> = {
  'never-answers': [timeout],
  'headers-then-stall': [timeout],
  'byte-per-second': [timeout],
  reset: [/connection closed before a complete answer/],
  'garbage-http': [malformed],
  'duplicate-content-length': [malformed],
  'html-200': [/not JSON \(Content-Type text\/html/],
  'huge-body': [sizeCap],
  'gzip-bomb': [/content-encoded \(Content-Encoding: gzip\)/],
  'deep-json': [/nested more than \d+ levels/],
  'redirect-loop': [redirect],
  'redirect-other-host': [redirect],
  'throttled-forever': [/throttled/, /Retry-After/],
  'huge-password': [sizeCap],
  // The request's valid key served back in fields and headers: a security failure (NO-KEY-ECHO),
  // judged from the raw bytes; the report hides every form of it.
  'echo-secrets': [/NO-KEY-ECHO/],
  // Echoes in an error's message: the run prints them, and the sanitizer hides every one.
  'echo-in-errors': [/HTTP 500|NO-SERVER-ERROR/],
  // Eight passwords of 400 000 non-ASCII characters, extra fields the document allows: it passes, within the memory bound.
  'long-passwords': [],
  // More secret values than the sanitizer tracks: the run stops without a report. (On one path
  // the few successful answers stay under the bound: a conformant run that learns them all.)
  'password-flood': [/stopped: the target served more secret values/],
  // Record names that are no host names (RESPONSE-SCHEMA, and refused DNS updates): failures,
  // and not one printed curl line runs the command hidden in them.
  'quote-injection': [/RESPONSE-SCHEMA/],
  // The password endpoint's body is withheld (it serves a secret), whatever its layout: the
  // report says so, and the header that echoes the password shows the marker (learned by structure).
  ...each(SERVED_LAYOUTS, () => [/body withheld: this endpoint serves a secret/]),
  // Words of the report served as passwords: hidden where they stand as values, the reports
  // intact, and a note that they could not be searched for in free text.
  'word-passwords': [/sftp_password\\":\\"\[redacted\]/, /found in the suite's own text/],
  // A key of one character: hidden where the suite put it, and a note.
  'one-character-key': [/Bearer \[redacted HSC_API_KEY\]/, /the key HSC_API_KEY(, [^:]+)?: shorter than 8 characters/],
  ...each(ECHO_FORMS, (b) => (b === 'echo-cut-headers' ? [/Content-Type/] : [/HTTP 500|NO-SERVER-ERROR/])),
  // A password in a body held but not parsed, echoed in a header of the same answer or a 500 elsewhere: learned from the bytes.
  'unread-gzip': [/content-encoded \(Content-Encoding: gzip\)/],
  'unread-cap-cut': [sizeCap],
  'unread-broken-off': [/HTTP 500|NO-SERVER-ERROR/],
  'unread-zero-width': [/HTTP 500|NO-SERVER-ERROR/],
  // A body that cannot be read for secrets: the run stops rather than print what it cannot vouch for.
  'unread-unknown-coding': [/stopped: a body could not be read for secrets: its content coding \(compress\)/],
};

/** Rows whose run stops without a report: the suite can no longer vouch for what it would print. */
const stops: ReadonlySet<Behaviour> = new Set(['password-flood', 'unread-unknown-coding']);

/** Under `most` too where the load is heaviest: nearly every answer huge or deep, within the same bounds. */
const heavy: ReadonlySet<Behaviour> = new Set(['huge-body', 'deep-json', 'gzip-bomb', 'password-flood', 'long-passwords']);

/**
 * Rows whose run shows the same with one example per property: those built on secrets the suite
 * must find by itself, those about one answer's transport (named once it comes, however many
 * probes meet it), those about time (an operation's probes stop after MAX_TIMEOUTS_IN_A_ROW
 * timeouts however many there are, so the waits are the same), and those about load: a run of
 * one example per property still sends some 950 requests, 8 at once, each answer at its bound,
 * so the peak is the same and anything kept per answer would still pass the 256 MB heap.
 * Echoes in bulk keep the default run.
 */
const QUICK: ReadonlySet<Behaviour> = new Set([
  ...[...ONE_SCOPE].filter((b) => b !== 'quote-injection'),
  ...TIME_ROWS,
  ...heavy,
  'reset',
  'garbage-http',
  'duplicate-content-length',
  'html-200',
  'redirect-loop',
  'redirect-other-host',
  'throttled-forever',
  'huge-password',
]);

/** Rows whose one misbehaving path stays within what the suite copes with: they conform. */
const conformOnOnePath: ReadonlySet<Behaviour> = new Set(['password-flood']);
/** Rows whose misbehaving path judges nothing (throttling is never a verdict): they conform, the cause named in the report. */
const unjudgedOnOnePath: ReadonlySet<Behaviour> = new Set(['throttled-forever']);
/** Rows whose misbehaviour on every path leaves discovery working: a report, its failures (not exit 2). */
const discoveredAll: ReadonlySet<Behaviour> = new Set(['echo-secrets']);

interface Want {
  /** 2: discovery cannot work; 1: failures reported; 0: conforms. */
  readonly code: 0 | 1 | 2;
  /** Under `all` on one line of stderr, under `some` in the JSON report; all of them. */
  readonly cause: readonly RegExp[];
}

/**
 * Rows whose output must show the markers of what was hidden (under `all` the key's, in the one
 * line discovery prints; under `some` the key's and a password's, in the report): the echoes were
 * printed, so no leak found means the sanitizer hid them, not that nothing was shown.
 */
const printsEchoes: ReadonlySet<Behaviour> = new Set(['echo-in-errors', ...SERVED_LAYOUTS, ...ECHO_FORMS]);

const rows: readonly (readonly [string, { readonly behaviour: Behaviour; readonly scope: Scope; readonly want: Want }])[] = behaviours.flatMap((behaviour) =>
  (heavy.has(behaviour) ? (['all', 'some', 'most'] as const) : ONE_SCOPE.has(behaviour) ? (['some'] as const) : (['all', 'some'] as const)).map((scope: Scope) => {
    const cause = scope === 'some' && conformOnOnePath.has(behaviour) ? [] : causes[behaviour];
    const code = cause.length === 0 ? 0 : (scope === 'all' && !discoveredAll.has(behaviour)) || stops.has(behaviour) ? 2 : unjudgedOnOnePath.has(behaviour) ? 0 : 1;
    return [`${behaviour} (${scope})`, { behaviour, scope, want: { code, cause } }] as const;
  }),
);

/** PHP's json_encode of a string, without its quotes. */
const phpEscaped = (value: string) => phpJsonEncode(value).slice(1, -1);

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/**
 * Every form of a secret a careless tool might print, named, as the 12-character prefix of each:
 * an output that holds a whole form holds its prefix too, so the prefixes find every whole form
 * as well, and they are made from the secret's first characters alone (a 400 000-character
 * password's whole forms run to megabytes each).
 */
function secretForms(secret: string): { readonly name: string; readonly text: string }[] {
  // Enough of the secret for every form's first 12 characters (a form spells a character in at most 6, a base64 group 3 bytes in 4).
  const head = [...secret].slice(0, 64).join('');
  const base: [string, string][] = [
    ['raw', head],
    ['JSON-escaped', JSON.stringify(head).slice(1, -1)],
    ['PHP-escaped', phpEscaped(head)],
    ['URI-encoded', encodeURIComponent(head)],
    ['base64(value)', base64(head)],
    ['base64(value:)', base64(head === secret ? `${secret}:` : head)],
    ['base64(:value)', base64(`:${head}`)],
  ];
  const cased = base.flatMap(([name, text]) => [
    [name, text],
    [`${name}, upper-cased`, text.toUpperCase()],
    [`${name}, lower-cased`, text.toLowerCase()],
  ]);
  const forms = cased.map(([name, text]) => ({ name: `${name!}, 12-character prefix`, text: text!.slice(0, 12) }));
  // Forms that spell each character in several: theirs, of the secret's first 12 characters.
  const hex = (v: string) => Buffer.from(v, 'utf8').toString('hex');
  const listed: [string, (v: string) => string][] = [
    ['hex', hex],
    ['hex, upper-cased', (v) => hex(v).toUpperCase()],
    ['hex, colon-separated', (v) => hex(v).replace(/(..)(?!$)/g, '$1:')],
    ['HTML references, zero-padded', (v) => [...v].map((c) => `&#${String(c.codePointAt(0)).padStart(10, '0')};`).join('')],
    ['HTML references without `;`', (v) => [...v].map((c) => `&#${c.codePointAt(0)}`).join('')],
    ['broken by a line break and indentation', (v) => `${v.slice(0, 9)}\n        ${v.slice(9)}`],
  ];
  for (const [name, form] of listed) forms.push({ name: `${name}, of a 12-character prefix`, text: form(secret.slice(0, 12)) });
  const seen = new Set<string>();
  return forms.filter((f) => !seen.has(f.text) && seen.add(f.text));
}

/**
 * Where any form of any secret occurs in what the run wrote, searched as bytes: as UTF-8 and,
 * where it differs, as Latin-1 (a header value copied through as bytes). Named, never shown.
 */
function leaks(run: CliRun, secrets: readonly string[]): string[] {
  const found: string[] = [];
  secrets.forEach((secret, i) => {
    for (const form of secretForms(secret)) {
      const encodings = [Buffer.from(form.text, 'utf8')];
      if (/^[\u0000-\u00ff]*$/.test(form.text) && !encodings[0]!.equals(Buffer.from(form.text, 'latin1'))) encodings.push(Buffer.from(form.text, 'latin1'));
      for (const output of run.outputs) {
        for (const needle of encodings) {
          const at = output.bytes.indexOf(needle);
          if (at >= 0) found.push(`secret #${i} (${secret.length} chars), ${form.name}, in ${output.name} at byte ${at}`);
        }
      }
    }
  });
  return found;
}

const firstLines = (text: string, n = 4) => text.split('\n').slice(0, n).join('\n');

/** The first failures the JSON report names (the CLI sanitized it), so an unexpected exit says why. */
function failuresOf(run: CliRun): string {
  try {
    const report = JSON.parse(run.files['report.json'] ?? '') as { failures?: { rule: string; operation: string; message?: string }[] };
    const failures = report.failures ?? [];
    return failures.length ? `failures: ${failures.slice(0, 3).map((f) => `${f.rule} on ${f.operation}: ${(f.message ?? '').slice(0, 300)}`).join(' | ')}; ` : '';
  } catch {
    return '';
  }
}

/** The curl lines a run printed: the console's and the JSON report's. */
function curlLines(run: CliRun): string[] {
  const fromConsole = run.stdout.split('\n').flatMap((l) => (/^\s+curl:\s+(curl .*)$/.exec(l)?.[1] ? [/^\s+curl:\s+(curl .*)$/.exec(l)![1]!] : []));
  const report = JSON.parse(run.files['report.json'] ?? '{"failures":[],"warnings":[]}') as { failures: { curl: string }[]; warnings: { curl: string }[] };
  return [...fromConsole, ...[...report.failures, ...report.warnings].map((f) => f.curl)].filter((c) => c.startsWith('curl '));
}

describe.concurrent('the suite against hostile targets', () => {
  it.for(rows)('%s', { timeout: ROW_BOUND_MS + 15_000 }, async ([, { behaviour, scope, want }], { expect }) => {
    const server = await startHostile(behaviour, scope);
    try {
      // Only the rows about time are judged against a short deadline (the one that proves their
      // point); every other row gets a patient one, so a loaded machine (the other test files
      // beside them) cannot turn a slow sound answer into a verdict.
      const run = await runConformCli({
        url: server.url,
        apiKey: server.apiKey,
        siteId: server.siteId,
        // Compiled, as the package runs it: tsx's loading, paid per row, is not what the table is about.
        launcher: inject('compiledCli'),
        timeoutMs: ROW_BOUND_MS,
        extraArgs: [
          ...(QUICK.has(behaviour) ? ['--runs', '1'] : []),
          // The servers are the mock underneath, whose changes show at once: a failed property
          // waits out the smallest window that proves the point, not a live API's 10 s.
          ...(STATE_ROWS.has(behaviour) ? ['--state-window-s', '1'] : []),
        ],
        ...(TIME_ROWS.has(behaviour) ? {} : { requestTimeoutMs: PATIENT_TIMEOUT_MS }),
      });
      const summary = `exit ${run.code}${run.signal ? ` (${run.signal})` : ''} after ${run.wallMs} ms; ${failuresOf(run)}stderr begins:\n${firstLines(run.stderr)}`;
      if (process.env.HSC_HOSTILE_LOG) console.log(`[hostile] ${behaviour} (${scope}): ${summary.replace(/\n/g, '\n    ')}`);

      // (c) bounded, and no crash of the process itself.
      expect.soft(run.timedOut, `killed at the ${ROW_BOUND_MS} ms bound; ${summary}`).toBe(false);
      expect.soft(run.signal, summary).toBeNull();
      expect.soft(run.stderr).not.toMatch(/heap out of memory|FATAL ERROR/);
      expect.soft(run.stderr, 'a stack trace').not.toMatch(/\n\s+at /);
      expect.soft(run.overflow, 'output past the capture caps').toEqual([]);
      // (a) the exit code.
      expect.soft(run.code, summary).toBe(want.code);
      // (b) the cause, named.
      if (want.cause.length > 0) {
        if ((scope === 'all' && !discoveredAll.has(behaviour)) || want.code === 2) {
          const line = run.stderr.split('\n').find((l) => want.cause.every((cause) => cause.test(l)));
          expect.soft(line, `one line of stderr matching ${want.cause.join(' and ')}; ${summary}`).toBeDefined();
        } else {
          const report = run.files['report.json'];
          expect.soft(report, `report.json written; ${summary}`).toBeDefined();
          for (const cause of want.cause) expect.soft(report ?? '', `the JSON report names ${cause}`).toMatch(cause);
        }
      }
      // Throttling judges nothing: the rows it reached say so, and none failed for it.
      if (unjudgedOnOnePath.has(behaviour) && scope === 'some') {
        const report = JSON.parse(run.files['report.json'] ?? '{}') as { summary?: { failed: number }; checks?: { outcome: string; reason?: string }[] };
        expect.soft(report.summary?.failed, 'rows failed').toBe(0);
        expect.soft(report.checks?.some((c) => /not judged: throttled/.test(c.reason ?? '')), 'a row says "not judged: throttled"').toBe(true);
      }
      // (d) no form of any secret, anywhere.
      expect.soft(leaks(run, server.secrets), 'secret forms in the output').toEqual([]);
      if (printsEchoes.has(behaviour)) {
        const written = run.outputs.map((o) => o.bytes.toString('utf8')).join('\n');
        expect.soft(written, 'the key, hidden where the echo was printed').toContain('[redacted HSC_API_KEY]');
        if (scope !== 'all' && behaviour !== 'echo-cut-headers') expect.soft(run.files['report.json'] ?? '', 'a served password, hidden where its echo was printed').toContain('[redacted]');
      }
      // (f) every requested report written, and each still reads as its format, whatever the secrets.
      if (want.code !== 2) {
        expect.soft(() => JSON.parse(run.files['report.json'] ?? ''), 'the JSON report parses').not.toThrow();
        expect.soft(run.files['report.xml'] ?? '', 'the JUnit report').toMatch(/^<\?xml[\s\S]*<\/testsuites>\s*$/);
        expect.soft(run.stdout, 'the console report ends with the verdict').toMatch(/(✓ conforms|✗ does not conform)[^\n]*\n*$/);
      }
      // The unread rows' echoes were printed: the password hidden where each stood, not left out.
      if (UNREAD_FORMS.includes(behaviour as (typeof UNREAD_FORMS)[number]) && want.code !== 2) expect.soft(run.files['report.json'] ?? '', 'a password learned from a body held but not parsed, hidden where its echo was printed').toContain('[redacted]');
      // The cap cut the password CAP_CUT_KEPT characters in: its head was learned open, so the rest of its echo is hidden too.
      if (behaviour === 'unread-cap-cut') {
        const tails = server.secrets.filter((secret) => secret !== server.apiKey).map((secret) => secret.slice(CAP_CUT_KEPT));
        const shown = tails.filter((tail) => run.outputs.some((o) => o.bytes.includes(tail)));
        expect.soft(shown, "the part of a password past the cap, where its whole echo was printed").toEqual([]);
      }
      // A decoy is a served value like any other: the real value is hidden, the decoy too.
      if (behaviour === 'served-duplicate-key' || behaviour === 'served-nested-json') expect.soft(leaks(run, [DECOY_PASSWORD]), 'the decoy').toEqual([]);
      // (g) words of the report served as secrets, and a one-character key: the report's own words intact.
      if (server.wordLike.length > 0) {
        const report = JSON.parse(run.files['report.json'] ?? '{}') as Record<string, unknown>;
        expect.soft(Object.keys(report), "the JSON report's own keys").toEqual(expect.arrayContaining(['ok', 'summary', 'checks', 'coverage', 'failures', 'warnings', 'notes', 'specVersion']));
        expect.soft(run.stdout, 'the console headings').toMatch(/FAILURES/);
        expect.soft(curlLines(run).every((l) => !/Bearer [^"'$ ]/.test(l)), 'every curl line carries the key as "$HSC_API_KEY"').toBe(true);
      }
      // (e) every curl line printed, run as a user would paste it, runs nothing but curl.
      if (behaviour === 'quote-injection') {
        await rm(injectionMarker, { force: true });
        const lines = curlLines(run);
        expect.soft(lines.length, 'curl lines to replay').toBeGreaterThan(0);
        for (const line of lines) spawnSync('bash', ['-c', `curl() { :; }\n${line}`], { stdio: 'ignore', timeout: 5_000, env: { PATH: process.env.PATH ?? '' } });
        expect.soft(existsSync(injectionMarker), 'a printed curl line ran the command a target hid in a record name').toBe(false);
      }
    } finally {
      await server.close();
    }
  });
});

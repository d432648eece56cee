/**
 * The console reporter: progress while the run goes (one updating line on a terminal, a line
 * every few seconds otherwise), then the distinct failures grouped by rule and operation, each
 * with what a reader needs to act: the probe, how often it occurred and where else, the request,
 * the response, the seed and a curl line; then a table of rules by outcome, the notes, and one
 * closing line, the verdict, last. The notes every run repeats (the assumptions and the conflicts
 * met) are one line per kind, naming them; `--verbose` shows each in full.
 */
import { packageVersion, PROGRAM } from '../../bin/package-info.ts';
import { api } from '../../spec/api.ts';
import { count } from '../checks/values.ts';
import { reasonGroups } from '../coverage.ts';
import { alsoIn, rulesTogether } from '../failures.ts';
import type { CheckSummary, Failure, Report } from '../types.ts';
import { fingerprint } from '../baseline.ts';

export interface ConsoleStyle {
  readonly color: boolean;
  /** Every note in full, the assumptions and conflicts too, and a passing run's table (`--verbose`). */
  readonly verbose?: boolean;
  /** The terminal's width, where it has one: a note is cut to it (default NOTE_WIDTH). */
  readonly columns?: number;
}

/** Characters of a note's one line where no terminal says its width (a CI log). */
const NOTE_WIDTH = 120;

const paint = (style: ConsoleStyle, code: string, text: string) => (style.color ? `\x1b[${code}m${text}\x1b[0m` : text);
const red = (s: ConsoleStyle, t: string) => paint(s, '31', t);
const green = (s: ConsoleStyle, t: string) => paint(s, '32', t);
const yellow = (s: ConsoleStyle, t: string) => paint(s, '33', t);
const bold = (s: ConsoleStyle, t: string) => paint(s, '1', t);
const dim = (s: ConsoleStyle, t: string) => paint(s, '2', t);

const RESPONSE_SHOWN = 600;
const REQUEST_BODY_SHOWN = 400;
/** Failures shown in full per (rules, operation), each of another title: the rest are one line each, and all are in the JSON report. */
const FAILURES_SHOWN = 3;
/** A longer curl line would flood the terminal (or an annotation); the JSON report holds it whole. */
const CURL_SHOWN = 1500;
/** The curl line, or where to find it when it is too long to show. */
export const curlShown = (curl: string): string => (curl.length > CURL_SHOWN ? `(${curl.length} characters: see failures[].curl of --reporter json)` : curl);

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text);
/** One line per value: control characters (bidirectional overrides too) shown escaped, so a body cannot redraw the terminal. */
export const printable = (text: string) =>
  text.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => (c === '\n' ? '\\n' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));

function failureBlock(f: Failure, style: ConsoleStyle): string[] {
  const mark = f.severity === 'warning' ? yellow(style, '!') : red(style, '✗');
  const lines = [`  ${mark} ${bold(style, printable(f.title))}`];
  if (f.rules.length > 1) lines.push(`    rules:    ${f.rules.join(', ')} (${rulesTogether(f)})`);
  // A failure of several rules gives one reason per line (see mergeVerdicts).
  const why = f.rules.length > 1 ? f.message.split('\n') : [f.message];
  lines.push(`    probe:    ${printable(f.probe)}`, ...occurrenceLines(f), ...why.map((line, i) => `    ${i ? '          ' : 'why:      '}${printable(line)}`));
  lines.push(`    request:  ${f.request.method} ${printable(f.request.url)}`);
  for (const [name, value] of Object.entries(f.request.headers)) lines.push(`              ${name}: ${printable(value)}`);
  if (f.request.body !== undefined) lines.push(`              body: ${printable(clip(f.request.body, REQUEST_BODY_SHOWN))}`);
  lines.push(...shrinkLines(f));
  if (f.response) {
    const type = f.response.headers['content-type'];
    lines.push(`    response: ${f.response.status} in ${f.response.ms} ms${type ? `, ${printable(type)}` : ''}`);
    if (f.response.text) lines.push(`              ${printable(clip(f.response.text, RESPONSE_SHOWN))}`);
  } else if (f.transport) {
    lines.push(`    response: none (${f.transport.kind}: ${printable(f.transport.message)})`);
  }
  lines.push(`    seed:     ${f.seed}`);
  if (f.curl) lines.push(`    curl:     ${curlShown(f.curl)}`);
  return lines;
}


/** How often the failure occurred, and the probes of the next few occurrences (with their titles where they differ). */
function occurrenceLines(f: Failure): string[] {
  if (f.occurrences <= 1) return [];
  const examples = (f.examples ?? []).map((e) => `${printable(clip(e.probe, PROBE_TITLE_SHOWN))}${e.title === f.title ? '' : ` (${printable(clip(e.title, PROBE_TITLE_SHOWN))})`}`);
  return [`    seen:     ${f.occurrences} times, the same symptom; also in: ${alsoIn(f, examples)}`];
}

/** How a generated input was shrunk, and the request first found when it was. */
function shrinkLines(f: Failure): string[] {
  const note = f.shrink;
  if (f.shrinkSteps === undefined || !note) return [];
  const stopped = note.stopped ? `; ${printable(note.stopped)}` : '';
  if (f.shrinkSteps === 0) {
    const why = note.stopped ? printable(note.stopped) : `no smaller input fails this rule${note.requests ? ` (${count(note.requests, 'request')} tried)` : ''}`;
    return [`    shrunk:   ${why}`];
  }
  const lines = [
    `    shrunk:   from ${note.fromSize} to ${note.toSize} characters of body and query, in ${count(f.shrinkSteps, 'step')} (${count(note.requests, 'extra request')})${stopped}`,
  ];
  if (f.original) {
    lines.push(`    first found: ${f.original.method} ${printable(f.original.url)}`);
    if (f.original.body !== undefined) lines.push(`              body: ${printable(clip(f.original.body, REQUEST_BODY_SHOWN))}`);
  }
  return lines;
}

/** The run's shrinking budgets and what it spent, when it had a failure to shrink. */
function shrinkingLine(report: Report): string[] {
  const s = report.shrinking;
  if (!s || s.failures === 0) return [];
  const stopped = s.stopped ? `; ${s.stopped} stopped by a budget (each says so)` : '';
  return [`shrinking: ${s.reduced} of ${count(s.failures, 'failure')} with a generated input made smaller, ${count(s.requests, 'extra request')} (budget ${s.perFailure} per failure, ${s.perRun} per run)${stopped}`];
}

/** Probe titles named on a line of failures like one shown in full; the JSON report holds them all. */
const PROBES_NAMED = 5;
const PROBE_TITLE_SHOWN = 80;

/** `a; b; c; and 2 more`: the probes of failures like one shown in full. */
const probesOf = (items: readonly Failure[]) => {
  const names = items.slice(0, PROBES_NAMED).map((f) => printable(clip(f.probe, PROBE_TITLE_SHOWN)));
  return `${names.join('; ')}${items.length > PROBES_NAMED ? `; and ${items.length - PROBES_NAMED} more` : ''}`;
};

/**
 * Failures grouped by the rules they broke together and the operation. Failures alike (same
 * rules and title) are shown in full once, the first of them; the others are one line naming
 * their probes, under the same operation or a later one. Every listed failure is counted.
 */
function grouped(list: readonly Failure[], style: ConsoleStyle): string[] {
  const groups = new Map<string, Failure[]>();
  for (const f of list) {
    const key = `${f.rules.join(' + ')}  ${f.operation}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  /** Where each (rules, title) was shown in full. */
  const inFull = new Map<string, string>();
  const lines: string[] = [];
  for (const [key, items] of groups) {
    lines.push('', `${bold(style, key)}  (${items.length})`);
    const byTitle = new Map<string, Failure[]>();
    for (const f of items) byTitle.set(f.title, [...(byTitle.get(f.title) ?? []), f]);
    let full = 0;
    for (const [title, alike] of byTitle) {
      const first = alike[0]!;
      const mark = first.severity === 'warning' ? yellow(style, '!') : red(style, '✗');
      const kind = `${first.rules.join(' + ')} ${title}`;
      const shownUnder = inFull.get(kind);
      if (shownUnder === undefined && full < FAILURES_SHOWN) {
        full++;
        inFull.set(kind, first.operation);
        lines.push(...failureBlock(first, style));
        if (alike.length > 1) lines.push(`    … and ${alike.length - 1} more like it (each in full in --reporter json): ${probesOf(alike.slice(1))}`);
      } else {
        const like = shownUnder === undefined ? 'each in full in --reporter json' : shownUnder === first.operation ? 'like the one in full above' : `like the one in full under ${shownUnder} above`;
        lines.push(`  ${mark} ${bold(style, printable(title))} (${alike.length}, ${like}): ${probesOf(alike)}`);
      }
    }
  }
  return lines;
}

function table(rows: readonly CheckSummary[], style: ConsoleStyle): string[] {
  const rules = [...new Set(rows.map((r) => r.rule))];
  const counts = rules.map((rule) => {
    const mine = rows.filter((r) => r.rule === rule);
    const n = (o: CheckSummary['outcome']) => mine.filter((r) => r.outcome === o).length;
    return { rule, passed: n('passed'), failed: n('failed'), skipped: n('skipped') };
  });
  const width = Math.max('rule'.length, ...rules.map((r) => r.length));
  const cell = (v: number | string, w: number) => String(v).padStart(w);
  const lines = [`  ${'rule'.padEnd(width)}  ${cell('passed', 6)}  ${cell('failed', 6)}  ${cell('skipped', 7)}`];
  for (const c of counts) {
    const failed = c.failed ? red(style, cell(c.failed, 6)) : cell(c.failed, 6);
    lines.push(`  ${c.rule.padEnd(width)}  ${cell(c.passed, 6)}  ${failed}  ${cell(c.skipped, 7)}`);
  }
  return lines;
}

/** Rows named per reason group in the SKIPPED and JUDGED IN PART sections; the JSON report's `coverage` lists them all. */
const SKIPPED_ROWS_SHOWN = 6;

/** Rows counted per reason group, with a few of them named, so a reader sees what the run could not judge (or judged only in part) and why. */
function byReason(rows: readonly { readonly rule: string; readonly operation: string; readonly reason?: string | undefined }[]): string[] {
  return reasonGroups(rows.map((r) => r.reason ?? 'no reason given')).map(({ reason, members }) => {
    const pairs = members.map((i) => `${rows[i]!.rule} ${rows[i]!.operation}`);
    const shown = pairs.slice(0, SKIPPED_ROWS_SHOWN).join(', ');
    return `  - ${printable(reason)} (${pairs.length}): ${shown}${pairs.length > SKIPPED_ROWS_SHOWN ? `, and ${pairs.length - SKIPPED_ROWS_SHOWN} more` : ''}`;
  });
}

/** Rows judged, but with some of their probes not sent (coverage's `partly`), in the model's rule order. */
const judgedInPart = (report: Report) => Object.entries(report.coverage.rules).flatMap(([rule, c]) => c.partly.map((p) => ({ rule, ...p })));

const formatSeconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * `3 distinct failures (7 rule violations), from 120 failing exchanges`: one failure per symptom,
 * however many rules it broke and however often it occurred.
 */
export const failureCounts = (report: Report): string =>
  `${count(report.summary.distinctFailures, 'distinct failure')} (${count(report.summary.ruleViolations, 'rule violation')}), from ${count(report.summary.failingExchanges, 'failing exchange')}`;

/**
 * The closing line: verdict, what it covered, totals, wall time, requests and the seed. Whenever
 * a row was skipped it says on how many checks the verdict rests, and why the others were not
 * judged, counted per reason group.
 */
/** What a budget that stopped the run bought: the checks judged, and each state property's sequences. */
function budgetBought(report: Report): string {
  const budget = report.schedule?.budget;
  if (!budget?.stopped) return '';
  const { checked, total } = report.coverage;
  const sequences = budget.sequences.length ? `, state properties ${budget.sequences.map((s) => `${s.run}`).join('/')} of ${Math.max(...budget.sequences.map((s) => s.of))} sequences` : '';
  return `stopped at the budget (${budget.stopped}): ${checked} of ${count(total, 'check')} judged${sequences} — `;
}

/** The 429s the run met, and the requests it gave up on while throttled (not judged). */
function throttling(report: Report): string {
  const schedule = report.schedule;
  if (!schedule?.throttled) return '';
  const paced = schedule.allowedRate !== undefined ? `, paced to ${Number(schedule.allowedRate.toPrecision(3))}/s` : '';
  const given = schedule.notJudged.throttled ? `, ${schedule.notJudged.throttled} given up: not judged` : '';
  return `, ${schedule.throttled} answered 429${paced}${given}`;
}

export function finalLine(report: Report, style: ConsoleStyle = { color: false }): string {
  const s = report.summary;
  const rate = report.durationMs > 0 ? ` (${Math.round((report.requests * 1000) / report.durationMs)}/s)` : '';
  const tail = `${budgetBought(report)}${formatSeconds(report.durationMs)}, ${count(report.requests, 'request')}${rate}${throttling(report)}, seed ${report.seed}`;
  const { checked, total } = report.coverage;
  const reasons = report.coverage.skipped.map((g) => `${printable(g.reason)} (${g.count})`).join(', ');
  const warnings = count(s.warnings, 'warning');
  // --only narrows the run to some rules: the line says which share of the document's it judged.
  const only = Array.isArray(report.options.only) ? (report.options.only as string[]) : undefined;
  const ofTotal = `of ${count(total, 'check')}`;
  const tailed = `${only ? `only ${only.length} of ${api.rules.length} rules judged (--only ${only.join(',')}) — ` : ''}${tail}`;
  // Rows judged with some of their probes not sent: a ✓ says so too.
  const inPart = judgedInPart(report).length;
  const partly = inPart ? `, ${inPart} judged in part` : '';
  // Coverage as a figure: a ✓ over part of the checks says how large a part, in yellow on a terminal.
  const share = `on ${checked} ${ofTotal} (${percent(checked, total)})`;
  const known = report.baseline?.known ?? 0;
  if (report.ok && known) {
    const on = s.skipped ? yellow(style, share) : share;
    return `${green(style, '✓ conforms')}, but for ${count(known, 'known finding')} (baseline ${report.baseline!.file}), ${on}: ${s.passed} passed${partly}, ${s.failed} failed (known), ${s.skipped} skipped, ${warnings} — ${tailed}`;
  }
  if (report.ok) {
    if (!s.skipped) return `${green(style, '✓ conforms')} ${share}: ${s.passed} passed${partly}, ${s.failed} failed, 0 skipped, ${warnings} — ${tailed}`;
    return `${green(style, '✓ conforms')} ${yellow(style, share)}${partly} — ${s.skipped} skipped: ${reasons}; ${warnings} — ${tailed}`;
  }
  const failOnSkip = report.options.failOnSkip === true && s.skipped > 0;
  const why = [
    ...(report.baseline?.new ? [`${count(report.baseline.new, 'new distinct failure')} (not in the baseline ${report.baseline.file}; ${report.baseline.known} known)`] : []),
    ...(s.distinctFailures && !report.baseline?.new ? [`${failureCounts(report)}${s.skipped ? `, on ${checked} ${ofTotal}` : ''}`] : []),
    ...(failOnSkip ? [`${s.distinctFailures ? count(s.skipped, 'check') : `${s.skipped} ${ofTotal}`} skipped (--fail-on-skip)`] : []),
  ];
  const counts = `${s.passed} passed${partly}, ${s.failed} failed, ${s.skipped ? '' : '0 skipped, '}${warnings}`;
  const skips = s.skipped ? `; ${failOnSkip ? '' : `${s.skipped} `}skipped: ${reasons}` : '';
  return `${red(style, '✗ does not conform')}: ${why.join(', and ') || 'see the failures above'} — ${counts}${skips} — ${tailed}`;
}

/**
 * A note on one line of about `width` characters, cut at a word's end and marked with how much
 * was left out. Not with `…`: the sanitizer reads a word's head before one as a secret cut short
 * (sanitize/scan.ts), and the notes are sanitized already (run/report.ts), so a cut here splits
 * no secret, only the report's words.
 */
const noteLine = (note: string, width: number): string => {
  const flat = note.replace(/\s*\n\s*/g, ' ');
  if (flat.length <= width) return flat;
  const space = flat.lastIndexOf(' ', width - 12);
  const at = space > width / 2 ? space : width - 12;
  return `${flat.slice(0, at)} [+${flat.length - at}]`;
};

/** `78%`, rounded down: a run that judged 299 of 300 is not 100%. */
const percent = (part: number, whole: number): string => `${whole === 0 ? 100 : Math.floor((part * 100) / whole)}%`;

/** The model's assumption or conflict a note states, by the id it opens with (as the run's report writes them). */
function repeatedKind(note: string): { readonly kind: 'assumed' | 'conflicts'; readonly id: string } | undefined {
  const assumed = api.assumptions.find((a) => note.startsWith(`${a.id} (assumed): `));
  if (assumed) return { kind: 'assumed', id: assumed.id };
  const conflict = api.conflicts.find((c) => note.startsWith(`${c.id}: `));
  return conflict && { kind: 'conflicts', id: conflict.id };
}

/** The notes with the assumptions, and the conflicts met, one line each kind where the first of it stood. */
function shortNotes(report: Report): string[] {
  const ids = { assumed: [] as string[], conflicts: [] as string[] };
  const kinds = report.notes.map(repeatedKind);
  for (const k of kinds) if (k) ids[k.kind].push(k.id);
  const resolved = report.options.strict === true ? 'held to the letter, --strict; --verbose quotes it' : 'either side accepted; --verbose quotes the letter and the reading';
  const line = {
    assumed: `assumed (${ids.assumed.length}; --verbose says what each assumes): ${ids.assumed.join(', ')}`,
    conflicts: `conflicts met (${ids.conflicts.length}; ${resolved}): ${ids.conflicts.join(', ')}`,
  };
  return report.notes.flatMap((note, i) => {
    const k = kinds[i];
    if (!k) return [note];
    return kinds.findIndex((other) => other?.kind === k.kind) === i ? [line[k.kind]] : [];
  });
}

export function renderConsole(report: Report, style: ConsoleStyle = { color: false }): string {
  const lines: string[] = [`${PROGRAM} ${packageVersion()} conform: ${report.target} (spec ${report.specVersion})`];
  const fresh = report.failures.filter((f) => f.known === undefined);
  if (fresh.length) {
    const listed = report.failures.length < report.summary.distinctFailures ? `; ${report.failures.length} listed, see the notes` : '';
    const known = report.baseline?.known ? ` (${report.baseline.new} new; ${report.baseline.known} known, below)` : '';
    lines.push('', bold(style, red(style, `FAILURES: ${failureCounts(report)}${known}${listed}`)), ...grouped(fresh, style));
  }
  lines.push(...baselineLines(report, style));
  if (report.warnings.length) lines.push('', bold(style, yellow(style, `WARNINGS (${report.warnings.length})`)), ...grouped(report.warnings, style));
  // A passing run's table says one thing 26 times: one line, unless --verbose asks for it.
  const quiet = report.ok && !report.warnings.length && !style.verbose;
  if (quiet) lines.push('', `${bold(style, 'SUMMARY')}: ${count(new Set(report.checks.map((c) => c.rule)).size, 'rule')} over ${count(report.checks.length, 'row')} (rule × operation), none failed (--verbose shows the table)`);
  else lines.push('', bold(style, 'SUMMARY (rows are rule × operation)'), ...table(report.checks, style));
  const skips = byReason(report.checks.filter((r) => r.outcome === 'skipped'));
  const ofRows = `of ${count(report.coverage.total, 'row')}`;
  if (skips.length) lines.push('', bold(style, `SKIPPED: ${report.summary.skipped} ${ofRows}, by reason`), ...skips);
  const partly = judgedInPart(report);
  if (partly.length) lines.push('', bold(style, `JUDGED IN PART: ${partly.length} ${ofRows} (some of their probes not sent), by reason`), ...byReason(partly));
  // One line each (cut to the terminal, `[+N]` saying how many characters were left out), every word with --verbose.
  const width = Math.max(40, (style.columns ?? NOTE_WIDTH) - 4);
  if (report.notes.length) lines.push('', bold(style, `NOTES${style.verbose ? '' : ' (one line each, [+N]: N characters more; --verbose shows them whole)'}`), ...(style.verbose ? report.notes : shortNotes(report).map((n) => noteLine(n, width))).map((n) => `  - ${printable(n)}`));
  lines.push('', ...shrinkingLine(report), finalLine(report, style), '');
  return lines.join('\n');
}

/** The baseline's known findings one line each (never silent), and its entries the run no longer met. */
function baselineLines(report: Report, style: ConsoleStyle): string[] {
  const b = report.baseline;
  if (!b) return [];
  const known = report.failures.filter((f) => f.known !== undefined);
  return [
    ...(known.length ? ['', bold(style, `KNOWN (${known.length}, in the baseline ${b.file}: they do not fail the run)`), ...known.map((f) => `  ~ ${fingerprint(f)}: ${printable(f.title)} — ${printable(f.known!)}`)] : []),
    ...(b.gone.length ? ['', bold(style, green(style, `FIXED (${b.gone.length} baseline entries no longer occur: remove them, or rewrite the file with --write-baseline)`)), ...b.gone.map((g) => `  - ${printable(g)}`)] : []),
    ...(b.notJudged.length ? ['', `BASELINE: ${b.notJudged.length} ${b.notJudged.length === 1 ? 'entry' : 'entries'} not judged this run (their rows were skipped or left out): kept`] : []),
  ];
}

/** After a run against the embedded mock, where to go from here (the CLI says it on stderr, after the report). */
export function nextStep(report: Report): string | undefined {
  if (report.options.embeddedMock !== true) return undefined;
  return `next: your own API: export HSC_API_KEY, then npx --no-install ${PROGRAM} conform --base-url https://api.example.com/v2 --site-id SITE_UUID (the README's "What a default run sends and changes" first)`;
}

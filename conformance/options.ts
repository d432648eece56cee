/**
 * The flags of `hosted-site-contract conform`, read and checked before anything is sent: every
 * mistake is one `UsageError` line (exit 2), never a stack trace.
 */
import { layouts } from '../mock/layouts.ts';
import { existsSync, lstatSync, statSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { didYouMean } from '../bin/did-you-mean.ts';
import { closestCodes } from '../bin/explain.ts';
import { parseFlags, UsageError, wholeNumberFlag } from '../bin/command.ts';
import { probeReportFile, reportFileProblem, SYMLINK_REFUSED } from '../bin/report-file.ts';
import { api } from '../spec/api.ts';
import { formatRegex } from '../spec/formats.ts';
import type { RuleId } from '../spec/model.ts';
import { parseDuration } from './schedule/budget.ts';
import { conformFlagOptions, DEFAULT_CONCURRENCY, DEFAULT_MAX_BODY_KB, DEFAULT_MAX_WAIT_S, DEFAULT_RUNS, DEFAULT_SEED, DEFAULT_TIMEOUT_MS } from './flags.ts';
import { withConfig } from '../bin/config.ts';
import { readBaseline, type Baseline } from './baseline.ts';

export type ReporterName = 'console' | 'json' | 'junit' | 'github' | 'ctrf';
const REPORTERS: readonly ReporterName[] = ['console', 'json', 'junit', 'github', 'ctrf'];
/** The reporters that write a document, to a file with --output: json, junit, ctrf. */
type Document = 'json' | 'junit' | 'ctrf';

/** Where one reporter writes: a stream or a file. */
export interface Destination {
  readonly reporter: ReporterName;
  readonly to: 'stdout' | 'stderr' | { readonly file: string };
}

export interface ConformOptions {
  /** A live API; undefined runs against the embedded mock. */
  readonly live?: { readonly baseUrl: string; readonly apiKey: string; readonly siteId: string };
  readonly other?: { readonly apiKey: string; readonly siteId: string };
  readonly allowDestructive: boolean;
  /** Destructive requests may act on a live environment (--allow-live; needs --allow-destructive against --base-url). */
  readonly allowLive: boolean;
  /** The real key may travel in a URL (--allow-key-in-url): AUTH-BEARER's query carriers on a target that is not loopback. */
  readonly allowKeyInUrl: boolean;
  readonly seed: number;
  readonly runs: number;
  readonly timeoutMs: number;
  /** How long the STATE-* properties wait for an effect; unset, their target's default. */
  readonly stateWindowS?: number;
  /** The run's budget for waiting out 429s, in seconds (0: never wait). */
  readonly maxWaitS: number;
  /** Answers are read up to this many KiB. */
  readonly maxBodyKb: number;
  /** Requests per second at most (`--rate N`); undefined paces to the target (`--rate auto`). */
  readonly rate?: number;
  /** The run's budget: it stops sending at the first reached, and judges what it has (`--max-requests`, `--max-duration`). */
  readonly maxRequests?: number;
  readonly maxDurationMs?: number;
  readonly concurrency: number;
  readonly only?: readonly RuleId[];
  readonly strict: boolean;
  /** A skipped row fails the run (exit 1): for gates that must cover everything. */
  readonly failOnSkip: boolean;
  readonly destinations: readonly Destination[];
  /** With `--reporter github`: the job summary file GITHUB_STEP_SUMMARY names, appended to at the end. */
  readonly stepSummary?: string;
  /** The console report shows every note in full, the assumptions and conflicts too. */
  readonly verbose: boolean;
  /** Without --base-url: the catalogue variant the embedded mock runs as (the self-test's lever). */
  readonly mockVariant?: string;
  /** Without --base-url: the layout of data and timing the embedded mock runs in. */
  readonly mockLayout?: string;
  /** Known findings: the gate fails only on the others (conformance/baseline.ts). */
  readonly baseline?: Baseline;
  /** Where this run's findings are written as a baseline. */
  readonly writeBaseline?: string;
  /** Where the failing exchanges are written as HAR (replay/har.ts). */
  readonly record?: string;
  /** With `record`: every exchange, not only the failing ones. */
  readonly recordAll?: boolean;
}

const ruleIds: readonly RuleId[] = api.rules.map((r) => r.id);

const positiveInt = (flag: string, text: string | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number => wholeNumberFlag(flag, text, fallback, 1, max);

const wholeNumber = (flag: string, text: string | undefined, fallback: number, max: number): number => wholeNumberFlag(flag, text, fallback, 0, max);

function parseSeed(text: string | undefined): number {
  if (text === undefined) return DEFAULT_SEED;
  const n = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!(Number.isSafeInteger(n) && n >= 0 && n <= 0x7fffffff)) throw new UsageError(`--seed needs a whole number from 0 to ${0x7fffffff}, not '${text}'`);
  return n;
}

/** `--rate auto` (the default: paced to what the target says of its limit) or a fixed cap in requests per second. */
function parseRate(text: string | undefined): number | undefined {
  if (text === undefined || text.trim().toLowerCase() === 'auto') return undefined;
  const n = /^\d+(\.\d+)?$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!(n > 0 && n <= 100_000)) throw new UsageError(`--rate needs auto or a number of requests per second above 0, not '${text}'`);
  return n;
}

function parseMaxDuration(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = parseDuration(text);
  if (ms === undefined || ms > 7 * 86_400_000) throw new UsageError(`--max-duration needs a duration such as 90s, 10m or 1.5h (up to 7 days), not '${text}'`);
  return ms;
}

/**
 * `http(s)://host[:port]/.../v2`, without a trailing slash; anything else is a usage error. A
 * rejected value is echoed only as origin and path: never its credentials or query.
 */
/** A base URL on this machine (127.0.0.0/8, ::1, localhost): its access logs are the user's own. */
export function isLoopback(baseUrl: string): boolean {
  const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

export function parseBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError('--base-url must be an absolute http(s) URL ending in /v2 (the value given does not parse as a URL, so it is not echoed)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--base-url must use http or https, not '${url.protocol}'`);
  if (url.username || url.password) throw new UsageError('--base-url must not carry credentials; pass the key with --api-key or HSC_API_KEY');
  if (url.search || url.hash) throw new UsageError('--base-url must not carry a query string or fragment');
  const path = url.pathname.replace(/\/$/, '');
  // Only the origin is echoed: a path may carry a `;token=` parameter.
  if (!path.endsWith(api.basePath)) throw new UsageError(`--base-url must end in ${api.basePath} (the version segment), e.g. https://api.example.com${api.basePath}; the path given for ${url.origin} does not`);
  return `${url.origin}${path}`;
}

/**
 * A key must fit in an HTTP header (RFC 9110 §5.5, as undici checks it: tab, printable ASCII and
 * Latin-1, no line break); otherwise every request would fail as if the target were unreachable.
 * The key is never echoed: only the position and code of the first character that does not fit.
 */
function checkKey(source: string, key: string): string {
  const bad = /[^\t\x20-\x7e\x80-\xff]/.exec(key);
  if (bad) {
    const code = `U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    throw new UsageError(`${source} holds a character an HTTP header cannot carry (${code} at position ${bad.index + 1}); check how the key was copied (the key is not echoed)`);
  }
  return key;
}

function parseUuid(flag: string, text: string): string {
  // The value is not echoed: a key pasted into the wrong flag would land in a CI log.
  if (!formatRegex.uuid.test(text)) throw new UsageError(`${flag} must be a UUID (8-4-4-4-12 hexadecimal digits); the value given is not one`);
  return text;
}

function parseOnly(values: readonly string[] | undefined): RuleId[] | undefined {
  if (!values?.length) return undefined;
  const ids = values.flatMap((v) => v.split(',')).map((v) => v.trim().toUpperCase()).filter((v) => v !== '');
  if (!ids.length) throw new UsageError('--only needs at least one rule id');
  const unknown = ids.filter((id) => !ruleIds.includes(id as RuleId));
  // Ranked as `explain` ranks a code typed, among the rules alone.
  const guess = (id: string) => closestCodes(id, 3, api.rules).join(', ');
  const guesses = unknown.map((id) => `${id}${guess(id) ? `; did you mean ${guess(id)}?` : ''}`).join(', ');
  if (unknown.length) throw new UsageError(`--only: unknown rule ${guesses}${guesses.includes('did you mean') ? '' : ' (`explain` lists every rule)'}`);
  return [...new Set(ids as RuleId[])];
}

/** Another document's file of `--output` (json, junit and ctrf asked for together): the same name, its extension. */
export function siblingFile(file: string, reporter: Document): string {
  const ext = { json: '.json', junit: '.xml', ctrf: '.ctrf.json' }[reporter];
  const current = extname(file);
  return current ? `${file.slice(0, -current.length)}${ext}` : `${file}${ext}`;
}

/**
 * Where a report file goes must be writable now, before the first request: a run whose results
 * cannot be written is a setup problem (exit 2), not one found after the whole run. Tried for
 * real (bin/report-file.ts: never through a symbolic link, a new file 0600 and removed again),
 * and only a regular file or a device (a pipe would block the end of the run until someone reads).
 */
function checkWritable(file: string, label = '--output'): void {
  const path = resolve(file);
  const dir = dirname(path);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`${label}: no directory ${dir}`);
  const existing = lstatSync(path, { throwIfNoEntry: false }); // the file itself, not what a link names
  if (existing?.isSymbolicLink()) throw new UsageError(`${label}: ${path} cannot be written (${SYMLINK_REFUSED})`);
  if (existing?.isDirectory()) throw new UsageError(`${label}: ${path} is a directory, not a file`);
  if (existing && !existing.isFile() && !existing.isCharacterDevice()) {
    throw new UsageError(`${label}: ${path} is a pipe or socket, not a file${label === '--output' ? ' (without --output, a single json, junit, ctrf or github report goes to stdout)' : ''}`);
  }
  try {
    probeReportFile(path);
  } catch (error) {
    throw new UsageError(`${label}: ${path} cannot be written (${reportFileProblem(error)})`);
  }
}

/**
 * Where each reporter writes. `--output` takes the json and junit reports; the github one only
 * when neither is asked for, since GitHub reads workflow commands from the step's output. One
 * report at most goes to stdout; the console then goes to stderr.
 */
function destinations(reporterFlags: readonly string[] | undefined, output: string | undefined): Destination[] {
  const names = [...new Set(reporterFlags?.length ? reporterFlags : ['console'])];
  const bad = names.filter((n) => !REPORTERS.includes(n as ReporterName));
  if (bad.length) throw new UsageError(`--reporter must be ${REPORTERS.slice(0, -1).join(', ')} or ${REPORTERS.at(-1)}, not '${bad[0]}'${didYouMean(bad[0]!, REPORTERS)}`);
  const reports = names.filter((n): n is Exclude<ReporterName, 'console'> => n !== 'console');
  const documents = reports.filter((n): n is Document => n === 'json' || n === 'junit' || n === 'ctrf');
  const files: readonly ReporterName[] = output === undefined ? [] : documents.length ? documents : reports;
  if (output !== undefined && !files.length) throw new UsageError('--output needs --reporter json, junit, ctrf or github');
  const onStdout = reports.filter((n) => !files.includes(n));
  if (onStdout.length > 1) throw new UsageError(`--reporter ${onStdout[0]} and --reporter ${onStdout[1]} together need --output FILE (one report at most goes to stdout)`);
  const chosen = names.map((reporter): Destination => {
    if (reporter === 'console') return { reporter, to: onStdout.length ? 'stderr' : 'stdout' };
    const r = reporter as Exclude<ReporterName, 'console'>;
    const at = files.indexOf(r);
    if (at < 0) return { reporter: r, to: 'stdout' };
    // A second file is only ever another document: the same name, that document's extension.
    return { reporter: r, to: { file: at === 0 ? output! : siblingFile(output!, r as Document) } };
  });
  const written = chosen.flatMap((d) => (typeof d.to === 'object' ? [resolve(d.to.file)] : []));
  if (new Set(written).size < written.length) throw new UsageError(`--output ${output}: the ${files.join(' and ')} reports would share one file; name the first with another extension (e.g. .out)`);
  for (const d of chosen) if (typeof d.to === 'object') checkWritable(d.to.file);
  return chosen;
}

/** `--reporter github` in a workflow step: the job summary file, checked now as `--output` is. Unset: no summary. */
function stepSummary(chosen: readonly Destination[], env: NodeJS.ProcessEnv): string | undefined {
  const file = env.GITHUB_STEP_SUMMARY;
  if (!file || !chosen.some((d) => d.reporter === 'github')) return undefined;
  checkWritable(file, 'GITHUB_STEP_SUMMARY');
  return file;
}

export function parseConformArgs(args: readonly string[], env: NodeJS.ProcessEnv = process.env): ConformOptions {
  const flags = parseFlags(withConfig('conform', args, conformFlagOptions, env), conformFlagOptions);

  let live: ConformOptions['live'];
  let other: ConformOptions['other'];
  if (flags['base-url'] !== undefined) {
    const baseUrl = parseBaseUrl(flags['base-url']);
    const apiKey = flags['api-key'] ?? env.HSC_API_KEY;
    if (!apiKey) throw new UsageError('--base-url needs an API key: --api-key KEY or env HSC_API_KEY');
    checkKey(flags['api-key'] !== undefined ? 'the --api-key value' : 'HSC_API_KEY', apiKey);
    if (flags['site-id'] === undefined) throw new UsageError('--base-url needs --site-id UUID (a site of the key\'s company)');
    live = { baseUrl, apiKey, siteId: parseUuid('--site-id', flags['site-id']) };
    if (flags['other-api-key'] !== undefined && flags['other-site-id'] === undefined) throw new UsageError('--other-api-key needs --other-site-id');
    if (flags['other-site-id'] !== undefined) {
      const otherKey = flags['other-api-key'] ?? env.HSC_OTHER_API_KEY;
      if (!otherKey) throw new UsageError('--other-site-id needs --other-api-key KEY or env HSC_OTHER_API_KEY');
      if (otherKey === apiKey) throw new UsageError('--other-api-key must be a key of another company, not the same key');
      checkKey(flags['other-api-key'] !== undefined ? 'the --other-api-key value' : 'HSC_OTHER_API_KEY', otherKey);
      other = { apiKey: otherKey, siteId: parseUuid('--other-site-id', flags['other-site-id']) };
    }
    if (flags['mock-variant'] !== undefined) throw new UsageError('--mock-variant applies to the embedded mock only, not with --base-url');
    if (flags['mock-layout'] !== undefined) throw new UsageError('--mock-layout applies to the embedded mock only, not with --base-url');
    // Alone it would change nothing: without --allow-destructive no valid action is sent anywhere.
    if (flags['allow-live'] && !flags['allow-destructive']) throw new UsageError('--allow-live needs --allow-destructive (it lets destructive requests act on the live environment too)');
  } else {
    for (const flag of ['api-key', 'site-id', 'other-api-key', 'other-site-id'] as const) {
      if (flags[flag] !== undefined) throw new UsageError(`--${flag} needs --base-url (without it the embedded mock is tested, with its own keys)`);
    }
  }

  const rate = parseRate(flags.rate);
  const maxDurationMs = parseMaxDuration(flags['max-duration']);
  const only = parseOnly(flags.only);
  const chosen = destinations(flags.reporter, flags.output);
  const summary = stepSummary(chosen, env);
  return {
    ...(live ? { live } : {}),
    ...(other ? { other } : {}),
    allowDestructive: flags['allow-destructive'] ?? false,
    allowLive: flags['allow-live'] ?? false,
    allowKeyInUrl: flags['allow-key-in-url'] ?? false,
    seed: parseSeed(flags.seed),
    runs: positiveInt('--runs', flags.runs, DEFAULT_RUNS, 10_000),
    timeoutMs: positiveInt('--timeout-ms', flags['timeout-ms'], DEFAULT_TIMEOUT_MS, 600_000),
    ...(flags['state-window-s'] !== undefined ? { stateWindowS: positiveInt('--state-window-s', flags['state-window-s'], 0, 3_600) } : {}),
    maxWaitS: wholeNumber('--max-wait-s', flags['max-wait-s'], DEFAULT_MAX_WAIT_S, 86_400),
    maxBodyKb: positiveInt('--max-body-kb', flags['max-body-kb'], DEFAULT_MAX_BODY_KB, 1024 * 1024),
    ...(rate !== undefined ? { rate } : {}),
    ...(flags['max-requests'] !== undefined ? { maxRequests: positiveInt('--max-requests', flags['max-requests'], 0, 1_000_000_000) } : {}),
    ...(maxDurationMs !== undefined ? { maxDurationMs } : {}),
    concurrency: positiveInt('--concurrency', flags.concurrency, DEFAULT_CONCURRENCY, 256),
    ...(only ? { only } : {}),
    strict: flags.strict ?? false,
    failOnSkip: flags['fail-on-skip'] ?? false,
    destinations: chosen,
    ...(summary !== undefined ? { stepSummary: summary } : {}),
    verbose: flags.verbose ?? false,
    ...(flags['mock-variant'] !== undefined ? { mockVariant: flags['mock-variant'] } : {}),
    ...(flags['mock-layout'] !== undefined ? { mockLayout: checkedLayout(flags['mock-layout']) } : {}),
    ...(flags.baseline !== undefined ? { baseline: readBaseline(flags.baseline) } : {}),
    ...(flags.record !== undefined ? { record: (checkWritable(flags.record, '--record'), flags.record) } : {}),
    ...(flags['record-all'] ? { recordAll: recordAllNeedsRecord(flags.record) } : {}),
    ...(flags['write-baseline'] !== undefined ? { writeBaseline: (checkWritable(flags['write-baseline'], '--write-baseline'), flags['write-baseline']) } : {}),
  };
}

function recordAllNeedsRecord(record: string | undefined): true {
  if (record === undefined) throw new UsageError('--record-all needs --record FILE');
  return true;
}

function checkedLayout(name: string): string {
  if (!layouts.some((l) => l.name === name)) throw new UsageError(`--mock-layout: no layout named '${name}'${didYouMean(name, layouts.map((l) => l.name)) || ` (known: ${layouts.map((l) => l.name).join(', ')})`}`);
  return name;
}

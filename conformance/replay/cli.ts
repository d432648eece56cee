/**
 * `hosted-site-contract replay FILE.har --base-url URL`: re-sends the failing exchanges a
 * `conform --record` wrote, in order (a STATE-* failure's sequence with its pauses), against
 * another server (a local build, a staging one), and judges each answer with the same checks the
 * run used, what its probe expected included. The placeholders are filled from the environment
 * (`HSC_API_KEY`, `HSC_OTHER_API_KEY`, …), learned by the sanitizer before anything is sent or
 * printed. Exit 0 when every entry is fixed, 1 when any still fails, 2 when none fails but some
 * could not be judged (a sequence's property compares answers over time: its steps are judged,
 * the property itself by rerunning `conform --only RULE --seed N`), or on bad usage.
 */
import { readFileSync } from 'node:fs';
import { parseFlags, UsageError, wholeNumberFlag } from '../../bin/command.ts';
import { keySecret, Sanitizer } from '../../sanitize/sanitizer.ts';
import { api } from '../../spec/api.ts';
import { operation } from '../../spec/queries.ts';
import type { RuleId } from '../../spec/model.ts';
import { DEFAULT_TIMEOUT_MS } from '../flags.ts';
import { createTransport } from '../http.ts';
import { parseBaseUrl } from '../options.ts';
import { isLoopback } from '../options.ts';
import { defaultSuite } from '../suite.ts';
import { matchRoute } from '../../mock/router.ts';
import { RunJudge } from '../run/judge.ts';
import { MAX_FAILURES_PER_PAIR } from '../run/report.ts';
import type { Check, CheckContext, Expectation, Probe } from '../types.ts';
import { replayFlagOptions } from './flags.ts';
import { HAR_EXTENSION_FORMAT, type Har, type HarEntry } from './har.ts';
import { fillRequest, PLACEHOLDER_VARIABLE, PlaceholderError, variablesOf, type RequestTemplate } from './placeholders.ts';

const PREFIX = 'hosted-site-contract replay';

export interface ReplayIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly env: NodeJS.ProcessEnv;
  readonly sanitizer?: Sanitizer;
}

/** One thing to replay: an exchange, or a sequence's steps in order. */
interface Item {
  readonly entries: readonly HarEntry[];
}

export type Outcome = { readonly kind: 'fixed' } | { readonly kind: 'fails'; readonly why: string } | { readonly kind: 'not judged'; readonly why: string };

function readHar(file: string): Har {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new UsageError(code ? `cannot read ${file} (${code})` : `${file} is not JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  const log = (parsed as Partial<Har> | null)?.log;
  if (!log || log.version !== '1.2' || !Array.isArray(log.entries) || log._hostedSiteContract?.format !== HAR_EXTENSION_FORMAT) {
    throw new UsageError(`${file} is not a recording of conform --record (HAR 1.2 with _hostedSiteContract.format ${HAR_EXTENSION_FORMAT})`);
  }
  if (typeof log._hostedSiteContract.baseUrl !== 'string') throw new UsageError(`${file}: log._hostedSiteContract.baseUrl must be the URL it was recorded against`);
  // Every entry as replay reads it, or one line naming the first that is not (a file may be edited by hand).
  (log.entries as unknown[]).forEach((e, i) => {
    const entry = e as Partial<HarEntry> | null;
    const meta = entry?._hostedSiteContract as Partial<HarEntry['_hostedSiteContract']> | undefined;
    const request = entry?.request as Partial<HarEntry['request']> | undefined;
    const ok =
      typeof meta === 'object' && meta !== null && Array.isArray(meta.rules) && typeof meta.operation === 'string' && typeof meta.title === 'string' && typeof meta.replayable === 'boolean' &&
      typeof request === 'object' && request !== null && typeof request.method === 'string' && typeof request.url === 'string' && Array.isArray(request.headers) &&
      request.headers.every((h) => typeof h?.name === 'string' && typeof h.value === 'string') && (request.postData === undefined || typeof request.postData.text === 'string');
    if (!ok) throw new UsageError(`${file}: entries[${i}] is not an entry conform --record writes (its request, or _hostedSiteContract with rules, operation, title and replayable)`);
  });
  return parsed as Har;
}

/** Entries grouped as they replay: a sequence's steps together, in their order. */
function items(har: Har): Item[] {
  const out: Item[] = [];
  const bySequence = new Map<number, HarEntry[]>();
  for (const entry of har.log.entries) {
    const seq = entry._hostedSiteContract?.sequence;
    if (!seq) {
      out.push({ entries: [entry] });
      continue;
    }
    let steps = bySequence.get(seq.id);
    if (!steps) {
      bySequence.set(seq.id, (steps = []));
      out.push({ entries: steps });
    }
    steps.push(entry);
  }
  return out;
}

const templateOfEntry = (entry: HarEntry): RequestTemplate => ({
  method: entry.request.method,
  url: entry.request.url,
  headers: Object.fromEntries(entry.request.headers.map((h) => [h.name, h.value])),
  ...(entry.request.postData ? { body: entry.request.postData.text } : {}),
});

export async function runReplay(args: readonly string[], io: ReplayIo): Promise<number> {
  const positional = args.filter((a, i) => !a.startsWith('-') && !(i > 0 && /^--(base-url|timeout-ms)$/.test(args[i - 1]!)));
  if (positional.length !== 1) throw new UsageError(positional.length ? 'replay takes one HAR file' : 'replay needs the HAR file conform --record wrote');
  const file = positional[0]!;
  const flags = parseFlags(args.filter((a) => a !== file), replayFlagOptions);
  const har = readHar(file);
  const recorded = har.log._hostedSiteContract.baseUrl;
  // Where the keys go is the user's word, never the file's: a recording may come from anyone.
  if (flags['base-url'] === undefined) throw new UsageError(`--base-url is required: the server to send the recorded requests to (the file names ${typeof recorded === 'string' ? 'the one it was recorded against' : 'none'}; keys go only where you say)`);
  const baseUrl = parseBaseUrl(flags['base-url']);
  const keyInUrl = flags['allow-key-in-url'] === true || isLoopback(baseUrl);
  const timeoutMs = wholeNumberFlag('--timeout-ms', flags['timeout-ms'], DEFAULT_TIMEOUT_MS, 1, 600_000);

  // Every secret the placeholders read is learned before anything is sent or printed.
  const sanitizer = io.sanitizer ?? new Sanitizer();
  const names = [...new Set(har.log.entries.flatMap((e) => variablesOf(JSON.stringify(templateOfEntry(e)))))];
  for (const name of names) if (PLACEHOLDER_VARIABLE.test(name) && io.env[name]) sanitizer.add(keySecret(io.env[name]!, name));
  const stdout = sanitizer.writer(io.stdout);
  const stderr = sanitizer.writer(io.stderr);
  const send = createTransport({ timeoutMs, sanitizer });
  const context: CheckContext = { options: { strict: flags.strict ?? false }, validKeys: ['HSC_API_KEY', 'HSC_OTHER_API_KEY'].flatMap((n) => (io.env[n] ? [io.env[n]!] : [])) };
  const checks = defaultSuite.checks;
  const counts = { fixed: 0, fails: 0, 'not judged': 0 };
  try {
    for (const item of items(har)) {
      const first = item.entries[0]!._hostedSiteContract;
      const label = `${first.rules.join('+')} ${first.operation}${item.entries.length > 1 ? ` (a sequence of ${item.entries.length} requests)` : ''}`;
      const outcome = await replayItem(item, { baseUrl, recorded, env: io.env, send, checks, context, keyInUrl, sanitizer });
      counts[outcome.kind]++;
      // An exchange --record-all kept may never have failed: it passes or fails now.
      const exchange = first.exchange === true;
      const mark = outcome.kind === 'fixed' ? (exchange ? '✓ passes' : '✓ fixed') : outcome.kind === 'fails' ? (exchange ? '✗ fails' : '✗ still fails') : '? not judged';
      stdout.write(`${sanitizer.oneLine(`${mark}  ${label}: ${first.title}${outcome.kind === 'fixed' ? '' : ` — ${outcome.why}`}`)}\n`);
    }
  } finally {
    await send.close();
  }
  const total = counts.fixed + counts.fails + counts['not judged'];
  const exchanges = har.log.entries.every((e) => e._hostedSiteContract?.exchange === true);
  const what = exchanges ? 'recorded exchange' : 'recorded failure';
  const words = exchanges ? ['pass', 'fail'] : ['fixed', 'still failing'];
  stdout.write(`replay of ${total} ${what}${total === 1 ? '' : 's'} against ${baseUrl}: ${counts.fixed} ${words[0]}, ${counts.fails} ${words[1]}, ${counts['not judged']} not judged\n`);
  if (counts['not judged'] && !counts.fails) stderr.write(`${PREFIX}: ${counts['not judged']} not judged: exit 2 (not every recorded failure could be judged fixed)\n`);
  return counts.fails ? 1 : counts['not judged'] ? 2 : 0;
}

interface Replaying {
  readonly baseUrl: string;
  readonly recorded: string;
  /** A placeholder may be filled into a URL (a loopback target, or --allow-key-in-url): access logs keep URLs. */
  readonly keyInUrl: boolean;
  readonly env: NodeJS.ProcessEnv;
  readonly send: ReturnType<typeof createTransport>;
  readonly checks: readonly Check[];
  readonly context: CheckContext;
  readonly sanitizer: Sanitizer;
}

async function replayItem(item: Item, r: Replaying): Promise<Outcome> {
  // The run's own judge, as the run has it: the same checks, crashes and answers that never came included.
  const judge = new RunJudge({ checks: r.checks, context: r.context, inRules: () => true, sanitizer: r.sanitizer, baseUrl: r.baseUrl, cap: MAX_FAILURES_PER_PAIR, keep: (e) => e, priorRequests: 0, skips: [] });
  let step = 0;
  for (const entry of item.entries) {
    const meta = entry._hostedSiteContract;
    if (!meta.replayable) return { kind: 'not judged', why: 'its request held a secret no placeholder rebuilds, or names no endpoint of the document (the report\'s curl line has it)' };
    // Recorded by the proxy with only a client's problems: they are in the request itself, which replay sends as it was.
    if (meta.sides?.length && !meta.sides.includes('server')) return { kind: 'not judged', why: 'the client\'s request itself broke the rule: fix the client and run it through the proxy again' };
    const endpoint = api.endpoints.find((e) => operation(e) === meta.operation);
    if (!endpoint) return { kind: 'not judged', why: `${meta.operation} is no endpoint of this version of the document` };
    const template = templateOfEntry(entry);
    // Only under the recorded base URL: a request the file sends elsewhere would take the keys with it.
    if (typeof r.recorded !== 'string' || !template.url.startsWith(`${r.recorded}/`)) return { kind: 'not judged', why: 'its URL is not under the base URL the file was recorded against: not sent (it would take your keys elsewhere)' };
    if (!r.keyInUrl && /\$[{(A-Za-z_]/.test(template.url.replaceAll('$$', ''))) return { kind: 'not judged', why: 'it puts a key in the URL, which access logs keep: not sent to a non-loopback server without --allow-key-in-url' };
    let request;
    try {
      request = fillRequest(template, r.env);
    } catch (error) {
      if (error instanceof PlaceholderError) return { kind: 'not judged', why: error.message };
      throw error;
    }
    const below = request.url.slice(r.recorded.length);
    const url = `${r.baseUrl}${below}`;
    if (meta.sequence?.afterMs && meta.sequence.step > 1) await new Promise((done) => setTimeout(done, meta.sequence!.afterMs));
    // The step's own endpoint, routed as the mock and the proxy route it: a sequence's steps are the actions and reads of a property.
    const stepEndpoint = item.entries.length > 1 ? (matchRoute(request.method, below.split('?')[0]!)?.endpoint ?? endpoint) : endpoint;
    const probe: Probe = { rule: meta.rule as RuleId, endpoint: stepEndpoint, expect: meta.expect as Expectation, title: meta.probe, request: { ...request, url }, ...(meta.idsUnknown ? { idsUnknown: true } : {}) };
    const exchange = await r.send(probe);
    // The server is not there: nothing to judge (exit 2, as conform's unreachable target), not a fault it still has.
    if (exchange.failure && ['throttled', 'budget', 'runner', 'refused'].includes(exchange.failure.kind)) return { kind: 'not judged', why: exchange.failure.message };
    judge.judge(exchange, step++);
  }
  // The run's errors (warnings do not fail it), each with the rules it broke, as the run would list them.
  const broken = judge.failureLog.listed().flatMap(({ failure: f }) => ((f.verdict.severity ?? 'error') === 'error' ? [`${(f.rules ?? [f.rule]).join('+')}: ${f.verdict.title}`] : []));
  if (broken.length) return { kind: 'fails', why: broken.join('; ') };
  if (item.entries.length > 1) return { kind: 'not judged', why: `each step answers as the document says; the property itself compares answers over time: rerun conform --only ${item.entries[0]!._hostedSiteContract.rule} --seed ${item.entries[0]!._hostedSiteContract.seed}` };
  return { kind: 'fixed' };
}

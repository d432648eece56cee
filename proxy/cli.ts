/**
 * `hosted-site-contract proxy --target URL`: a validating reverse proxy between a client and any
 * server. Its first stdout line is JSON with its `url` (like the mock's); each exchange with a
 * problem is one line on stderr as it happens (every exchange with `--verbose`); on SIGINT or
 * SIGTERM, after `--exit-after N` exchanges, when the command after `--` ends, or when the
 * process that started it goes away, the report in the formats asked for, and the exit code
 * `--fail-on` gives it. Every byte it writes passes the one sanitizer, which learns each key a
 * client sends and each secret an answer serves before anything is made of them.
 */
import { spawn } from 'node:child_process';
import type { IncomingHttpHeaders } from 'node:http';
import { constants } from 'node:os';
import { watchParent } from '../bin/parent-watch.ts';
import { probeReportFile, reportFileProblem, writeReportFile } from '../bin/report-file.ts';
import { oneOf, parseFlags, SetupError, UsageError, wholeNumberFlag } from '../bin/command.ts';
import { packageVersion, PROGRAM } from '../bin/package-info.ts';
import { DEFAULT_MAX_BODY_KB } from '../conformance/flags.ts';
import { withConfig } from '../bin/config.ts';
import { DEFAULT_TIMEOUT_MS, proxyFlagOptions } from './flags.ts';
import { keySecret, Sanitizer, type SanitizedStream } from '../sanitize/sanitizer.ts';
import { api } from '../spec/api.ts';
import { judgeExchange, type JudgedExchange, type SeenRequest, type SeenResponse } from './judge.ts';
import { FAIL_ON, ProxyLog, problemLine, renderConsole, renderJson, renderJunit, type ProxyReport } from './report.ts';
import { CLOSE_GRACE_MS, startProxy } from './server.ts';
import { credentialsIn } from './credentials.ts';
import { applyProxyBaseline, proxyBaselineOf } from './baseline.ts';
import { ProxyRecorder } from './record.ts';
import { readBaseline, renderBaseline, type Baseline } from '../conformance/baseline.ts';
import { renderHar } from '../conformance/replay/har.ts';

const PREFIX = `${PROGRAM} proxy`;
const REPORTERS = ['console', 'json', 'junit'] as const;
type Reporter = (typeof REPORTERS)[number];
/** Distinct client credentials the sanitizer learns (each is searched for in every output). */
const MAX_KEYS = 1000;
/** Characters of the `X-Contract-Problem` header: a header line stays short. */
const ANNOTATION_CHARS = 1000;


interface ProxyArgs {
  readonly target: URL;
  readonly host: string;
  readonly port: number;
  readonly capBytes: number;
  readonly timeoutMs: number;
  readonly reporters: readonly Reporter[];
  readonly output?: string;
  readonly failOn: (typeof FAIL_ON)[number];
  readonly exitAfter?: number;
  readonly annotate: boolean;
  readonly strict: boolean;
  readonly verbose: boolean;
  /** After `--`: a command run with HSC_PROXY_URL set; the proxy stops when it ends. */
  readonly command?: readonly string[];
  readonly baseline?: Baseline;
  readonly writeBaseline?: string;
  readonly record?: { readonly file: string; readonly all: boolean };
}

export function parseProxyArgs(given: readonly string[], env: NodeJS.ProcessEnv = process.env): ProxyArgs {
  const args = withConfig('proxy', given, proxyFlagOptions, env);
  const dashes = args.indexOf('--');
  const command = dashes < 0 ? undefined : args.slice(dashes + 1);
  if (command?.length === 0) throw new UsageError('-- must be followed by a command to run through the proxy (e.g. -- npm test)');
  const flags = parseFlags(dashes < 0 ? args : args.slice(0, dashes), proxyFlagOptions);
  if (flags.target === undefined) throw new UsageError('--target is required: the base URL of the server to forward to');
  if (flags['record-all'] && flags.record === undefined) throw new UsageError('--record-all needs --record FILE');
  let target: URL;
  try {
    target = new URL(flags.target);
  } catch {
    throw new UsageError('--target must be an http or https URL');
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new UsageError('--target must be an http or https URL');
  if (target.username || target.password) throw new UsageError('--target must not carry credentials (the client sends its own key)');
  if (!target.pathname.replace(/\/+$/, '').endsWith(api.basePath)) throw new UsageError(`--target must end in ${api.basePath}`);
  if (target.search || target.hash) throw new UsageError('--target takes no query or fragment');
  const reporters = [...new Set((flags.reporter ?? ['console']).map((r) => oneOf('--reporter', r, REPORTERS)!))];
  const files = reporters.filter((r) => r !== 'console');
  if (files.length > 0 && flags.output === undefined && reporters.length > 1) throw new UsageError(`--reporter ${files.join(' and ')} beside another reporter need --output`);
  if (flags.output !== undefined && files.length === 0) throw new UsageError('--output takes the json or junit report: give --reporter json or --reporter junit');
  // The command's own output goes to stdout too: a report there could not be parsed.
  if (command && files.length > 0 && flags.output === undefined) throw new UsageError(`with -- COMMAND, --reporter ${files.join(' and ')} need --output: the command writes to stdout as well`);
  const exitAfter = wholeNumberFlag('--exit-after', flags['exit-after'], undefined, 1, 1e9);
  return {
    target,
    host: flags.host ?? '127.0.0.1',
    port: wholeNumberFlag('--port', flags.port, 4011, 0, 65535),
    capBytes: wholeNumberFlag('--max-body-kb', flags['max-body-kb'], DEFAULT_MAX_BODY_KB, 1, 1024 * 1024) * 1024,
    timeoutMs: wholeNumberFlag('--timeout-ms', flags['timeout-ms'], DEFAULT_TIMEOUT_MS, 1, 3_600_000),
    reporters,
    ...(flags.output !== undefined ? { output: flags.output } : {}),
    failOn: oneOf('--fail-on', flags['fail-on'], FAIL_ON, 'any')!,
    ...(exitAfter !== undefined ? { exitAfter } : {}),
    annotate: flags.annotate ?? false,
    strict: flags.strict ?? false,
    verbose: flags.verbose ?? false,
    ...(command ? { command } : {}),
    ...(flags.baseline !== undefined ? { baseline: readBaseline(flags.baseline) } : {}),
    ...(flags['write-baseline'] !== undefined ? { writeBaseline: flags['write-baseline'] } : {}),
    ...(flags.record !== undefined ? { record: { file: flags.record, all: flags['record-all'] ?? false } } : {}),
  };
}

export interface ProxyIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly sanitizer?: Sanitizer;
  /** Resolves when the proxy should stop (default: SIGINT or SIGTERM). */
  readonly stopped?: Promise<void>;
  /** Distinct credentials learned before the proxy withholds (default MAX_KEYS; tests make it small). */
  readonly maxKeys?: number;
  /** Called once the proxy listens, with its base URL (tests, the programmatic API). */
  readonly listening?: (url: string) => void;
  /** Hears the report as the reporters get it (the programmatic API's result). */
  readonly onReport?: (report: ProxyReport) => void;
  /** Run inside another program (the programmatic API): no signal handlers, no watch on the parent process. */
  readonly embedded?: boolean;
}

/** The path of a request as a line shows it: no query (it may carry anything), clipped. */
const pathOf = (url: string): string => {
  const path = url.split('?')[0]!;
  return path.length > 200 ? `${path.slice(0, 200)}…` : path;
};

export async function runProxy(args: readonly string[], io: ProxyIo): Promise<number> {
  const options = parseProxyArgs(args);
  const sanitizer = io.sanitizer ?? new Sanitizer();
  const stdout = sanitizer.writer(io.stdout);
  const stderr = sanitizer.writer(io.stderr);
  const destinations = planOutputs(options);
  for (const d of destinations) if (d.file) {
    try {
      probeReportFile(d.file);
    } catch (error) {
      throw new SetupError(`--output: cannot write ${d.file}: ${reportFileProblem(error)}`);
    }
  }
  for (const file of [options.writeBaseline, options.record?.file]) if (file !== undefined) {
    try {
      probeReportFile(file);
    } catch (error) {
      throw new SetupError(`cannot write ${file}: ${reportFileProblem(error)}`);
    }
  }
  const recorder = options.record ? new ProxyRecorder(options.record.all, options.target.href.replace(/\/+$/, ''), sanitizer) : undefined;
  const log = new ProxyLog();
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));

  /**
   * Why the sanitizer can no longer vouch for text made of the traffic, or undefined: more keys
   * than it learns, more secrets served than it tracks, or a body it could not read
   * (`Sanitizer.overflow`). From then on such text is withheld (lines and the report keep the
   * side, the rule, the operation as the document writes it, the status); said once on stderr.
   */
  let unvouched: string | undefined;
  const withholding = (): string | undefined => {
    unvouched ??= sanitizer.overflow;
    if (unvouched !== undefined && !log.withheld) {
      log.withhold(unvouched);
      stderr.write(`${PREFIX}: ${unvouched}; from now on each line and the report show the rule, the operation and the status, and withhold the rest\n`);
    }
    return unvouched;
  };
  /** Learns the credentials a request carries, as its head arrives: before anything is forwarded or printed. */
  const keys = new Set<string>();
  const maxKeys = io.maxKeys ?? MAX_KEYS;
  const learn = (request: { readonly url: string; readonly headers: IncomingHttpHeaders }) => {
    for (const { carried, values } of credentialsIn(request)) {
      if (keys.has(carried)) continue;
      if (keys.size === maxKeys) {
        unvouched ??= `more than ${maxKeys} distinct credentials seen, more than the proxy learns`;
        return;
      }
      keys.add(carried);
      for (const value of values) sanitizer.add(keySecret(value, 'CLIENT_API_KEY'));
    }
  };
  // An annotated answer is judged before it is sent; the same judgement then goes to the report.
  const judged = new WeakMap<SeenRequest, JudgedExchange>();
  const judge = (request: SeenRequest, response: SeenResponse | undefined): JudgedExchange => {
    let verdict = judged.get(request);
    if (!verdict) {
      verdict = judgeExchange(request, response, { strict: options.strict, sanitizer, capBytes: options.capBytes });
      judged.set(request, verdict);
    }
    return verdict;
  };

  let proxy;
  try {
    proxy = await startProxy({
      target: options.target,
      host: options.host,
      port: options.port,
      capBytes: options.capBytes,
      timeoutMs: options.timeoutMs,
      sanitizer,
      onRequestHead: learn,
      ...(options.annotate
        ? {
            annotate: (request: SeenRequest, response: SeenResponse) => {
              const verdict = judge(request, response);
              if (verdict.problems.length === 0) return undefined;
              if (withholding()) return `${verdict.problems.map((p) => `${p.side} ${p.rule}`).join(' | ')} (details withheld)`;
              return annotation(sanitizer, verdict.problems.map(problemLine).join(' | '));
            },
          }
        : {}),
      onExchange: (request, outcome, ms) => {
        const response = 'failure' in outcome ? undefined : outcome;
        const verdict = judge(request, response);
        const failure = 'failure' in outcome ? outcome.failure : undefined;
        const withheld = withholding() !== undefined;
        // Withheld: the operation as the document writes it, never the path sent (it may hold what is not learned).
        const path = withheld ? (verdict.endpoint?.path ?? '(a path the document does not list)') : pathOf(request.url);
        const shown = withheld ? withholdDetails(verdict) : verdict;
        log.add(shown, { method: request.method, path, ...(response ? { status: response.status } : { failure: withheld ? WITHHELD : failure! }) }, withheld);
        recorder?.add(request, response, failure, verdict, ms, withheld);
        const answer = response ? String(response.status) : `no answer (${withheld ? WITHHELD : failure})`;
        const head = `${request.method} ${path} → ${answer} (${ms} ms)`;
        if (shown.problems.length > 0 || !response) {
          const mark = shown.problems.some((p) => p.severity === 'error') || !response ? '✗' : '!';
          stderr.write(`${sanitizer.oneLine(`${mark} ${head}${shown.problems.length ? `: ${shown.problems.map(problemLine).join(' | ')}` : ''}`)}\n`);
        } else if (options.verbose) stderr.write(`${sanitizer.oneLine(`✓ ${head}${shown.unjudged.length ? `: ${shown.unjudged.map((u) => u.why).join('; ')}` : ''}`)}\n`);
        if (options.exitAfter !== undefined && log.exchanges >= options.exitAfter) stop();
      },
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new SetupError(`cannot listen on ${options.host}:${options.port}: ${code ?? (error as Error).message}`);
  }
  stdout.write(`${JSON.stringify({ url: proxy.url, target: options.target.href.replace(/\/+$/, '') })}\n`);
  io.listening?.(proxy.url);
  // The first signal stops the proxy; a second while it stops is said and changes nothing (the
  // report is still written, the exit code still --fail-on's); a third forces the exit.
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals++;
    if (signals === 1) {
      const inFlight = proxy.inFlight();
      if (inFlight > 0) stderr.write(`${PREFIX}: ${signal}: stopping; ${inFlight} exchange(s) in flight get up to ${CLOSE_GRACE_MS / 1000} s to end, then the report\n`);
      return stop();
    }
    if (signals === 2) return void stderr.write(`${PREFIX}: ${signal} again: still stopping to write the report; a third forces an exit without it\n`);
    stderr.write(`${PREFIX}: ${signal} a third time: exiting now, without the report\n`);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  if (!io.embedded) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  // Started by a wrapper that dies without passing its signal on (npx): stop as on SIGTERM.
  const parent = io.embedded ? undefined : watchParent();
  void parent?.gone.then(() => {
    stderr.write(`${PREFIX}: the process that started it (npx, a shell) went away: stopping\n`);
    stop();
  });
  const ran = options.command ? runCommand(options.command, proxy.url, stderr, stop) : undefined;
  try {
    await Promise.race([stopped, ...(io.stopped ? [io.stopped] : [])]);
    ran?.stop(); // stopped first (a signal): the command is told to stop too
    await proxy.close();
    const seen = log.report({ name: PROGRAM, version: packageVersion() }, options.target.href.replace(/\/+$/, ''), options.failOn);
    let report = options.baseline ? applyProxyBaseline(seen, options.baseline, log.operations) : seen;
    if (options.writeBaseline !== undefined) {
      const written = proxyBaselineOf(report, options.baseline);
      await writeReportFile(options.writeBaseline, sanitizer.text(renderBaseline(written)));
      stderr.write(`${PREFIX}: baseline of ${written.findings.length} problem${written.findings.length === 1 ? '' : 's'} written to ${options.writeBaseline}\n`);
      report = applyProxyBaseline(seen, { file: options.writeBaseline, findings: written.findings }, log.operations);
    }
    if (recorder) {
      await writeReportFile(options.record!.file, sanitizer.text(renderHar(recorder.har())));
      stderr.write(`${PREFIX}: ${recorder.recorded} exchange${recorder.recorded === 1 ? '' : 's'} recorded in ${options.record!.file}${recorder.dropped ? ` (${recorder.dropped} not: past the limit, or withheld)` : ''}\n`);
    }
    io.onReport?.(report);
    const written = await writeReports(report, destinations, stdout, stderr, sanitizer);
    const own = !written ? 2 : report.ok ? 0 : 1;
    // The command's failure first: a test run that failed is what a CI step reports.
    const commandCode = ran ? await ran.ended : 0;
    if (ran && commandCode !== 0) stderr.write(`${PREFIX}: the command after -- exited ${commandCode}: that is the exit code, whatever the proxy saw\n`);
    if (ran && report.exchanges === 0) stderr.write(`${PREFIX}: the command after -- sent nothing through the proxy: does it read HSC_PROXY_URL?\n`);
    return commandCode !== 0 ? commandCode : own;
  } finally {
    parent?.stop();
    ran?.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/**
 * Runs `command` (after `--`) with the proxy's URL in HSC_PROXY_URL, its output the proxy's
 * terminal's; when it ends, the proxy stops. `ended` is its exit code (128 + the signal's number
 * when a signal ended it; 2 when it could not start, said on one line). A stop of the proxy
 * first (a signal) passes SIGTERM on to it.
 */
function runCommand(command: readonly string[], url: string, stderr: SanitizedStream, stop: () => void): { readonly ended: Promise<number>; stop(): void } {
  const child = spawn(command[0]!, command.slice(1), { stdio: 'inherit', env: { ...process.env, HSC_PROXY_URL: url } });
  const ended = new Promise<number>((resolve) => {
    child.once('error', (error) => {
      stderr.write(`${PREFIX}: cannot run the command after --: ${(error as NodeJS.ErrnoException).code ?? error.message}\n`);
      resolve(2);
    });
    child.once('exit', (code, signal) => resolve(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0)));
  }).finally(stop);
  return {
    ended,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    },
  };
}

/** What stands where text made of the traffic is withheld. */
const WITHHELD = '[withheld]';

/** A verdict with every word taken from the traffic withheld: sides, rules and severities kept. */
const withholdDetails = (verdict: JudgedExchange): JudgedExchange => ({
  ...verdict,
  problems: verdict.problems.map(({ at: _, ...p }) => ({ ...p, reason: WITHHELD })),
  unjudged: verdict.unjudged.map((u) => ({ kind: u.kind, why: WITHHELD })),
});

/**
 * The `X-Contract-Problem` value: one line of printable ASCII, at most ANNOTATION_CHARS. Folding
 * and cutting come after the sanitizer, and the sanitizer after them again: a `?` folded in for
 * `é`, or a cut, can make a secret's form (a key holding `?`) out of text that held none.
 */
export function annotation(sanitizer: Sanitizer, text: string): string {
  const folded = sanitizer.oneLine(text).replace(/[^\x20-\x7e]/g, '?');
  const cut = folded.length > ANNOTATION_CHARS ? `${folded.slice(0, ANNOTATION_CHARS)}...` : folded;
  // The last word is the sanitizer's: its input is ASCII, and so are the markers it puts in.
  return sanitizer.oneLine(cut);
}

interface Destination {
  readonly reporter: Reporter;
  readonly file?: string;
}

/** Console to stdout; json and junit to --output (the second with its own extension), or stdout when alone. */
function planOutputs(options: ProxyArgs): Destination[] {
  const files = options.reporters.filter((r) => r !== 'console');
  return options.reporters.map((reporter) => {
    if (reporter === 'console' || options.output === undefined) return { reporter };
    const extension = reporter === 'json' ? '.json' : '.xml';
    const file = files.indexOf(reporter) === 0 ? options.output : options.output.replace(/(\.[^./]*)?$/, extension);
    return { reporter, file };
  });
}

const renderers: Record<Reporter, (report: ProxyReport) => string> = { console: renderConsole, json: renderJson, junit: renderJunit };

/**
 * Writes each report; a file that cannot be written at the end (its directory gone) is said on
 * one line and the report goes to stdout instead, so the verdict is never lost. False then.
 */
async function writeReports(report: ProxyReport, destinations: readonly Destination[], stdout: SanitizedStream, stderr: SanitizedStream, sanitizer: Sanitizer): Promise<boolean> {
  let written = true;
  for (const d of destinations) {
    const text = renderers[d.reporter](report);
    if (!d.file) {
      stdout.write(text);
      continue;
    }
    try {
      await writeReportFile(d.file, sanitizer.text(text));
    } catch (error) {
      stderr.write(`${PREFIX}: cannot write ${d.file}: ${reportFileProblem(error)}; the ${d.reporter} report follows on stdout\n`);
      stdout.write(text);
      written = false;
    }
  }
  return written;
}

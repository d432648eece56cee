/**
 * `hosted-site-contract conform`: checks an implementation of the API against the document.
 * Without `--base-url` it starts the embedded mock and checks that (destructive requests allowed);
 * with it, it checks the live API starting from `--site-id`. Exit 0 conforms, 1 a check failed
 * (or was skipped, with `--fail-on-skip`), 2 bad usage or a target the suite cannot use (one
 * line, no stack trace). Every byte it writes, to a stream or a file, passes the one sanitizer.
 */
import { dirname, resolve } from 'node:path';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { REPORT_FILE_MODE, writeReportFile } from '../bin/report-file.ts';
import { didYouMean } from '../bin/did-you-mean.ts';
import { CONFIG_SCHEMA_REF, printableConfig } from '../bin/config.ts';
import { conformFlagOptions } from './flags.ts';
import { SetupError, UsageError } from '../bin/command.ts';
import { startMock, type MockFixtures } from '../mock/server.ts';
import { LETTER_VARIANT } from '../mock/variants/conformant.ts';
import { keySecret, Sanitizer, type SanitizedStream } from '../sanitize/sanitizer.ts';
import { bytes } from './body.ts';
import { CURL_WITHHELD } from './curl.ts';
import { discover, DiscoveryError, type Discovery } from './discovery.ts';
import { createTransport } from './http.ts';
import { RunBudget } from './schedule/budget.ts';
import { forecastOf, planLines } from './run/forecast.ts';
import type { RunPlan } from './run/plan.ts';
import { DEFAULT_SHRINK_BUDGET } from './shrink.ts';
import { liveSafetyNote } from './probes/inputs.ts';
import { MAX_JSON_DEPTH } from './json.ts';
import { isLoopback, parseConformArgs, type ConformOptions, type Destination } from './options.ts';
import { finalLine, nextStep, renderConsole, type ConsoleStyle } from './report/console.ts';
import { renderGithub } from './report/github.ts';
import { renderJobSummary } from './report/job-summary.ts';
import { createProgress } from './report/progress.ts';
import { renderJson } from './report/json.ts';
import { renderCtrf } from './report/ctrf.ts';
import { applyBaseline, baselineOf, renderBaseline } from './baseline.ts';
import { ExchangeRecorder, harOf, renderHar } from './replay/har.ts';
import { renderJunit } from './report/junit.ts';
import { runConformance, type FailureWanted, type Suite } from './runner.ts';
import type { Exchange, Report, Target } from './types.ts';

const PREFIX = 'hosted-site-contract conform';

export interface ConformIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  readonly env: NodeJS.ProcessEnv;
  /** The suite to apply (tests pass their own); default: every check, probe and scenario. */
  readonly suite?: Suite;
  /** The process's sanitizer (the CLI's dispatcher passes its own); default: a new one. */
  readonly sanitizer?: Sanitizer;
  /** A failure whose finding ends the run's sending (the self-test's fault runs). */
  readonly stopWhenFound?: FailureWanted;
  /** Hears the report as the reporters get it (baseline applied, sanitized): the programmatic API's result. */
  readonly onReport?: (report: Report) => void;
}

const defaultIo = (): ConformIo => ({ stdout: process.stdout, stderr: process.stderr, env: process.env });

interface Endpoints {
  readonly baseUrl: string;
  readonly main: { readonly apiKey: string; readonly siteId: string };
  readonly other?: { readonly apiKey: string; readonly siteId: string };
}

export async function runConform(args: readonly string[], io: ConformIo = defaultIo()): Promise<number> {
  const sanitizer = io.sanitizer ?? new Sanitizer();
  const stdout = sanitizer.writer(io.stdout);
  const stderr = sanitizer.writer(io.stderr);
  const options = parseConformArgs(args, io.env);
  if (args.includes('--print-config')) {
    // Checked as a run would take it (above), then shown, not run.
    await new Promise((done) => stdout.write(printableConfig('conform', args, conformFlagOptions, CONFIG_SCHEMA_REF), done));
    return 0;
  }
  if (options.live) sanitizer.add(keySecret(options.live.apiKey, 'HSC_API_KEY'));
  if (options.other) sanitizer.add(keySecret(options.other.apiKey, 'HSC_OTHER_API_KEY'));
  const suite = io.suite ?? (await import('./suite.ts')).defaultSuite;
  const starting = options.live ? undefined : startEmbedded(options);
  starting?.catch(() => {}); // awaited in the try below, whose finally closes it
  // Progress lines are counts only: the matcher as last built will do (no rebuild per line).
  const progress = createProgress(sanitizer.writer(io.stderr, { allowStale: true }));
  // The budget counts from here: discovery, probes, properties and clean-up all come out of it.
  const budget = new RunBudget({
    ...(options.maxRequests !== undefined ? { maxRequests: options.maxRequests } : {}),
    ...(options.maxDurationMs !== undefined ? { maxDurationMs: options.maxDurationMs } : {}),
  });
  const send = createTransport({
    timeoutMs: options.timeoutMs,
    rate: options.rate,
    connections: options.concurrency * 2,
    maxWaitMs: options.maxWaitS * 1000,
    bodyCap: options.maxBodyKb * 1024,
    sanitizer,
    budget,
  });
  let mock: Embedded | undefined;
  try {
    let endpoints: Endpoints;
    if (options.live) {
      endpoints = { baseUrl: options.live.baseUrl, main: options.live, ...(options.other ? { other: options.other } : {}) };
    } else {
      mock = await starting!;
      const f = mock.fixtures;
      endpoints = { baseUrl: mock.url, main: { apiKey: f.apiKey, siteId: f.siteId }, other: { apiKey: f.otherApiKey, siteId: f.otherSiteId } };
      sanitizer.add(keySecret(f.apiKey, 'HSC_API_KEY'));
      sanitizer.add(keySecret(f.otherApiKey, 'HSC_OTHER_API_KEY'));
      progress.say(`no --base-url: testing the embedded mock${mock.as ? ` (${mock.as})` : ''} at ${mock.url}`);
    }

    const startedAt = Date.now();
    const recorder = options.recordAll ? new ExchangeRecorder(sanitizer, options.seed) : undefined;
    // Our own mock: every action may act anywhere in it, as --allow-destructive is always on there.
    const allowLive = options.allowLive || mock !== undefined;
    let main: Discovery;
    let other: Discovery | undefined;
    try {
      main = await discover({ baseUrl: endpoints.baseUrl, ...endpoints.main, send, label: '--site-id', allowLive });
      // Under a budget the second company is explored only as far as isolation needs: one environment.
      if (endpoints.other) other = await discover({ baseUrl: endpoints.baseUrl, ...endpoints.other, send, label: '--other-site-id', allowLive, ...(budget.bounded ? { maxEnvironments: 1 } : {}) });
    } catch (error) {
      if (!(error instanceof DiscoveryError)) throw error;
      progress.end();
      stderr.write(`${PREFIX}: ${sanitizer.message(error)}\n`);
      return 2;
    }
    if (sanitizer.overflow) return overflowed(sanitizer.overflow, stderr, progress);

    const target: Target = {
      baseUrl: endpoints.baseUrl,
      main: { apiKey: endpoints.main.apiKey, ids: main.ids },
      ...(other && endpoints.other ? { other: { apiKey: endpoints.other.apiKey, ids: other.ids } } : {}),
      allowDestructive: options.allowDestructive || mock !== undefined,
      allowLive,
      embedded: mock !== undefined,
      keyInUrl: mock !== undefined || options.allowKeyInUrl || isLoopback(endpoints.baseUrl),
    };
    const report = await runConformance({
      target,
      seed: options.seed,
      runs: options.runs,
      options: { strict: options.strict, ...(options.stateWindowS !== undefined ? { stateWindowMs: options.stateWindowS * 1000 } : {}) },
      only: options.only,
      failOnSkip: options.failOnSkip,
      concurrency: options.concurrency,
      send,
      suite,
      sanitizer,
      budget,
      pacing: send.pacing,
      runnerDelay: () => send.stats().runner,
      readyIn: send.readyIn,
      onProgress: progress.update,
      // Against an external target, the plan is said before the first probe: it may take long.
      ...(mock ? {} : { onPlan: (plan: RunPlan) => planLines(plan, forecastOf(plan, DEFAULT_SHRINK_BUDGET.perRun), send.pacing(), budget).forEach((line) => progress.say(line)) }),
      notes: [...main.notes, ...(other?.notes.map((n) => n.replace(/^discovery:/, 'discovery (other company):')) ?? []), ...[liveSafetyNote(target)].filter((n) => n !== undefined)],
      prior: [...main.exchanges, ...(other?.exchanges ?? [])],
      ...(io.stopWhenFound ? { stopWhenFound: io.stopWhenFound } : {}),
      ...(recorder ? { heard: (exchange: Exchange) => recorder.add(exchange) } : {}),
      startedAt,
      reportOptions: {
        allowLive,
        keyInUrl: target.keyInUrl === true,
        timeoutMs: options.timeoutMs,
        rate: options.rate ?? 'auto',
        maxRequests: options.maxRequests ?? null,
        maxDurationMs: options.maxDurationMs ?? null,
        maxWaitS: options.maxWaitS,
        maxBodyKb: options.maxBodyKb,
        maxJsonDepth: MAX_JSON_DEPTH,
        reporters: options.destinations.map((d) => d.reporter),
      },
    });
    progress.end();
    if (sanitizer.overflow) return overflowed(sanitizer.overflow, stderr, progress);
    const waited = send.stats().waitedMs;
    // The runner's report left it sanitized, and no secret is learned after it: only the new note
    // needs the sanitizer here (every output passes it once more as text).
    const bounded: Report = {
      ...report,
      notes: [
        ...report.notes,
        sanitizer.text(
          `limits: answers read up to ${bytes(options.maxBodyKb * 1024)} (--max-body-kb) and ${MAX_JSON_DEPTH} levels of nesting (ASM-BODY-BOUNDS); each request given ${options.timeoutMs} ms (--timeout-ms); pauses on 429s added up to ${(waited / 1000).toFixed(1)} s of the run's budget of ${options.maxWaitS} s (--max-wait-s)`,
        ),
      ],
    };
    let judged = options.baseline ? applyBaseline(bounded, options.baseline) : bounded;
    if (options.writeBaseline !== undefined) {
      const written = baselineOf(judged, options.baseline);
      const count = `${written.findings.length} finding${written.findings.length === 1 ? '' : 's'}`;
      if (await writeSaid(options.writeBaseline, renderBaseline(written), 'the baseline', `baseline of ${count} written to ${options.writeBaseline}`, { stderr, sanitizer })) return 2;
      judged = applyBaseline(bounded, { file: options.writeBaseline, findings: written.findings });
    }
    if (options.record !== undefined) {
      const har = recorder ? recorder.har(judged) : harOf(judged);
      const what = recorder ? 'exchange' : 'failing exchange';
      const past = recorder?.dropped ? ` (${recorder.dropped} more not recorded: past the first ${har.log.entries.length})` : '';
      const said = `${har.log.entries.length} ${what}${har.log.entries.length === 1 ? '' : 's'} recorded in ${options.record}${past} (replay FILE --base-url URL re-sends them)`;
      if (await writeSaid(options.record, renderHar(har), 'the recording', said, { stderr, sanitizer })) return 2;
    }
    io.onReport?.(judged);
    return (await writeReports(judged, options, io, { stdout, stderr, sanitizer })) ?? (judged.ok ? 0 : 1);
  } finally {
    progress.end();
    await send.close();
    await (mock ?? (await starting?.catch(() => undefined)))?.close();
  }
}

/** The embedded mock as conform uses it: where it listens, its fixtures, and what it plays (variant, layout). */
interface Embedded {
  readonly url: string;
  readonly fixtures: MockFixtures;
  readonly as: string;
  close(): Promise<void>;
}

async function startEmbedded(options: ConformOptions): Promise<Embedded> {
  // The reference mock takes the reading side of several conflicts; --strict asks for the letter.
  const variantName = options.mockVariant ?? (options.strict ? LETTER_VARIANT : undefined);
  const variant = variantName ? await checkedVariant(variantName) : undefined;
  const layout = options.mockLayout ?? variant?.layout;
  const as = [variantName && `variant ${variantName}`, layout && `layout ${layout}`].filter(Boolean).join(', ');
  try {
    const mock = await startMock({ port: 0, ...(variant ? { variant } : {}), ...(options.mockLayout ? { layout: options.mockLayout } : {}) });
    return { url: mock.url, fixtures: mock.fixtures, as, close: () => mock.close() };
  } catch (error) {
    throw new SetupError(`cannot start the embedded mock: ${(error as Error).message}`);
  }
}

/**
 * The target served more secret values than the sanitizer tracks: nothing more is written, since
 * an answer might hold one it no longer hides. One line, exit 2 (a target the suite cannot use).
 */
function overflowed(why: string, stderr: SanitizedStream, progress: { end: () => void }): number {
  progress.end();
  stderr.write(`${PREFIX}: stopped: ${why}; no report is written, since one might show a value the suite no longer hides\n`);
  return 2;
}

async function checkedVariant(name: string) {
  const { allVariants } = await import('../mock/variants/index.ts');
  // (LETTER_VARIANT is in the catalogue, so --strict always finds its mock.)
  const variant = allVariants().find((v) => v.name === name);
  if (!variant) throw new UsageError(`--mock-variant: no variant named '${name}'${didYouMean(name, allVariants().map((v) => v.name)) || ' (list them with: hosted-site-contract self-test --list)'}`);
  return variant;
}

/**
 * Writes every report through the sanitizing streams, files through the sanitizer too, the job
 * summary after them and the console report last, so its verdict is the last line a reader sees.
 * A file that cannot be written (checked before the run, but a disk may fill) is one line and exit 2.
 */
async function writeReports(
  report: Report,
  options: ConformOptions,
  io: ConformIo,
  out: { stdout: SanitizedStream; stderr: SanitizedStream; sanitizer: Sanitizer },
): Promise<number | undefined> {
  const write = async (d: Destination): Promise<number | undefined> => {
    const stream = d.to === 'stdout' ? out.stdout : d.to === 'stderr' ? out.stderr : undefined;
    const columns = stream?.isTTY === true ? stream.columns : undefined;
    const style = { color: stream?.isTTY === true && !io.env.NO_COLOR, verbose: options.verbose, ...(columns ? { columns } : {}) };
    const text = rendered(d.reporter, (r) => render(d, r, style), report, out);
    if (typeof d.to !== 'object') return new Promise<undefined>((resolve) => stream!.write(text, () => resolve(undefined)));
    return (await writeSaid(d.to.file, text, `the ${d.reporter} report`, `${d.reporter} report written to ${d.to.file}`, out)) ? 2 : undefined;
  };
  const consoles = options.destinations.filter((d) => d.reporter === 'console');
  let failed: number | undefined;
  for (const d of options.destinations.filter((d) => d.reporter !== 'console')) failed = (await write(d)) ?? failed;
  if (options.stepSummary !== undefined) failed = (await appendJobSummary(options.stepSummary, report, out)) ?? failed;
  for (const d of consoles) failed = (await write(d)) ?? failed;
  if (!consoles.length) out.stderr.write(`${finalLine(report)}\n`);
  // For a person at a terminal, after the whole report: a log keeps the verdict as its last line.
  const next = nextStep(report);
  if (next && consoles.length && out.stderr.isTTY === true) out.stderr.write(`${next}\n`);
  return failed;
}

/**
 * A rendering as it may leave the process. The report was sanitized value by value; should its
 * rendering still hold something to hide (a secret made of the renderer's own text), the curl
 * lines go first: a replacement inside one could break its shell quoting.
 */
/**
 * A file the run writes (a report, the baseline, the recording): through the sanitizer as a
 * stream is, 0600, never through a link; one line on stderr either way. True when it could not be written.
 */
async function writeSaid(file: string, text: string, what: string, written: string, out: { stderr: SanitizedStream; sanitizer: Sanitizer }): Promise<boolean> {
  try {
    await writeReportFile(file, out.sanitizer.text(text));
    out.stderr.write(`${PREFIX}: ${written}\n`);
    return false;
  } catch (error) {
    out.stderr.write(`${PREFIX}: cannot write ${what} to ${file}: ${out.sanitizer.message(error)}\n`);
    return true;
  }
}

function rendered(name: string, render: (report: Report) => string, report: Report, out: { stderr: SanitizedStream; sanitizer: Sanitizer }): string {
  const text = render(report);
  if (out.sanitizer.spans(text).length === 0) return text;
  const withheld = render({ ...report, failures: report.failures.map((f) => ({ ...f, curl: CURL_WITHHELD })), warnings: report.warnings.map((f) => ({ ...f, curl: CURL_WITHHELD })) });
  const hidden = out.sanitizer.text(withheld);
  // Left after every value was sanitized: a secret the target served that is made of the
  // report's own words or syntax. It is hidden all the same; the report may no longer parse.
  if (hidden !== withheld && name !== 'console') {
    out.stderr.write(`${PREFIX}: the ${name} report had to be changed after rendering, to hide a value the target served that matches the report's own text; it may not parse\n`);
  }
  return hidden;
}

/**
 * `--reporter github` in a workflow step: the job summary appended to the file GitHub gave the
 * step (what earlier commands wrote there stays), after a blank line that ends any table left
 * open there, never through a link. Undefined when written, 2 when it could not be.
 */
async function appendJobSummary(file: string, report: Report, out: { stderr: SanitizedStream; sanitizer: Sanitizer }): Promise<number | undefined> {
  const text = out.sanitizer.text(`\n\n${rendered('job summary', renderJobSummary, report, out)}`);
  try {
    const handle = await open(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, REPORT_FILE_MODE);
    try {
      await handle.writeFile(text);
    } finally {
      await handle.close();
    }
    out.stderr.write(`${PREFIX}: job summary appended to ${file} (GITHUB_STEP_SUMMARY)\n`);
    return undefined;
  } catch (error) {
    out.stderr.write(`${PREFIX}: cannot append the job summary to ${file} (GITHUB_STEP_SUMMARY): ${out.sanitizer.message(error)}\n`);
    return 2;
  }
}

function render(d: Destination, report: Report, style: ConsoleStyle): string {
  switch (d.reporter) {
    case 'console':
      return renderConsole(report, style);
    case 'json':
      return renderJson(report, typeof d.to === 'object' ? resolve(dirname(d.to.file)) : process.cwd());
    case 'junit':
      return renderJunit(report);
    case 'github':
      return renderGithub(report);
    case 'ctrf':
      return renderCtrf(report);
  }
}

/**
 * `hosted-site-contract conform`: checks an implementation of the API against the document.
 * Without `--base-url` it starts the embedded mock and checks that (destructive requests allowed);
 * with it, it checks the live API starting from `--site-id`. Exit 0 conforms, 1 a check failed,
 * 2 bad usage or a target the suite cannot use (one line, no stack trace).
 */
import { writeFile } from 'node:fs/promises';
import { UsageError } from '../bin/command.ts';
import { startMock, type RunningMock } from '../mock/server.ts';
import { LETTER_VARIANT } from '../mock/variants/conformant.ts';
import { discover, DiscoveryError, type Discovery } from './discovery.ts';
import { createTransport } from './http.ts';
import { parseConformArgs, type ConformOptions, type Destination } from './options.ts';
import { createRedactor } from './redact.ts';
import { createProgress, finalLine, renderConsole } from './report/console.ts';
import { renderJson } from './report/json.ts';
import { renderJunit } from './report/junit.ts';
import { runConformance, secretsOf, type Suite } from './runner.ts';
import type { Report, Target } from './types.ts';

const PREFIX = 'hosted-site-contract conform';

export interface ConformIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  readonly env: NodeJS.ProcessEnv;
  /** The suite to apply (tests pass their own); default: every check, probe and scenario. */
  readonly suite?: Suite;
}

const defaultIo = (): ConformIo => ({ stdout: process.stdout, stderr: process.stderr, env: process.env });

export async function runConform(args: readonly string[], io: ConformIo = defaultIo()): Promise<number> {
  const options = parseConformArgs(args, io.env);
  const suite = io.suite ?? (await import('./suite.ts')).defaultSuite;
  const progress = createProgress(io.stderr);
  const send = createTransport({ timeoutMs: options.timeoutMs, rate: options.rate, connections: options.concurrency * 2 });
  let mock: RunningMock | undefined;
  try {
    let endpoints: { baseUrl: string; main: { apiKey: string; siteId: string }; other?: { apiKey: string; siteId: string } };
    if (options.live) {
      endpoints = { baseUrl: options.live.baseUrl, main: options.live, ...(options.other ? { other: options.other } : {}) };
    } else {
      // The reference mock takes the reading side of several conflicts; --strict asks for the letter.
      const variantName = options.mockVariant ?? (options.strict ? LETTER_VARIANT : undefined);
      mock = await startMock({ port: 0, ...(variantName ? { variant: await checkedVariant(variantName) } : {}) });
      const f = mock.fixtures;
      endpoints = { baseUrl: mock.url, main: { apiKey: f.apiKey, siteId: f.siteId }, other: { apiKey: f.otherApiKey, siteId: f.otherSiteId } };
      progress.say(`no --base-url: testing the embedded mock${variantName ? ` (variant ${variantName})` : ''} at ${mock.url}`);
    }
    const keys = createRedactor(
      [endpoints.main.apiKey, endpoints.other?.apiKey]
        .filter((v): v is string => !!v)
        .map((value, i) => ({ value, name: i ? 'HSC_OTHER_API_KEY' : 'HSC_API_KEY' })),
    );

    const startedAt = Date.now();
    let main: Discovery;
    let other: Discovery | undefined;
    try {
      main = await discover({ baseUrl: endpoints.baseUrl, ...endpoints.main, send, label: '--site-id' });
      if (endpoints.other) other = await discover({ baseUrl: endpoints.baseUrl, ...endpoints.other, send, label: '--other-site-id' });
    } catch (error) {
      if (!(error instanceof DiscoveryError)) throw error;
      progress.end();
      io.stderr.write(`${PREFIX}: ${keys.text(error.message)}\n`);
      return 2;
    }

    const target: Target = {
      baseUrl: endpoints.baseUrl,
      main: { apiKey: endpoints.main.apiKey, ids: main.ids },
      ...(other && endpoints.other ? { other: { apiKey: endpoints.other.apiKey, ids: other.ids } } : {}),
      allowDestructive: options.allowDestructive || mock !== undefined,
      embedded: mock !== undefined,
    };
    const report = await runConformance({
      target,
      seed: options.seed,
      runs: options.runs,
      options: { strict: options.strict },
      only: options.only,
      concurrency: options.concurrency,
      send,
      suite,
      onProgress: progress.update,
      notes: [...main.notes, ...(other?.notes.map((n) => n.replace(/^discovery:/, 'discovery (other company):')) ?? [])],
      priorRequests: main.requests + (other?.requests ?? 0),
      startedAt,
      reportOptions: { timeoutMs: options.timeoutMs, rate: options.rate ?? null, reporters: options.destinations.map((d) => d.reporter) },
    });
    progress.end();
    // The runner redacted the report; this second pass over the rendered text guards the keys.
    const safe = createRedactor(secretsOf(target));
    await writeReports(report, options, io, (text) => safe.text(text));
    return report.ok ? 0 : 1;
  } finally {
    progress.end();
    await send.close();
    await mock?.close();
  }
}

async function checkedVariant(name: string) {
  const { catalogue } = await import('../mock/variants/index.ts');
  // (LETTER_VARIANT is in the catalogue, so --strict always finds its mock.)
  const variant = catalogue.find((v) => v.name === name);
  if (!variant) throw new UsageError(`--mock-variant: no variant named '${name}' (list them with: hosted-site-contract self-test --list)`);
  return variant;
}

async function writeReports(report: Report, options: ConformOptions, io: ConformIo, redact: (text: string) => string): Promise<void> {
  const consoleChosen = options.destinations.some((d) => d.reporter === 'console');
  for (const d of options.destinations) {
    const stream = d.to === 'stdout' ? io.stdout : d.to === 'stderr' ? io.stderr : undefined;
    const text = redact(render(d, report, stream?.isTTY === true && !io.env.NO_COLOR));
    if (typeof d.to === 'object') {
      await writeFile(d.to.file, text);
      io.stderr.write(`${PREFIX}: ${d.reporter} report written to ${d.to.file}\n`);
    } else {
      await new Promise<void>((resolve) => stream!.write(text, () => resolve()));
    }
  }
  if (!consoleChosen) io.stderr.write(`${redact(finalLine(report))}\n`);
}

function render(d: Destination, report: Report, color: boolean): string {
  switch (d.reporter) {
    case 'console':
      return renderConsole(report, { color });
    case 'json':
      return renderJson(report);
    case 'junit':
      return renderJunit(report);
  }
}

/**
 * `conform(options)`: the suite from code, for a team's own vitest or jest run. Its options are
 * the flags of `conform` in camelCase, as a config file's `conform` section takes them (and
 * judged by the same parser, with the same words); it resolves to the typed report.
 */
import { Writable } from 'node:stream';
import { optionArgs, type ConfigSection } from '../bin/config.ts';
import { runConform } from './cli.ts';
import { conformFlagOptions } from './flags.ts';
import type { Report } from './types.ts';

export interface ConformApiOptions extends ConfigSection<typeof conformFlagOptions> {
  /** Where `HSC_API_KEY` and `${NAME}` references are read (default: process.env). */
  readonly env?: NodeJS.ProcessEnv;
  /** Where the reporters write (default: nowhere; with `reporter` and no `output`, give these). */
  readonly stdout?: NodeJS.WritableStream;
  readonly stderr?: NodeJS.WritableStream;
}

export interface ConformResult {
  /** The exit code the command would give: 0 conforms, 1 a check failed. */
  readonly exitCode: 0 | 1;
  readonly ok: boolean;
  /** The run's report, as `--reporter json` writes it (without `$schema`, `format` and `tool`). */
  readonly report: Report;
}

/** A run that could not judge (bad options, a target it cannot use): its one-line reason, and exit code 2 as the command gives it. */
export class ConformError extends Error {
  override readonly name = 'ConformError';
  readonly exitCode = 2 as const;
}

const nowhere = () => new Writable({ write: (_chunk, _encoding, done) => done() });

/**
 * Runs the suite: against `baseUrl` (with `siteId`, and the key in `apiKey` or `env.HSC_API_KEY`),
 * or without it against the embedded mock. A config file is read only when `config` names one.
 *
 * @example
 * const { ok, report } = await conform({ baseUrl: mock.url, siteId: mock.fixtures.siteId, apiKey: mock.fixtures.apiKey });
 */
export async function conform(options: ConformApiOptions = {}): Promise<ConformResult> {
  const { env = process.env, stdout, stderr, ...flags } = options;
  let said = '';
  const errors = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      // Only the tail is kept: the last line says why a run could not judge.
      said = (said + chunk.toString('utf8')).slice(-4096);
      if (stderr) stderr.write(chunk, done);
      else done();
    },
  });
  let report: Report | undefined;
  let code: number;
  try {
    code = await runConform(optionArgs('conform()', flags, conformFlagOptions, env), { stdout: stdout ?? nowhere(), stderr: errors, env, onReport: (r) => (report = r) });
  } catch (error) {
    throw new ConformError((error as Error).message);
  }
  if (!report || code === 2) throw new ConformError(said.trim().split('\n').at(-1) || `the run ended with exit code ${code} and no report`);
  return { exitCode: code === 0 ? 0 : 1, ok: report.ok, report };
}

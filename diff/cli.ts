/**
 * `hosted-site-contract diff --from REF|FILE [--to REF|FILE]`: compares two contract snapshots
 * and reports every change, classified. Exit 0 compared, 1 a change of the `--fail-on` class, 2
 * bad usage, a snapshot that cannot be had, or (with `--fail-on`) a stale working-tree snapshot
 * (one line, no stack trace). Every byte it writes passes the sanitizer.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { oneOf, parseFlags, SetupError, UsageError } from '../bin/command.ts';
import { withConfig } from '../bin/config.ts';
import { applyIgnore, ignoreFileOf, readIgnore } from './ignore.ts';
import { reportFileProblem, writeReportFile } from '../bin/report-file.ts';
import { Sanitizer } from '../sanitize/sanitizer.ts';
import { BREAKING, type ChangeClass } from './change.ts';
import { diffContracts } from './engine.ts';
import { DIFF_FORMATS, diffFlagOptions, FAIL_ON } from './flags.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';
import { countsLine, reportOf, sidesLine, type DiffReport } from './report.ts';
import { load, loadWorkingTree } from './source.ts';
import { isStale, STALE } from './stale.ts';

const PREFIX = 'hosted-site-contract diff';
const packageRoot = fileURLToPath(new URL('..', import.meta.url));

export interface DiffIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  /** Where refs and relative paths are read from (default: the process's working directory). */
  readonly cwd?: string;
  /** The package's own folder (default: the one this module is in); tests stand a clone in for it. */
  readonly packageRoot?: string;
  readonly sanitizer?: Sanitizer;
}

type Format = (typeof DIFF_FORMATS)[number];
type FailOn = (typeof FAIL_ON)[number];

const renderers: Record<Format, (report: DiffReport, failing: readonly ChangeClass[]) => string> = {
  markdown: renderMarkdown,
  json: (report) => `${JSON.stringify(report, null, 2)}\n`,
  junit: renderJunit,
};

const failingClasses = (failOn: FailOn): readonly ChangeClass[] => (failOn === 'any' ? BREAKING : [failOn]);

export async function runDiff(args: readonly string[], io: DiffIo = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  try {
    return await diff(args, io);
  } catch (error) {
    if (error instanceof UsageError || error instanceof SetupError) throw error;
    // Exit 1 is the verdict "a change of the --fail-on class": a bug of ours must never read as one.
    throw new SetupError(`internal error: ${error instanceof Error ? error.message : String(error)} (a bug of hosted-site-contract, not a verdict)`);
  }
}

async function diff(args: readonly string[], io: DiffIo): Promise<number> {
  const sanitizer = io.sanitizer ?? new Sanitizer();
  const stdout = sanitizer.writer(io.stdout);
  const stderr = sanitizer.writer(io.stderr);
  const flags = parseFlags(withConfig('diff', args, diffFlagOptions, process.env, io.cwd ?? process.cwd()), diffFlagOptions);
  if (flags.from === undefined || flags.from === '') throw new UsageError('--from REF|FILE is required');
  if (flags.to === '') throw new UsageError('--to needs a ref or a file');
  if (flags.output === '') throw new UsageError('--output needs a file');
  const format = oneOf('--format', flags.format, DIFF_FORMATS, 'markdown')!;
  const failOn = oneOf('--fail-on', flags['fail-on'], FAIL_ON);
  const cwd = io.cwd ?? process.cwd();
  if (flags.ignore === '' || flags['write-ignore'] === '') throw new UsageError('--ignore and --write-ignore need a file');
  const ignoreList = flags.ignore !== undefined ? readIgnore(flags.ignore, resolve(cwd, flags.ignore)) : undefined;

  const ownRoot = io.packageRoot ?? packageRoot;
  const [from, to] = await Promise.all([load(flags.from, cwd), flags.to === undefined ? loadWorkingTree(cwd, ownRoot) : load(flags.to, cwd)]);
  if (to.repository !== undefined && (await isStale(to.repository, ownRoot))) {
    // A pass from --fail-on would vouch for model edits the snapshot does not hold: no verdict.
    if (failOn) throw new SetupError(`${STALE} (--fail-on ${failOn} cannot judge model edits the snapshot does not hold)`);
    stderr.write(`${PREFIX}: warning: ${STALE}\n`);
  }
  const found = reportOf(
    { source: from.source, specVersion: from.snapshot.specVersion },
    { source: to.source, specVersion: to.snapshot.specVersion },
    diffContracts(from.snapshot, to.snapshot),
  );
  const report = ignoreList ? applyIgnore(found, ignoreList) : found;
  if (flags['write-ignore'] !== undefined) {
    try {
      await writeReportFile(resolve(cwd, flags['write-ignore']), sanitizer.text(ignoreFileOf(report)));
    } catch (error) {
      throw new SetupError(`cannot write ${flags['write-ignore']}: ${reportFileProblem(error)}`);
    }
    stderr.write(`${PREFIX}: ignore file written to ${flags['write-ignore']}\n`);
  }
  const text = renderers[format](report, failOn ? failingClasses(failOn) : BREAKING);
  if (flags.output === undefined) stdout.write(text);
  else {
    try {
      await writeReportFile(resolve(cwd, flags.output), sanitizer.text(text));
    } catch (error) {
      throw new SetupError(`cannot write ${flags.output}: ${reportFileProblem(error)}`);
    }
    stderr.write(`${PREFIX}: ${sidesLine(report)}: ${countsLine(report)}; ${format} report written to ${flags.output}\n`);
  }
  if (!failOn) return 0;
  const failing = report.changes.filter((c) => c.ignored === undefined && c.classes.some((k) => failingClasses(failOn).includes(k)));
  if (failing.length === 0) return 0;
  stderr.write(`${PREFIX}: ${failing.length} ${failOn === 'any' ? 'breaking' : failOn} change${failing.length === 1 ? '' : 's'} (--fail-on ${failOn})\n`);
  return 1;
}

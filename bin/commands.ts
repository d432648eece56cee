/**
 * The commands of `hosted-site-contract`, one row each: name, summary, usage, flags, and how to
 * run it. Kept apart from the dispatcher (cli.ts), which runs at import, so the reference docs
 * (scripts/reference-docs.ts) read the same rows `help` prints. Each command's module is imported
 * only when it runs: `help` stays instant, and a command pays only for what it uses.
 */
import { existsSync } from 'node:fs';
import { mockFlags } from '../mock/flags.ts';
import { conformFlags } from '../conformance/flags.ts';
import { replayFlags } from '../conformance/replay/flags.ts';
import { diffFlags } from '../diff/flags.ts';
import { proxyFlags } from '../proxy/flags.ts';
import { SetupError, type Command } from './command.ts';

export const commands: readonly Command[] = [
  {
    name: 'generate',
    summary: 'write generated/ from the model (a development command of the repository; the installed package only says so)',
    usage: 'generate [--check] [--out DIR] [--source FILE]',
    flags: [
      '--check        regenerate in memory; exit 1 naming each stale, missing or unexpected file',
      '--out DIR      the directory to write or check (default: generated/ of this repository)',
      '--source FILE  the published document to compare with the model\'s copy spec/document/hosted-site-api.md',
      '               (default: ../shared/spec/hosted-site-api.md, when it exists)',
    ],
    run: async (args) => (await generator()).runGenerate(args),
  },
  {
    name: 'mock',
    summary: 'run the reference mock server (prints one JSON line with its URL and test keys)',
    usage: 'mock [--host HOST] [--port PORT] [--variant NAME] [--layout NAME] [--unmarked-fields optional|required] [--log text|json|off] [--rate-limit N/WINDOW]',
    flags: mockFlags,
    run: async (args, { sanitizer }) => (await import('../mock/cli.ts')).runMock(args, sanitizer),
  },
  {
    name: 'explain',
    summary: 'what a code of the model means (a rule id such as AUTH-401, UNK-*, ASM-*, CONFLICT-*); without one, every code',
    usage: 'explain [CODE]',
    flags: [
      'CODE  the code, in any case: prints its statement, where the document says it, and what the model records',
      '      of it (the endpoints it covers, the side the mock and the suite take, the fields that rest on it)',
      '',
      'exit codes: 0 printed, 2 no such code (naming the nearest codes) or bad usage',
    ],
    run: async (args) => (await import('./explain.ts')).runExplain(args, process.stdout),
  },
  {
    name: 'conform',
    summary: 'check an API against the document (without --base-url: the embedded mock); exit 1 on any failure',
    usage: 'conform [--base-url URL --api-key KEY --site-id UUID] [--reporter console|json|junit|github|ctrf]... [--output FILE] [more: help conform]',
    flags: conformFlags,
    run: async (args, { sanitizer }) => (await import('../conformance/cli.ts')).runConform(args, { stdout: process.stdout, stderr: process.stderr, env: process.env, sanitizer }),
  },
  {
    name: 'self-test',
    summary: 'run the suite against every fault and conformant variant of the mock; print the detection score',
    usage: 'self-test [--list] [--only NAME,...] [--variants FILE] [--max-requests N] [--max-duration D] [--shard I/N] [--jobs N] [--json FILE]',
    flags: [
      '--list           list the catalogue (name, the rule and operation a fault must be caught as); with --only or --shard, the variants a run would take',
      '--only NAME,...  run only these variants',
      '--variants FILE  also run the variants a module of your own exports as `variants` (the format of mock/variant.ts):',
      '                 faults written by someone who has not read the suite measure it best',
      "--max-requests N pass each run this budget (a live API's: e.g. 300 at 120 requests a minute for 2.5 minutes)",
      '--max-duration D likewise, a budget of time (90s, 10m)',
      '--shard I/N      run shard I of N (a CI matrix job): every Nth of the chosen variants in catalogue order,',
      '                 starting with the Ith; the N shards together run each chosen variant exactly once',
      '--jobs N         conform runs in parallel (default: the number of CPUs, at least 2)',
      '--json FILE      also write the result as JSON (for CI)',
      '',
      'exit 1 unless every fault is killed on its own rule and operation and no conformant variant fails',
    ],
    run: async (args) => (await import('../conformance/self-test.ts')).runSelfTest(args),
  },
  {
    name: 'diff',
    summary: 'compare two contract snapshots (generated/contract.json) and classify every change; exit 1 with --fail-on',
    usage: 'diff --from REF|FILE [--to REF|FILE] [--format markdown|json|junit] [--output FILE] [--fail-on client-breaking|server-breaking|any]',
    flags: diffFlags,
    run: async (args, { sanitizer }) => (await import('../diff/cli.ts')).runDiff(args, { stdout: process.stdout, stderr: process.stderr, sanitizer }),
  },
  {
    name: 'replay',
    summary: 're-send the failing exchanges conform --record wrote (HAR) and judge them again; exit 0 when all are fixed',
    usage: 'replay FILE.har [--base-url URL] [--timeout-ms N] [--strict]',
    flags: replayFlags,
    run: async (args, { sanitizer }) => (await import('../conformance/replay/cli.ts')).runReplay(args, { stdout: process.stdout, stderr: process.stderr, env: process.env, sanitizer }),
  },
  {
    name: 'proxy',
    summary: 'a validating reverse proxy: forwards traffic unchanged, judges each request (client) and answer (server)',
    usage: 'proxy --target URL [--port PORT] [--reporter console|json|junit]... [--output FILE] [--fail-on client|server|any|none] [-- COMMAND ...] [more: help proxy]',
    flags: proxyFlags,
    run: async (args, { sanitizer }) => (await import('../proxy/cli.ts')).runProxy(args, { stdout: process.stdout, stderr: process.stderr, sanitizer }),
  },
];

/**
 * The generator is a development command of the repository: it rewrites the repository's
 * generated/ from its spec/ with ts-morph, none of which ships. The module is named by a computed
 * URL so the compiled package neither holds nor tries to load it.
 */
type GeneratorModule = { runGenerate(args: readonly string[]): Promise<number> };

async function generator(): Promise<GeneratorModule> {
  const main = new URL('../generator/main.ts', import.meta.url);
  if (!existsSync(main)) {
    throw new SetupError(
      'generate is a development command of the hosted-site-contract repository, not of the installed package: ' +
        'in a clone of the repository, run npm ci, then npm run generate',
    );
  }
  return import(main.href) as Promise<GeneratorModule>;
}

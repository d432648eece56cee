/**
 * The README's CI example (section "Upgrading to a new document version") cannot rot: its YAML
 * parses, every `hosted-site-contract` command it runs (directly with npx, or through an npm
 * script) is a real command whose flags that command's own flag parser accepts, the diffs it runs
 * run (against files standing in for the refs), and the job keeps the properties the README
 * states: the comment never fails the job and is skipped on forks, it updates only the comment
 * it marked, the gate always runs, and the JUnit file the gate writes is the one published.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { oneOf, parseFlags } from '../bin/command.ts';
import { wellFormed } from '../conformance/report/well-formed.ts';
import { generateFlagOptions } from '../generator/main.ts';
import { runDiff } from './cli.ts';
import { DIFF_FORMATS, diffFlagOptions, FAIL_ON } from './flags.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The spec-upgrade guide, where the example lives (it was the README's section of the same name). */
const readme = readFileSync(join(root, 'docs', 'spec-upgrades.md'), 'utf8');
const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** The YAML blocks of the guide titled `heading`, to its next `## ` section. */
function yamlBlocks(heading: string): string[] {
  const start = readme.indexOf(`# ${heading}\n`);
  expect(start, `no guide titled ${heading}`).toBeGreaterThanOrEqual(0);
  const next = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, next < 0 ? undefined : next);
  return [...section.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/**
 * The simple commands of a shell script as word lists: quotes removed, `${{ }}` expressions and
 * redirection targets dropped, split at `|`, `&&`, `||`, `;`, `$(`, `(`, `)`, `{`, `}` and new lines.
 * Enough for the example's shell, which keeps to these forms.
 */
function commandsOf(script: string): string[][] {
  const commands: string[][] = [[]];
  const text = script.replace(/\$\{\{[\s\S]*?\}\}/g, 'EXPR').replace(/\\\n/g, ' ');
  let word = '';
  let inWord = false;
  let quote: string | undefined;
  let redirected = false;
  const endWord = () => {
    if (inWord && !redirected) commands.at(-1)!.push(word);
    else if (inWord) redirected = false;
    word = '';
    inWord = false;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
      else word += ch;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (ch === '#' && !inWord) {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
    } else if (ch === '\n' || '|&;(){}'.includes(ch) || (ch === '$' && text[i + 1] === '(')) {
      endWord();
      commands.push([]);
      if (ch === '$') i++;
    } else if (ch === '>') {
      endWord();
      if (text[i + 1] === '>') i++;
      redirected = true;
    } else if (/\s/.test(ch)) {
      endWord();
    } else {
      word += ch;
      inWord = true;
    }
  }
  endWord();
  return commands.filter((c) => c.length > 0);
}

interface Invocation {
  readonly command: string;
  readonly args: readonly string[];
}

/** A `hosted-site-contract` command a word list runs: `npx hosted-site-contract ...` or an npm script that runs it. */
function invocationOf(words: readonly string[]): Invocation | undefined {
  if (words[0] === 'npx' && words[1] === 'hosted-site-contract') return { command: words[2]!, args: words.slice(3) };
  if (words[0] === 'npm' && words[1] === 'run') {
    const script = scripts[words[2]!];
    expect(script, `npm run ${words[2]}: no such script in package.json`).toBeDefined();
    const [ran] = commandsOf(script!);
    if (ran?.[0] !== 'node' || ran[1] !== 'bin/hosted-site-contract.js') return undefined;
    const extra = words.slice(3);
    return { command: ran[2]!, args: [...ran.slice(3), ...(extra[0] === '--' ? extra.slice(1) : extra)] };
  }
  return undefined;
}

/** Each command's own flag parser (and the checks of its values), as the CLI runs them. */
const parsers: Record<string, (args: readonly string[]) => void> = {
  diff: (args) => {
    const flags = parseFlags(args, diffFlagOptions);
    expect(flags.from, 'diff needs --from').toBeTruthy();
    oneOf('--format', flags.format, DIFF_FORMATS);
    oneOf('--fail-on', flags['fail-on'], FAIL_ON);
  },
  generate: (args) => void parseFlags(args, generateFlagOptions),
};

interface Step {
  readonly name?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly if?: string;
  readonly env?: Record<string, string>;
  readonly with?: Record<string, unknown>;
  readonly 'continue-on-error'?: boolean;
}

const [block, ...others] = yamlBlocks('Upgrading to a new document version');
const workflow = parse(block ?? '') as { jobs: Record<string, { steps: Step[] }> };
const steps = Object.values(workflow.jobs ?? {}).flatMap((job) => job.steps);
const runs = steps.flatMap((step, index) => (step.run ? commandsOf(step.run).map((words) => ({ step, index, words, invocation: invocationOf(words) })) : []));
const ours = runs.filter((r) => r.invocation);
const diffs = ours.filter((r) => r.invocation!.command === 'diff');
/** The value of a flag in a word list (`--flag VALUE` or `--flag=VALUE`). */
const flag = (args: readonly string[], name: string): string | undefined => {
  const at = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (at < 0) return undefined;
  return args[at]!.includes('=') ? args[at]!.slice(args[at]!.indexOf('=') + 1) : args[at + 1];
};
const runsAfterFailure = (condition: string | undefined) => /!cancelled\(\)|always\(\)/.test(condition ?? '');

describe('the README\'s CI example', () => {
  it('is one YAML block that parses to a workflow with steps', () => {
    expect(others).toEqual([]);
    expect(steps.length).toBeGreaterThan(0);
  });

  it('runs hosted-site-contract commands: the drift gate and two diffs', () => {
    expect(ours.map((r) => r.invocation!.command).sort()).toEqual(['diff', 'diff', 'generate']);
  });

  it.each(ours.map((r) => [r.words.join(' '), r.invocation!] as const))('%s: a real command, its flags accepted by its own parser', (_, invocation) => {
    const parser = parsers[invocation.command];
    expect(parser, `hosted-site-contract has no command ${invocation.command} the example may run`).toBeDefined();
    parser!(invocation.args);
  });

  describe('the diffs it runs, run (the refs stood in for by today\'s snapshot)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hsc-readme-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const sink = () => new Writable({ write: (_c, _e, done) => done() });

    it.each(diffs.map((r) => [r.words.join(' '), r.invocation!.args] as const))('%s', async (_, args) => {
      const standIn = args.map((a, i) => (args[i - 1] === '--from' ? join(root, 'generated/contract.json') : a));
      // Outside a repository the default --to is the package's own snapshot: the same, so no change.
      const code = await runDiff(standIn, { stdout: sink(), stderr: sink(), cwd: dir });
      expect(code).toBe(0);
      const output = flag(args, 'output');
      expect(output, 'the example writes each report to a file').toBeDefined();
      const written = readFileSync(join(dir, output!), 'utf8');
      if (flag(args, 'format') === 'junit') expect(wellFormed(written)).toEqual([]);
      else expect(written).toMatch(/^## Contract diff/);
    });
  });

  it('fetches the whole history, so the base branch is there for git show', () => {
    const checkout = steps.find((s) => s.uses?.startsWith('actions/checkout@'));
    expect(checkout?.with?.['fetch-depth']).toBe(0);
  });

  it('comments only from the same repository, never failing the job, updating only the comment it marked', () => {
    const comment = steps.find((s) => s.run?.includes('gh api'))!;
    expect(comment, 'a step that comments').toBeDefined();
    expect(comment['continue-on-error']).toBe(true);
    expect(comment.if).toMatch(/github\.event\.pull_request\.head\.repo\.full_name == github\.repository/);
    const marker = comment.env?.MARKER ?? '';
    expect(marker).toMatch(/^<!--.*-->$/); // hidden in the rendered comment
    expect(comment.run).toContain('echo "$MARKER"'); // the comment carries it
    expect(comment.run).toMatch(/select\(\.body \| startswith\(env\.MARKER\)\)/); // and is found by it
    const markdown = diffs.find((r) => (flag(r.invocation!.args, 'format') ?? 'markdown') === 'markdown')!;
    expect(comment.run).toContain(`cat ${flag(markdown.invocation!.args, 'output')}`);
  });

  it('always runs the gate, and publishes the JUnit file it writes whether it passed or failed', () => {
    const gate = diffs.find((r) => flag(r.invocation!.args, 'fail-on'))!;
    expect(gate, 'a diff with --fail-on').toBeDefined();
    expect(runsAfterFailure(gate.step.if), gate.step.if).toBe(true);
    expect(flag(gate.invocation!.args, 'format')).toBe('junit');
    const junit = flag(gate.invocation!.args, 'output');
    const upload = steps.findIndex((s, i) => i > gate.index && s.uses?.startsWith('actions/upload-artifact@') && s.with?.path === junit);
    expect(upload, `an upload of ${junit} after the gate`).toBeGreaterThan(gate.index);
    expect(runsAfterFailure(steps[upload]!.if), steps[upload]!.if).toBe(true);
  });
});

describe('commandsOf: the shell the example uses, as words', () => {
  it.each([
    ['a pipeline and a redirection', 'cat a.md >> "$F" | head -n 1', [['cat', 'a.md'], ['head', '-n', '1']]],
    ['a group, a substitution, an expression', '{ echo "$M"; cat x; } > y\nid=$(gh api "r/${{ github.x }}" --jq \'.[] | .id\')', [['echo', '$M'], ['cat', 'x'], ['id='], ['gh', 'api', 'r/EXPR', '--jq', '.[] | .id']]],
    ['a comment and a continued line', 'npx hosted-site-contract diff \\\n  --from x # the base', [['npx', 'hosted-site-contract', 'diff', '--from', 'x']]],
  ])('%s', (_, script, want) => {
    expect(commandsOf(script)).toEqual(want);
  });
});

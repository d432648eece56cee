/**
 * The fenced blocks of the README and docs/, and how each one is run. A block is output (`text`:
 * what a command prints) or something a reader runs: a shell block (`sh`) or a GitHub Actions
 * step (`yaml`) calling `hosted-site-contract` runs as written in a project that installed the
 * package (scripts/package.test.ts); every other one is run by the test file RAN_ELSEWHERE names.
 * A block that names the example API (`https://api.example.com/v2`, `<site uuid>`) needs a live
 * API: the test stands a separately started mock in for it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const root = fileURLToPath(new URL('..', import.meta.url));

export interface DocBlock {
  /** Relative to the repository, e.g. `docs/live-api.md`. */
  readonly file: string;
  /** The line of the opening fence. */
  readonly line: number;
  readonly lang: string;
  readonly text: string;
}

/** What a command prints, shown to the reader: nothing to run. */
export const OUTPUT_LANGS: readonly string[] = ['text'];

/** The live API a block names, and the site id it asks for: stood in for by a mock. */
export const LIVE_API = 'https://api.example.com/v2';
export const SITE_PLACEHOLDER = '<site uuid>';

export function docFiles(): string[] {
  const docs = readdirSync(join(root, 'docs'), { recursive: true }).map((f) => join('docs', String(f)));
  return ['README.md', ...docs.filter((f) => f.endsWith('.md')).sort()];
}

export function docBlocks(): DocBlock[] {
  return docFiles().flatMap((file) => {
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    const blocks: DocBlock[] = [];
    for (let i = 0; i < lines.length; i++) {
      const open = /^```(\S*)$/.exec(lines[i]!);
      if (!open) continue;
      const end = lines.findIndex((l, j) => j > i && l === '```');
      if (end < 0) throw new Error(`${file}:${i + 1}: a fence that never closes`);
      blocks.push({ file, line: i + 1, lang: open[1]!, text: lines.slice(i + 1, end).join('\n') });
      i = end;
    }
    return blocks;
  });
}

/** A GitHub Actions step, with the env of its job around it. */
export interface WorkflowStep {
  readonly name?: string;
  readonly run?: string;
  readonly env: Readonly<Record<string, string>>;
}

/** The steps of a `yaml` block: a workflow's jobs, or a fragment that is a list of steps. */
export function workflowSteps(text: string): WorkflowStep[] {
  type Step = { name?: string; run?: string; env?: Record<string, string> };
  const doc = parse(text) as Step[] | { jobs?: Record<string, { env?: Record<string, string>; steps?: Step[] }> };
  const jobs = Array.isArray(doc) ? [{ steps: doc }] : Object.values(doc.jobs ?? {});
  return jobs.flatMap((job) => (job.steps ?? []).map((s) => ({ ...(s.name ? { name: s.name } : {}), ...(s.run ? { run: s.run } : {}), env: { ...('env' in job ? job.env : {}), ...s.env } })));
}

const CALLS_TOOL = /\bhosted-site-contract (conform|mock|proxy|diff|explain|self-test)\b/;

/** The steps of a workflow block that call the tool's suite (`conform`), run here as written. */
export const conformSteps = (block: DocBlock): WorkflowStep[] => workflowSteps(block.text).filter((s) => /\bhosted-site-contract conform\b/.test(s.run ?? ''));

/**
 * Blocks run by another test, each found by a line of its text: that test reads the doc and
 * runs the block (or, for an excerpt of the catalogue, checks it is the catalogue's own text).
 */
export const RAN_ELSEWHERE: readonly { readonly file: string; readonly holds: string; readonly by: string; readonly how: string }[] = [
  { file: 'README.md', holds: 'npm ci && npm run conformance', by: '.ci/run', how: 'CI runs the two set-up commands from a clean clone' },
  { file: 'docs/explain.md', holds: '$ npx hosted-site-contract explain', by: 'bin/explain.test.ts', how: 'runs the command and compares its output' },
  { file: 'docs/proxy.md', holds: 'hosted-site-contract proxy --target', by: 'scripts/package.test.ts', how: 'runs the CI block through npx and without, in bash -e' },
  { file: 'docs/spec-upgrades.md', holds: 'hosted-site-contract diff --from generated/contract.json', by: 'diff/next-version.test.ts', how: 'runs the diff of the worked example' },
  { file: 'docs/spec-upgrades.md', holds: 'name: contract diff', by: 'diff/readme-example.test.ts', how: 'runs its diffs against files standing in for the refs, and checks the job' },
  { file: 'docs/self-test.md', holds: 'self-test --shard ${{ matrix.shard }}/3', by: '.ci/run', how: 'CI runs the three shards of the matrix, as written' },
  { file: 'docs/self-test.md', holds: "fault('backup-id-string'", by: 'scripts/doc-blocks.test.ts', how: 'the excerpt is the catalogue entry, word for word' },
  { file: 'docs/config.md', holds: '"conform": {', by: 'bin/config.test.ts', how: 'valid under the generated schema, and read by conform and the proxy' },
  { file: 'docs/library.md', holds: "from 'vitest'", by: 'scripts/package.test.ts', how: 'run by vitest in a project that installed the package' },
  { file: 'docs/library.md', holds: "from 'hosted-site-contract/client'", by: 'scripts/package.test.ts', how: 'compiled and run in a consumer project against a mock' },
];

/** How a block is run: output, here as written, or by another test (RAN_ELSEWHERE); undefined if nothing runs it. */
export function howRun(block: DocBlock): 'output' | 'here' | (typeof RAN_ELSEWHERE)[number] | undefined {
  if (OUTPUT_LANGS.includes(block.lang)) return 'output';
  const elsewhere = RAN_ELSEWHERE.find((e) => e.file === block.file && block.text.includes(e.holds));
  if (elsewhere) return elsewhere;
  if (block.lang === 'sh' && CALLS_TOOL.test(block.text)) return 'here';
  if (block.lang === 'yaml' && conformSteps(block).length > 0 && workflowSteps(block.text).every((s) => !s.run || !CALLS_TOOL.test(s.run) || /hosted-site-contract conform\b/.test(s.run))) return 'here';
  return undefined;
}

/** The blocks the package test runs as written. */
export const blocksRunHere = (): DocBlock[] => docBlocks().filter((b) => howRun(b) === 'here');

/**
 * Contract diff speed: today's snapshot against the fictitious next version's (the worked
 * example of diff/next-version.test.ts), in process (the engine alone; read, checked, diffed and
 * rendered as Markdown) and through the CLI, from two files and against the working tree (which adds
 * the check that generated/contract.json is what the model writes). Target: well under a second;
 * reported here, never asserted in tests.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { msRow, runCli, time, type Row, type Section } from './harness.ts';

const TARGET_MS = 1000;

export const section: Section = {
  title: 'diff',
  async run(options) {
    const runs = options.runs ?? 20;
    const cliRuns = Math.max(1, Math.min(options.runs ?? 5, 10));
    const [{ api }, { contractOf }, { nextVersion }, { diffContracts }, { parseSnapshot }, { renderMarkdown }, { reportOf }] = await Promise.all([
      import('../../spec/api.ts'),
      import('../../spec/contract.ts'),
      import('../../diff/fixtures/next-version/model.ts'),
      import('../../diff/engine.ts'),
      import('../../diff/snapshot.ts'),
      import('../../diff/markdown.ts'),
      import('../../diff/report.ts'),
    ]);
    const [today, next] = [contractOf(api), contractOf(nextVersion(api))];
    const [todayText, nextText] = [JSON.stringify(today, null, 2), JSON.stringify(next, null, 2)];
    const rows: Row[] = [];
    let changes = 0;
    rows.push(msRow('diffContracts (today → next)', await time(runs, () => (changes = diffContracts(today, next).length)), `${changes} changes`));
    const whole = await time(runs, () => {
      const [a, b] = [parseSnapshot(todayText), parseSnapshot(nextText)];
      return renderMarkdown(reportOf({ source: 'a', specVersion: a.specVersion }, { source: 'b', specVersion: b.specVersion }, diffContracts(a, b)));
    });
    rows.push(msRow('parse + check both, diff, render markdown', whole, `${Math.round(todayText.length / 1024)} KiB per snapshot`));
    const { isStale } = await import('../../diff/stale.ts');
    const root = fileURLToPath(new URL('../../', import.meta.url));
    let stale = false;
    rows.push(msRow('stale check (the model\'s snapshot against the working tree\'s)', await time(runs, async () => (stale = await isStale(root, root))), stale ? 'stale' : 'up to date'));

    const dir = mkdtempSync(join(tmpdir(), 'hsc-bench-diff-'));
    try {
      writeFileSync(join(dir, 'today.json'), todayText);
      writeFileSync(join(dir, 'next.json'), nextText);
      let code = 0;
      const cli = await time(cliRuns, async () => {
        code = (await runCli(['diff', '--from', join(dir, 'today.json'), '--to', join(dir, 'next.json')])).code;
      });
      rows.push(msRow('CLI diff --from FILE --to FILE, end to end', cli, `${cli.median < TARGET_MS ? 'under' : 'OVER'} the ${TARGET_MS} ms target; exit ${code}`));
      // The default --to: the working tree's snapshot, held against the model's (the stale check).
      const tree = await time(cliRuns, async () => {
        code = (await runCli(['diff', '--from', join(dir, 'today.json')])).code;
      });
      rows.push(msRow('CLI diff --from FILE (to: working tree, stale check), end to end', tree, `${tree.median < TARGET_MS ? 'under' : 'OVER'} the ${TARGET_MS} ms target; exit ${code}`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return rows;
  },
};

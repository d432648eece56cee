/**
 * `npm run bench [-- [--runs N] [SECTION...]]`: runs every bench section in scripts/bench/ (each
 * module there that exports `section`), in file-name order, and prints one table per section;
 * a section that takes minutes (the test suite's wall time) runs only when named.
 * Figures are reported, never asserted: timing assertions make flaky tests.
 */
import { cpus } from 'node:os';
import { readdir } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { renderTable, type Section } from './bench/harness.ts';

const benchDir = new URL('./bench/', import.meta.url);

async function loadSections(): Promise<Section[]> {
  const names = (await readdir(benchDir)).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts')).sort();
  const modules = await Promise.all(names.map((n) => import(new URL(n, benchDir).href) as Promise<{ section?: Section }>));
  return modules.flatMap((m) => (m.section ? [m.section] : []));
}

async function main(): Promise<number> {
  let values: { runs?: string | undefined };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ options: { runs: { type: 'string' } }, allowPositionals: true, strict: true }));
  } catch (error) {
    console.error(`bench: ${(error as Error).message.split(/\.\s/)[0]} (usage: npm run bench -- [--runs N] [SECTION...])`);
    return 2;
  }
  const runs = values.runs === undefined ? undefined : Number(values.runs);
  if (runs !== undefined && !(Number.isInteger(runs) && runs > 0)) {
    console.error(`bench: --runs needs a positive whole number, got '${values.runs}'`);
    return 2;
  }
  const all = await loadSections();
  const unknown = positionals.filter((p) => !all.some((s) => s.title === p));
  if (unknown.length) {
    console.error(`bench: no section named ${unknown.join(', ')} (sections: ${all.map((s) => s.title).join(', ')})`);
    return 2;
  }
  const chosen = positionals.length ? all.filter((s) => positionals.includes(s.title)) : all.filter((s) => !s.onlyWhenNamed);
  const skipped = positionals.length ? [] : all.filter((s) => s.onlyWhenNamed).map((s) => s.title);

  const cpu = cpus();
  console.log(`hosted-site-contract bench: node ${process.version}, ${process.platform} ${process.arch}, ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown cpu'})`);
  if (skipped.length) console.log(`(not run unless named, as they take minutes: ${skipped.join(', ')}; e.g. npm run bench -- ${skipped[0]})`);
  for (const section of chosen) {
    console.log(`\n## ${section.title}\n`);
    console.log(renderTable(await section.run(runs === undefined ? {} : { runs })));
  }
  return 0;
}

process.exitCode = await main();

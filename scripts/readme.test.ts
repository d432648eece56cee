/**
 * The README as a new user meets it: short, every link leads somewhere, and its commands are the
 * tool's own. The sample verdict is what a default run prints (its counts; the timing aside), the
 * live-API command and the CI block parse as `conform` reads them (a live API stood in for), and
 * every relative link of the README and docs/ names a file that exists.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { Writable } from 'node:stream';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { runConform } from '../conformance/cli.ts';
import { parseConformArgs } from '../conformance/options.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const blocks = (lang: string) => [...readme.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((m) => m[1]!);

/** A shell command's words after `conform`, quotes taken off, `$VAR` and `<…>` stood in for. */
function conformArgs(command: string): string[] {
  const words = command.replace(/\\\n/g, ' ').trim().split(/\s+/);
  return words.slice(words.indexOf('conform') + 1).map((w, i, all) => {
    const word = w.replace(/^"(.*)"$/, '$1');
    if (/^\$\w+$|^<.*>$/.test(word) || (word === '<site' && all[i + 1] === 'uuid>')) return all[i - 1] === '--base-url' ? 'https://api.example.com/v2' : '11111111-1111-4111-8111-111111111111';
    return word;
  }).filter((w) => w !== 'uuid>');
}

describe('the README', () => {
  it('is short: at most 150 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(150);
  });

  it('every relative link, here and in docs/, names a file that exists', () => {
    const files = ['README.md', ...readdirSync(join(root, 'docs'), { recursive: true }).map((f) => join('docs', String(f))).filter((f) => f.endsWith('.md'))];
    const broken: string[] = [];
    for (const file of files) {
      for (const [, target] of readFileSync(join(root, file), 'utf8').matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        if (!existsSync(join(root, dirname(file), target!))) broken.push(`${file} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('its sample verdict is what a default run against the embedded mock prints (the timing aside)', async () => {
    const sample = blocks('text').find((b) => b.startsWith('✓ conforms'))!.trim();
    let stderr = '';
    let stdout = '';
    const sink = (add: (t: string) => void) => new Writable({ write: (chunk: Buffer, _e, done) => (add(chunk.toString('utf8')), done()) });
    const code = await runConform([], { stdout: sink((t) => (stdout += t)), stderr: sink((t) => (stderr += t)), env: {} });
    expect(code).toBe(0);
    const verdict = stdout.trimEnd().split('\n').at(-1)!;
    // Up to the timing: the counts, the coverage figure and the seed are the run's own.
    const counts = (line: string) => [line.slice(0, line.indexOf(' — ')), /seed \d+$/.exec(line)?.[0]];
    expect(counts(sample)).toEqual(counts(verdict));
  }, 120_000);

  it('its live-API command and its CI block are flags conform reads', () => {
    const live = blocks('sh').find((b) => b.includes('--base-url'))!;
    expect(() => parseConformArgs(conformArgs(live.split('\n').find((l) => l.includes(' conform '))!), { HSC_API_KEY: 'key-0123456789abcdef' })).not.toThrow();
    const ci = parse(blocks('yaml')[0]!) as { run: string; env: Record<string, string> }[];
    const step = ci[0]!;
    expect(step.env.HSC_API_KEY).toMatch(/^\$\{\{ secrets\.\w+ \}\}$/);
    const options = parseConformArgs(conformArgs(step.run).map((w, i, all) => (all[i - 1] === '--output' ? join(tmpdir(), 'hsc-readme-contract.xml') : w)), { HSC_API_KEY: 'key-0123456789abcdef' });
    // Annotations on stdout for GitHub to read, JUnit in the file; the verdict line goes to stderr.
    expect(options.destinations.map((d) => [d.reporter, typeof d.to === 'object' ? 'file' : d.to])).toEqual([
      ['github', 'stdout'],
      ['junit', 'file'],
    ]);
  });
});

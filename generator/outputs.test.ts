/** All outputs together: deterministic, bannered, one path each. */
import { describe, expect, it } from 'vitest';
import { api } from '../spec/api.ts';
import { carriesBanner } from './main.ts';
import { bannerLines, codeBanner, hashBanner, type Generate } from './output.ts';
import { generateAll, outputs } from './outputs.ts';

const files = generateAll(api);

describe('generateAll', () => {
  it('is deterministic: two runs give the same files, byte for byte', () => {
    expect(generateAll(api)).toEqual(files);
  });

  it('returns files sorted by path', () => {
    const paths = files.map((f) => f.path);
    expect(paths).toEqual([...paths].sort());
  });

  it('gets at least one file from every output module', () => {
    for (const generate of outputs) expect(generate(api).length).toBeGreaterThan(0);
    expect(files.length).toBe(outputs.reduce((n, generate) => n + generate(api).length, 0));
  });

  it.each(files.map((f) => [f.path, f.contents] as const))('%s opens with the banner and ends with one newline', (path, contents) => {
    const generator = /Written by (generator\/\S+\.ts)/.exec(contents)?.[1];
    expect(generator, 'the banner names the generator module').toBeDefined();
    const lines = bannerLines(api, generator!);
    expect(lines[0]).toContain(`spec ${api.specVersion}`);
    expect(lines[0]).toContain('do not edit');
    if (path.endsWith('.json')) {
      // JSON has no comments: the banner is the document's first key, `$comment`.
      const [first] = Object.entries(JSON.parse(contents) as Record<string, unknown>);
      expect(first).toEqual(['$comment', lines.join(' ')]);
    } else {
      expect(contents.startsWith(path.endsWith('.yaml') ? hashBanner(api, generator!) : codeBanner(api, generator!))).toBe(true);
    }
    expect(carriesBanner(contents)).toBe(true);
    expect(contents.endsWith('\n') && !contents.endsWith('\n\n')).toBe(true);
    expect(contents).not.toContain('\r');
  });

  it('refuses two outputs that claim one path', () => {
    const twice: Generate = () => [{ path: 'same.ts', contents: 'x' }];
    expect(() => generateAll(api, [twice, twice])).toThrow(/two outputs both produce generated\/same\.ts/);
  });

  it.each(['', '/abs.ts', '../up.ts', 'a/../b.ts', 'a\\b.ts', 'a//b.ts'])('refuses the path %j', (path) => {
    expect(() => generateAll(api, [() => [{ path, contents: 'x' }]])).toThrow(/must be relative/);
  });
});

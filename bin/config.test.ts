/**
 * The config file: its sections become the flags each command parses (the file first, the command
 * line over it), `${NAME}` reads the environment, a credential written literally is refused
 * without being shown, `--print-config` prints what `--config` reads back (credentials as
 * references), and the generated schema accepts what the commands accept and refuses the rest.
 * A run from a config file alone sends what the same flags send (conformance/cli.test.ts has the
 * runs over sockets).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runConform } from '../conformance/cli.ts';
import { parseConformArgs } from '../conformance/options.ts';
import { runDiff } from '../diff/cli.ts';
import { startMock } from '../mock/server.ts';
import { parseProxyArgs } from '../proxy/cli.ts';
import { conformFlagOptions } from '../conformance/flags.ts';
import { diffFlagOptions } from '../diff/flags.ts';
import { mockFlagOptions } from '../mock/flags.ts';
import { proxyFlagOptions } from '../proxy/flags.ts';
import { UsageError } from './command.ts';
import { CONFIG_FILE, CONFIG_FLAGS, printableConfig, referencedValues, sectionArgs, withConfig, type FlagOptionSet } from './config.ts';

const dir = mkdtempSync(join(tmpdir(), 'hsc-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
/** A config file holding `content`, its path. */
function file(content: unknown, name = `c${files++}.json`): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}
const refused = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('not refused');
};

const SECRET = 'sk-live-0123456789abcdef';
const schema = JSON.parse(readFileSync(new URL('../generated/config.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const validate = new Ajv2020({ strict: false }).compile(schema);

describe('a section becomes flags', () => {
  it('camelCase keys are the flags; a switch true is the flag, false none; a list repeats it; a number is its digits', () => {
    const args = sectionArgs({ baseUrl: 'https://api.example.com/v2', allowDestructive: true, strict: false, reporter: ['json', 'junit'], runs: 5 }, conformFlagOptions, {}, 'c: conform', true);
    expect(args).toEqual(['--base-url=https://api.example.com/v2', '--allow-destructive', '--reporter=json', '--reporter=junit', '--runs=5']);
  });

  it.each([
    ['a key that is no flag, with the nearest', { baseURL: 'x' }, /c: conform\.baseURL is no option; did you mean baseUrl\?/],
    ['a flag spelled with dashes', { 'base-url': 'x' }, /c: conform\.base-url is no option; did you mean baseUrl\?/],
    ['a list for a flag that takes one value', { seed: ['1', '2'] }, /c: conform\.seed takes one value, not a list/],
    ['a switch that is not true or false', { strict: 'yes' }, /c: conform\.strict must be true or false/],
    ['an object where a value is due', { runs: { n: 5 } }, /c: conform\.runs must be a string or a number/],
    ['the config flag itself', { config: 'other.json' }, /c: conform\.config is no option/],
    ['an empty list (which would read as the flag left out: every rule)', { only: [] }, /c: conform\.only is an empty list: leave it out, or give it values/],
  ])('%s: refused, one line', (_, section, want) => {
    expect(refused(() => sectionArgs(section, conformFlagOptions, {}, 'c: conform', true))).toMatch(want);
  });

  it('${NAME} reads the environment, inside a value too; an unset one names the variable, never a value', () => {
    expect(sectionArgs({ baseUrl: '${BASE}/v2', siteId: '${SITE}' }, conformFlagOptions, { BASE: 'https://h', SITE: 's-1' }, 'c: conform', true)).toEqual(['--base-url=https://h/v2', '--site-id=s-1']);
    expect(refused(() => sectionArgs({ siteId: '${NOPE}' }, conformFlagOptions, {}, 'c: conform', true))).toBe('c: conform.siteId names ${NOPE}, which is not set in the environment');
  });

  it('a credential only as a reference: written literally the file is refused, the message never holding it', () => {
    for (const key of ['apiKey', 'otherApiKey'] as const) {
      const message = refused(() => sectionArgs({ [key]: SECRET }, conformFlagOptions, {}, 'c: conform', true));
      expect(message).toMatch(new RegExp(`c: conform\\.${key} is a credential written literally: write "\\$\\{HSC_(OTHER_)?API_KEY\\}"`));
      expect(message).not.toContain(SECRET);
      // A reference with more around it is a literal too: part of the key would sit in the file.
      expect(refused(() => sectionArgs({ [key]: `${SECRET.slice(0, 8)}\${REST}` }, conformFlagOptions, { REST: 'x' }, 'c: conform', true))).not.toContain(SECRET.slice(0, 8));
    }
    expect(sectionArgs({ apiKey: '${MY_KEY}' }, conformFlagOptions, { MY_KEY: SECRET }, 'c: conform', true)).toEqual([`--api-key=${SECRET}`]);
    // The programmatic API passes its options the same way, not from a file: a key is a value there.
    expect(sectionArgs({ apiKey: SECRET }, conformFlagOptions, {}, 'conform()', false)).toEqual([`--api-key=${SECRET}`]);
  });
});

describe('the file and the command line', () => {
  const options = conformFlagOptions;

  it('the file comes first and the command line wins, a repeatable flag replaced whole', () => {
    const f = file({ conform: { seed: 7, reporter: ['json', 'junit'], output: 'r.json', strict: true } });
    expect(withConfig('conform', ['--config', f, '--seed', '9', '--reporter', 'console'], options, {})).toEqual(['--output=r.json', '--strict', '--seed', '9', '--reporter', 'console']);
    expect(withConfig('conform', [`--config=${f}`], options, {})).toEqual(['--seed=7', '--reporter=json', '--reporter=junit', '--output=r.json', '--strict']);
  });

  it(`found as ${CONFIG_FILE} in the working folder; none there, the arguments as given`, () => {
    const here = mkdtempSync(join(dir, 'cwd-'));
    expect(withConfig('conform', ['--runs', '3'], options, {}, here)).toEqual(['--runs', '3']);
    file({ conform: { runs: 4, seed: 1 } }, join(here.slice(dir.length + 1), CONFIG_FILE));
    expect(withConfig('conform', ['--runs', '3'], options, {}, here)).toEqual(['--seed=1', '--runs', '3']);
    // A key no file may hold is refused even when the command line types that flag.
    file({ conform: { printConfig: true } }, join(here.slice(dir.length + 1), CONFIG_FILE));
    expect(refused(() => withConfig('conform', ['--print-config'], options, {}, here))).toMatch(/conform\.printConfig is no option/);
    // --no-config reads none, and cannot go with --config.
    expect(withConfig('conform', ['--no-config', '--runs', '3'], options, {}, here)).toEqual(['--runs', '3']);
    expect(refused(() => withConfig('conform', ['--no-config', '--config', 'x.json'], options, {}, here))).toMatch(/--config and --no-config together/);
    // Another command's section is not this one's.
    expect(withConfig('mock', ['--port', '0'], mockFlagOptions, {}, here)).toEqual(['--port', '0']);
  });

  it('flags after -- are the wrapped command\'s, never read as the proxy\'s', () => {
    const f = file({ proxy: { target: 'http://127.0.0.1:1/v2', port: 0 } });
    expect(withConfig('proxy', ['--config', f, '--', 'npm', 'test', '--port', '9'], proxyFlagOptions, {})).toEqual(['--target=http://127.0.0.1:1/v2', '--port=0', '--', 'npm', 'test', '--port', '9']);
  });

  it.each([
    ['no such file', () => withConfig('conform', ['--config', join(dir, 'missing.json')], options, {}), /--config: no file .*missing\.json/],
    ['--config without a file', () => withConfig('conform', ['--config'], options, {}), /--config needs a file/],
    ['not JSON', () => withConfig('conform', ['--config', file('{ conform: ')], options, {}), /c\d+\.json is not JSON: /],
    ['a list, not an object', () => withConfig('conform', ['--config', file([1])], options, {}), /must hold an object with a section per command \(conform, proxy, mock, diff\)/],
    ['a section no command has', () => withConfig('conform', ['--config', file({ conforms: {} })], options, {}), /'conforms' is no section .*did you mean conform\?/],
    ['a section that is not an object', () => withConfig('conform', ['--config', file({ conform: 'fast' })], options, {}), /conform must be an object of options/],
  ])('%s: one line', (_, run, want) => {
    const message = refused(run);
    expect(message).toMatch(want);
    expect(message).not.toContain('\n');
  });
});

describe('referencedValues (what the process sanitizer learns before any message)', () => {
  it("the values of every ${NAME} the command's section reads, set ones only; none for a file that cannot be read", () => {
    const f = file({ conform: { runs: '${RUNS_TOKEN}', reporter: ['${REPORTER}'], siteId: '${UNSET_ONE}' }, proxy: { target: '${OTHER}' } });
    expect(referencedValues('conform', ['--config', f], { RUNS_TOKEN: 'tok-123456', REPORTER: 'json', OTHER: 'x' })).toEqual([
      { name: 'RUNS_TOKEN', value: 'tok-123456' },
      { name: 'REPORTER', value: 'json' },
    ]);
    expect(referencedValues('conform', ['--config', join(dir, 'nope.json')], { A: 'b' })).toEqual([]);
    expect(referencedValues('explain', ['--config', f], { RUNS_TOKEN: 'x' })).toEqual([]);
  });
});

describe('--print-config', () => {
  /** Values as the flags take them; the credential's is a reference or a key typed on the command line. */
  const valueOf = (flag: string) => (flag === 'base-url' ? fc.constant('https://api.example.com/v2') : fc.stringMatching(/^[a-z0-9][a-z0-9.:/]{0,11}$/));
  const switches = Object.entries(conformFlagOptions).filter(([f, o]) => o.type === 'boolean' && !CONFIG_FLAGS.has(f)).map(([f]) => f);
  const valued = Object.entries(conformFlagOptions).filter(([f, o]) => o.type === 'string' && !CONFIG_FLAGS.has(f) && !f.includes('api-key')).map(([f]) => f);

  it('prints what --config reads back: the same flags, the file\'s references kept, a typed key as ${HSC_API_KEY}', () => {
    fc.assert(
      fc.property(
        fc.subarray(valued),
        fc.subarray(switches),
        fc.subarray(valued),
        fc.boolean(),
        fc.gen(),
        (inFile, switched, typed, keyTyped, g) => {
          const section: Record<string, unknown> = { apiKey: '${MY_KEY}' };
          for (const f of inFile) section[f.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())] = (conformFlagOptions as FlagOptionSet)[f]?.multiple ? [g(valueOf, f)] : g(valueOf, f);
          for (const f of switched) section[f.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())] = true;
          const f = file({ conform: section });
          const line = ['--config', f, ...typed.flatMap((t) => [`--${t}`, g(valueOf, t)]), ...(keyTyped ? ['--api-key', SECRET] : [])];
          const printed = printableConfig('conform', line, conformFlagOptions, 'schema.json');
          expect(printed).not.toContain(SECRET);
          expect(validate(JSON.parse(printed)), JSON.stringify(validate.errors)).toBe(true);
          const env = { MY_KEY: 'from-env-key-0123', HSC_API_KEY: SECRET };
          const back = withConfig('conform', ['--config', file(printed)], conformFlagOptions, env);
          const asRun = withConfig('conform', line, conformFlagOptions, env);
          // The same flags with the same values, whichever side gave them (order aside).
          const norm = (args: readonly string[]) => {
            const out: string[] = [];
            for (let i = 0; i < args.length; i++) {
              const a = args[i]!;
              if (a.includes('=') || (conformFlagOptions as FlagOptionSet)[a.slice(2)]?.type === 'boolean') out.push(a);
              else out.push(`${a}=${args[++i]}`);
            }
            return out.sort();
          };
          expect(norm(back)).toEqual(norm(asRun));
        },
      ),
      { seed: 31, numRuns: 60 },
    );
  });
});

describe("the guide's example (docs/config.md)", () => {
  const guide = readFileSync(new URL('../docs/config.md', import.meta.url), 'utf8');
  const example = /^```json\n([\s\S]*?)^```$/m.exec(guide)![1]!;

  it('is valid under the generated schema, and conform and the proxy read it as flags they accept', () => {
    expect(validate(JSON.parse(example)), JSON.stringify(validate.errors)).toBe(true);
    const f = file(example);
    const env = { HSC_BASE_URL: 'https://api.example.com/v2', HSC_SITE_ID: '11111111-1111-4111-8111-111111111111', HSC_API_KEY: SECRET };
    const options = parseConformArgs(['--config', f], env);
    expect(options.live).toEqual({ baseUrl: 'https://api.example.com/v2', apiKey: SECRET, siteId: env.HSC_SITE_ID });
    expect(options.maxDurationMs).toBe(600_000);
    expect(options.destinations.map((d) => d.reporter)).toEqual(['github', 'junit']);
    expect(parseProxyArgs(['--config', f]).port).toBe(4011);
  });
});

describe('the generated schema (config.schema.json)', () => {
  it('accepts a section of every command, and $schema', () => {
    const config = {
      $schema: './node_modules/hosted-site-contract/dist/generated/config.schema.json',
      conform: { baseUrl: 'https://api.example.com/v2', apiKey: '${HSC_API_KEY}', siteId: 'x', reporter: ['github', 'junit'], maxDuration: '10m', runs: 5, allowDestructive: true },
      proxy: { target: 'http://127.0.0.1:4010/v2', port: 4011, reporter: 'junit', output: 'proxy.xml' },
      mock: { port: 0, variant: 'extra-fields-everywhere', rateLimit: '120/1m' },
      diff: { from: 'main', failOn: 'client-breaking' },
    };
    expect(validate(config), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each([
    ['a key written literally', { conform: { apiKey: SECRET } }],
    ['a flag no command has', { conform: { baseURL: 'x' } }],
    ['a section no command has', { serve: {} }],
    ['a switch given a word', { conform: { strict: 'yes' } }],
  ])('refuses %s', (_, config) => {
    expect(validate(config)).toBe(false);
  });

  it("has a key for every flag of each command's parser (but --config, --no-config and --print-config), described by its help row", () => {
    const sections = (schema.properties as Record<string, { properties: Record<string, { description?: string }> }>);
    const sets: Record<string, FlagOptionSet> = { conform: conformFlagOptions, proxy: proxyFlagOptions, mock: mockFlagOptions, diff: diffFlagOptions };
    for (const [command, options] of Object.entries(sets)) {
      const keys = Object.keys(sections[command]!.properties);
      expect(keys.length, command).toBe(Object.keys(options).filter((f) => f !== 'config' && f !== 'no-config' && f !== 'print-config').length);
    }
    expect(sections.conform!.properties.maxDuration!.description).toMatch(/^--max-duration: /);
  });
});

describe('a config file alone runs as the same flags do (over sockets)', () => {
  const sink = (add: (t: string) => void) => new Writable({ write: (chunk: Buffer, _e, done) => (add(chunk.toString('utf8')), done()) });
  async function conformJson(args: readonly string[], env: NodeJS.ProcessEnv) {
    let out = '';
    const code = await runConform([...args], { stdout: sink((t) => (out += t)), stderr: sink(() => undefined), env });
    // What differs between two runs of one seed: times, and the options as given.
    const report = JSON.parse(out, (key, value: unknown) => (['startedAt', 'durationMs', 'ms', 'wall', 'schedule', 'options'].includes(key) ? undefined : value)) as Record<string, unknown>;
    return { code, report };
  }

  it('conform against a separately started mock: the same report, the key read through ${NAME}', async () => {
    const mock = await startMock({ port: 0 });
    try {
      const flags = ['--base-url', mock.url, '--site-id', mock.fixtures.siteId, '--only', 'AUTH-401,INPUT-400', '--runs', '5', '--reporter', 'json'];
      const f = file({ conform: { baseUrl: mock.url, siteId: mock.fixtures.siteId, apiKey: '${TEAM_KEY}', only: ['AUTH-401,INPUT-400'], runs: 5, reporter: ['json'] } });
      const byFlags = await conformJson(flags, { HSC_API_KEY: mock.fixtures.apiKey });
      const byFile = await conformJson(['--config', f], { TEAM_KEY: mock.fixtures.apiKey });
      expect(byFlags.code).toBe(0);
      expect(byFile.code).toBe(0);
      expect((byFile.report.summary as { passed: number }).passed).toBeGreaterThan(0);
      expect(byFile.report).toEqual(byFlags.report);
    } finally {
      await mock.close();
    }
  }, 120_000);

  it('proxy and diff read their sections', async () => {
    const f = file({ proxy: { target: 'http://127.0.0.1:4010/v2', port: 0, reporter: ['json'], failOn: 'server' }, diff: { from: 'generated/contract.json', format: 'json' } });
    const proxy = parseProxyArgs(['--config', f]);
    expect([proxy.target.href, proxy.port, proxy.failOn]).toEqual(['http://127.0.0.1:4010/v2', 0, 'server']);
    let out = '';
    const code = await runDiff(['--config', f, '--to', 'generated/contract.json'], { stdout: sink((t) => (out += t)), stderr: sink(() => undefined), cwd: fileURLToPath(new URL('..', import.meta.url)) });
    expect(code).toBe(0);
    expect((JSON.parse(out) as { changes: unknown[] }).changes).toEqual([]);
  });
});

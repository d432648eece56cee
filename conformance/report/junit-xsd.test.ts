/**
 * The JUnit report as CI tools take it: valid under the JUnit schema of the Jenkins xUnit plugin
 * (`junit-10.xsd` beside this file, vendored unchanged), checked by libxml2's own schema validator
 * (xmllint compiled to WebAssembly, the `xmllint-wasm` dev dependency: no system tool needed) on
 * the reports of real `conform` runs: the default run against the embedded mock, a run on a mock
 * started here without --allow-destructive and with --fail-on-skip (skipped rows, and the coverage
 * gate's failing testcase), and a run on a fault variant (failures). The same validator rejects reports broken the ways JUnit writers break them, so a
 * pass means something; and every `time` is a duration the schema's own pattern accepts.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { startMock, type RunningMock } from '../../mock/server.ts';
import { runConform } from '../cli.ts';

const XSD = readFileSync(new URL('./junit-10.xsd', import.meta.url), 'utf8');
/** Our header comment: the one thing added to the upstream file, right after the declaration. */
const HEADER = /^(<\?xml[^>]*\?>\n)(<!-- Vendored[\s\S]*?-->\n)/;

/**
 * libxml2's verdict on each document under `schema`: its messages per document, none when valid.
 * One xmllint run for all of them (each run starts a worker and compiles the WebAssembly).
 */
async function schemaErrors(docs: Readonly<Record<string, string>>, schema = XSD): Promise<Record<string, string[]>> {
  const files = Object.entries(docs).map(([name, contents]) => ({ fileName: `${name}.xml`, contents }));
  const result = await validateXML({ xml: files, schema: [{ fileName: 'junit-10.xsd', contents: schema }] });
  // A schema libxml2 cannot compile makes every document "invalid": say so rather than blame the reports.
  expect(result.rawOutput).not.toMatch(/failed to compile|Schemas parser error/);
  return Object.fromEntries(files.map((f) => [f.fileName.slice(0, -'.xml'.length), result.errors.filter((e) => e.rawMessage.startsWith(`${f.fileName}:`) || e.rawMessage.startsWith(`${f.fileName} `)).map((e) => e.rawMessage)]));
}

/** `conform ARGS --reporter junit` in this process; the report is what it prints on stdout. */
async function conformJunit(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; xml: string }> {
  let xml = '';
  const stdout = new Writable({ write: (chunk: Buffer, _encoding, done) => ((xml += chunk.toString('utf8')), done()) });
  const stderr = new Writable({ write: (_chunk, _encoding, done) => done() });
  const code = await runConform([...args, '--reporter', 'junit'], { stdout, stderr, env });
  return { code, xml };
}

const count = (xml: string, pattern: RegExp) => xml.match(pattern)?.length ?? 0;

describe('the vendored schema', () => {
  it('is the upstream file byte for byte once our header comment is taken out (the git blob id it names)', () => {
    const upstream = XSD.replace(HEADER, '$1');
    expect(upstream).not.toBe(XSD);
    const claimed = /git blob ([0-9a-f]{40})/.exec(XSD)?.[1];
    const bytes = Buffer.from(upstream, 'utf8');
    const blob = createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
    expect(blob).toBe(claimed);
  });
});

const RUNS = ['conforming', 'skipping', 'failing'] as const;
const none = Object.fromEntries(RUNS.map((run) => [run, []]));

describe('the JUnit reports of real runs are valid under the Jenkins JUnit schema', () => {
  const reports: Record<(typeof RUNS)[number], string> = { conforming: '', skipping: '', failing: '' };
  let mock: RunningMock | undefined;
  beforeAll(async () => {
    const conforming = await conformJunit([]);
    expect(conforming.code).toBe(0);
    reports.conforming = conforming.xml;

    // A target that is not the embedded mock, without --allow-destructive: destructive rows are
    // skipped, and --fail-on-skip makes the skips fail the run, as a testcase of the gate.
    mock = await startMock({ port: 0 });
    const skipping = await conformJunit(['--base-url', mock.url, '--site-id', mock.fixtures.siteId, '--fail-on-skip'], { HSC_API_KEY: mock.fixtures.apiKey });
    expect(skipping.code).toBe(1);
    reports.skipping = skipping.xml;

    // A fault of the catalogue, only its rule checked (enough for failures, and cheap).
    const failing = await conformJunit(['--mock-variant', 'error-body-without-message', '--only', 'ERR-BODY']);
    expect(failing.code).toBe(1);
    reports.failing = failing.xml;
  }, 60_000); // three real runs, while other test files run beside this one
  afterAll(async () => {
    await mock?.close();
  });

  it('each run shows what it is meant to: skipped rows, failed rows', () => {
    expect(count(reports.conforming, /<testcase /g)).toBeGreaterThan(0);
    expect(count(reports.conforming, /<failure |<skipped /g)).toBe(0);
    expect(count(reports.skipping, /<skipped message="/g)).toBeGreaterThan(0);
    // The gate's testcase is the one failure, and <testsuites> counts it: a CI reading JUnit shows the run red.
    expect(count(reports.skipping, /<failure /g)).toBe(1);
    expect(reports.skipping).toMatch(/<testcase classname="coverage gate" name="--fail-on-skip: every check judged" time="[^"]*">\s*<failure message="\d+ of \d+ checks skipped \(--fail-on-skip\)" type="fail-on-skip">/);
    expect(reports.skipping).toMatch(/<testsuites [^>]*failures="1"/);
    expect(count(reports.failing, /<failure /g)).toBeGreaterThan(0);
  });

  it("each suite's time is a wall time within the run's (its rows run side by side, not added up)", () => {
    for (const xml of Object.values(reports)) {
      const run = Number(/<testsuites [^>]*time="([\d.]+)"/.exec(xml)![1]);
      const suites = [...xml.matchAll(/<testsuite name="[^"]*" [^>]*time="([\d.]+)"/g)].map((m) => Number(m[1]));
      expect(suites.length).toBeGreaterThan(0);
      for (const t of suites) expect(t).toBeLessThanOrEqual(run + 0.001);
    }
  });

  it('the three reports validate', async () => {
    expect(await schemaErrors(reports)).toEqual(none);
  });

  describe('and the validator rejects what the schema forbids (so the check above can fail)', () => {
    const cases: [string, (xml: string) => string, RegExp][] = [
      ['a skip count on <testsuites>', (xml) => xml.replace(/<testsuites /, '<testsuites skipped="3" '), /attribute 'skipped': The attribute 'skipped' is not allowed/],
      ['an `assertions` count on a testcase', (xml) => xml.replace(/<testcase /, '<testcase assertions="2" '), /attribute 'assertions': The attribute 'assertions' is not allowed/],
      ['a testcase without a name', (xml) => xml.replace(/(<testcase [^>]*?) name="[^"]*"/, '$1'), /Element 'testcase': The attribute 'name' is required/],
      ['a testsuite without its failure count', (xml) => xml.replace(/(<testsuite [^>]*?) failures="\d+"/, '$1'), /Element 'testsuite': The attribute 'failures' is required/],
      ['a suite time in exponent notation', (xml) => xml.replace(/(<testsuite [^>]*?time=")[^"]*"/, (_, start: string) => `${start}1e-3"`), /attribute 'time': \[facet 'pattern'\] The value '1e-3'/],
      ['an element the schema does not know', (xml) => xml.replace(/<skipped /, '<skip/><skipped '), /Element 'skip': This element is not expected/],
    ];
    const broken = Object.fromEntries(cases.map(([name, corrupt], i) => [`case${i}`, { name, xml: () => corrupt(reports.skipping) }]));
    let errors: Record<string, string[]>;
    beforeAll(async () => {
      errors = await schemaErrors(Object.fromEntries(Object.entries(broken).map(([file, c]) => [file, c.xml()])));
    });

    it.each(cases.map(([name, , why], i) => [name, `case${i}`, why] as const))('%s', (_, file, why) => {
      expect(broken[file]!.xml()).not.toBe(reports.skipping);
      expect(errors[file]!.join('\n')).toMatch(why);
    });
  });

  describe('every time', () => {
    /** The schema's duration type, as its own pattern (an XSD pattern matches the whole value). */
    const surefireTime = /<xs:simpleType name="SUREFIRE_TIME">\s*<xs:restriction base="xs:string">\s*<xs:pattern value="([^"]+)"\/>/.exec(XSD)?.[1];
    const times = (xml: string) => [...xml.matchAll(/<(testsuites|testsuite|testcase) [^>]*?\btime="([^"]*)"/g)].map((m) => ({ element: m[1]!, time: m[2]! }));

    it.each(RUNS)('in the %s run\'s report is a decimal the schema\'s SUREFIRE_TIME accepts, and they are not all zero', (run) => {
      expect(surefireTime).toBeDefined();
      const decimal = new RegExp(`^(?:${surefireTime})$`);
      const all = times(reports[run]);
      // The root, each suite, each case.
      expect(all.filter((t) => t.element === 'testsuites')).toHaveLength(1);
      expect(all.filter((t) => t.element === 'testsuite')).toHaveLength(count(reports[run], /<testsuite /g));
      expect(all.filter((t) => t.element === 'testcase')).toHaveLength(count(reports[run], /<testcase /g));
      // Testcase times are plain strings to the schema; hold them to the suites' type anyway.
      expect(all.filter((t) => !decimal.test(t.time) || Number.isNaN(Number(t.time)))).toEqual([]);
      expect(all.some((t) => t.element === 'testcase' && Number(t.time) > 0)).toBe(true);
      expect(Number(all.find((t) => t.element === 'testsuites')!.time)).toBeGreaterThan(0);
    });

    it('fit xUnit releases whose SUREFIRE_TIME allowed at most three decimals (the reports pass that schema too)', async () => {
      const older = XSD.replace('(\\.[0-9]*)?"', '(\\.[0-9]{0,3})?"');
      expect(older).not.toBe(XSD);
      const fourth = reports.conforming.replace(/(<testsuites [^>]*?time=")[^"]*"/, (_, start: string) => `${start}0.0005"`);
      const errors = await schemaErrors({ ...reports, fourth }, older);
      expect({ ...errors, fourth: [] }).toEqual({ ...none, fourth: [] });
      // And that schema does reject a fourth decimal.
      expect(errors.fourth!.join('\n')).toMatch(/attribute 'time': \[facet 'pattern'\] The value '0\.0005'/);
    });
  });
});

/**
 * Did-you-mean on every name a user types, through the commands as a user runs them (in this
 * process, their usage errors read as the dispatcher prints them): the slips of the issue that
 * asked for it, each answered with the name meant, and a name far from every one with no guess.
 */
import { describe, expect, it } from 'vitest';
import { UsageError, oneOf } from './command.ts';
import { didYouMean, nearest } from './did-you-mean.ts';
import { parseConformArgs } from '../conformance/options.ts';
import { runMock } from '../mock/cli.ts';
import { parseProxyArgs } from '../proxy/cli.ts';

const refusal = async (run: () => unknown): Promise<string> => {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('not refused');
};

describe('did you mean', () => {
  it.each([
    ['a flag of conform', () => parseConformArgs(['--base-ur', 'http://127.0.0.1:1/v2'], {}), /unknown option '--base-ur'; did you mean --base-url\?/],
    ['a flag of the proxy', () => parseProxyArgs(['--target', 'http://127.0.0.1:1/v2', '--anotate']), /did you mean --annotate\?/],
    ['a rule id', () => parseConformArgs(['--only', 'AUTH-40'], {}), /unknown rule AUTH-40; did you mean AUTH-401\?/],
    ['a reporter', () => parseConformArgs(['--reporter', 'jsno'], {}), /did you mean json\?/],
    ['a variant of the mock', () => runMock(['--variant', 'extra-field']), /no variant named 'extra-field'; did you mean extra-fields/],
  ])('%s', async (_, run, says) => {
    expect(await refusal(run)).toMatch(says);
  });

  it('a name far from every known one gets no guess, and a choice still lists the choices', () => {
    expect(nearest('zzzzzz', ['conform', 'mock', 'proxy'])).toEqual([]);
    expect(didYouMean('hlep', ['conform', 'help', 'mock'])).toBe('; did you mean help?');
    expect(() => oneOf('--fail-on', 'anyy', ['client', 'server', 'any', 'none'])).toThrow(/must be one of client, server, any, none, not 'anyy'; did you mean any\?/);
  });
});

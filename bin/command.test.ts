import { describe, expect, it } from 'vitest';
import { SetupError, thrown, UsageError } from './command.ts';

describe('thrown: what a command that threw comes to', () => {
  const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

  it('a usage error keeps its words and asks for the usage line', () => {
    expect(thrown(new UsageError('unknown flag --x'), 'prog', message)).toEqual({ usage: true, line: 'unknown flag --x' });
  });

  it('a setup problem is said as it is', () => {
    expect(thrown(new SetupError('port 4010 is in use'), 'prog', message)).toEqual({ usage: false, line: 'port 4010 is in use' });
  });

  it.each([new TypeError("Cannot read properties of undefined (reading 'x')"), 'a string thrown'])('anything else is the tool\u2019s own failure, never a verdict: %s', (error) => {
    const { usage, line } = thrown(error, 'prog', message);
    expect(usage).toBe(false);
    expect(line).toMatch(/^internal error: .+ \(a bug of prog, not a verdict/);
    expect(line).toContain(message(error));
  });
});

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { commandLineSecrets } from './process-guard.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('commandLineSecrets', () => {
  it.each([
    ['--api-key KEY', ['conform', '--api-key', 'k-1'], {}, [['HSC_API_KEY', 'k-1']]],
    ['--other-api-key=KEY', ['conform', '--other-api-key=k-2'], {}, [['HSC_OTHER_API_KEY', 'k-2']]],
    ['a mistyped flag', ['conform', '--apikey', 'k-3'], {}, [['HSC_APIKEY', 'k-3']]],
    ['HSC_ variables named like secrets', ['conform'], { HSC_API_KEY: 'k-4', HSC_DEPLOY_TOKEN: 't', HSC_SEED: '1', PATH: '/bin' }, [['HSC_API_KEY', 'k-4'], ['HSC_DEPLOY_TOKEN', 't']]],
    ['`--api-key= KEY` (a space after =)', ['conform', '--api-key=', 'k-5'], {}, [['HSC_API_KEY', 'k-5']]],
    ['flags that are no secret', ['conform', '--site-id', 'x', '--seed', '1'], {}, []],
  ])('%s', (_, args, env, want) => {
    expect(commandLineSecrets(args, env as NodeJS.ProcessEnv).map((s) => [s.name, s.value])).toEqual(want);
  });
});

describe('the dispatcher on a crash', () => {
  it('an error nobody caught is one sanitized line, and exit 2', async () => {
    const script = [
      "import { onCrash } from './bin/process-guard.ts';",
      "import { Sanitizer } from './sanitize/sanitizer.ts';",
      "const s = new Sanitizer([{ value: 'crash-secret-0123456789', name: 'HSC_API_KEY', kind: 'key' }]);",
      "onCrash((e) => console.error('CRASH ' + s.message(e)));",
      "setTimeout(() => { throw new Error('boom with crash-secret-0123456789\\nsecond line'); });",
    ].join('\n');
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root }, (error, _stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stderr }),
      );
    });
    expect(code).toBe(2);
    expect(stderr.trimEnd()).toBe('CRASH boom with [redacted HSC_API_KEY] second line');
  });
});
